//! Divergence classes: the declared, documented reasons a difference from the
//! C reference does not fail a run. The table with each class's reason is
//! data, `vectors/divergence-classes.toml`; this module ties each to code.

use std::fmt;

use serde::Deserialize;

/// The divergence classes table, as written.
pub const TABLE: &str = include_str!("../../vectors/divergence-classes.toml");

/// A divergence class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Outside the declared code point domain.
    Domain,
    /// Needs annotations the implementation does not declare.
    Annotations,
    /// Input its interface cannot carry.
    InputForm,
    /// Beyond a declared length limit.
    LengthLimit,
    /// Failure without an error kind.
    ErrorDetail,
    /// Listed in `vectors/expectations.toml`.
    Listed,
    /// A direction (encoding or decoding) it declares it does not do.
    Direction,
    /// A code point assigned after the Unicode version it declares.
    UnicodeVersion,
}

impl Class {
    /// Every class.
    pub const ALL: [Class; 8] = [
        Class::Domain,
        Class::Annotations,
        Class::InputForm,
        Class::LengthLimit,
        Class::ErrorDetail,
        Class::Listed,
        Class::Direction,
        Class::UnicodeVersion,
    ];

    /// The id used in the table and in reports.
    pub fn id(self) -> &'static str {
        match self {
            Class::Domain => "domain",
            Class::Annotations => "annotations",
            Class::InputForm => "input-form",
            Class::LengthLimit => "length-limit",
            Class::ErrorDetail => "error-detail",
            Class::Listed => "listed",
            Class::Direction => "direction",
            Class::UnicodeVersion => "unicode-version",
        }
    }

    /// The class's entry in the table.
    pub fn entry(self) -> ClassEntry {
        table()
            .into_iter()
            .find(|e| e.id == self.id())
            .expect("every class is in vectors/divergence-classes.toml (tested)")
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One row of the table.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClassEntry {
    /// The id.
    pub id: String,
    /// A short title.
    pub title: String,
    /// Why such a difference is acceptable.
    pub reason: String,
}

#[derive(Deserialize)]
struct Table {
    class: Vec<ClassEntry>,
}

/// The table, parsed.
pub fn table() -> Vec<ClassEntry> {
    toml::from_str::<Table>(TABLE)
        .expect("vectors/divergence-classes.toml parses (tested)")
        .class
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_code_name_the_same_classes() {
        let ids: Vec<String> = table().into_iter().map(|e| e.id).collect();
        let code: Vec<String> = Class::ALL.iter().map(|c| c.id().to_string()).collect();
        assert_eq!(ids, code);
        for class in Class::ALL {
            assert!(
                class.entry().reason.len() > 40,
                "{class} needs a real reason"
            );
        }
    }
}
