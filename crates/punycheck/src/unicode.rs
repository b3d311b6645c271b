//! Unicode versions: the one punycheck's references judge by, and the
//! version that first assigned each code point (the Age property), so
//! that an implementation that declares an older version
//! (`--unicode-version 14.0`) is judged by what its version knew.
//!
//! The references' data is ICU4X's ([`crate::label`]), generated from
//! Unicode [`REFERENCE`]. The Age of each code point is Unicode's
//! `DerivedAge.txt` of that version (`unicode_age.txt` beside this file:
//! its ranges, names left out, under the Unicode License), checked against
//! ICU4X's data by this module's tests: every code point it says is
//! assigned, ICU4X has assigned, and no other. The code points whose UTS #46
//! mapping changed after they were assigned are `uts46_changes.txt` beside
//! it, computed from the IdnaMappingTable of each version, each change's
//! outcome checked against ICU4X's data by the tests too.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A Unicode version, as `major.minor` (`15.1`); the update number plays
/// no part in which code points are assigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnicodeVersion {
    /// The major version.
    pub major: u8,
    /// The minor version.
    pub minor: u8,
}

/// The version of the references' data (ICU4X 2.4's, Unicode 18.0.0).
pub const REFERENCE: UnicodeVersion = UnicodeVersion {
    major: 18,
    minor: 0,
};

/// The ranges of `unicode_age.txt`: first, last, version.
fn table() -> &'static [(u32, u32, UnicodeVersion)] {
    static TABLE: OnceLock<Vec<(u32, u32, UnicodeVersion)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        include_str!("unicode_age.txt")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.is_empty())
            .filter_map(|line| {
                let (range, version) = line.split_once(';')?;
                let (first, last) = range.split_once("..")?;
                Some((
                    u32::from_str_radix(first, 16).ok()?,
                    u32::from_str_radix(last, 16).ok()?,
                    version.parse().ok()?,
                ))
            })
            .collect()
    })
}

/// Every range of `unicode_age.txt`: first, last, and the version that
/// assigned them, in code point order.
pub fn age_ranges() -> &'static [(u32, u32, UnicodeVersion)] {
    table()
}

/// The code points `cps` as UTF-8 text (a question to decode, a
/// decoding compared as text); a surrogate or a value above U+10FFFF as
/// U+FFFD.
pub fn text_of(cps: &[u32]) -> Vec<u8> {
    cps.iter()
        .map(|&cp| char::from_u32(cp).unwrap_or('\u{FFFD}'))
        .collect::<String>()
        .into_bytes()
}

/// The version that first assigned `cp`; `None` for a code point
/// unassigned in [`REFERENCE`] (or above U+10FFFF).
pub fn age(cp: u32) -> Option<UnicodeVersion> {
    let table = table();
    let at = table.partition_point(|&(_, last, _)| last < cp);
    table
        .get(at)
        .filter(|&&(first, _, _)| first <= cp)
        .map(|&(_, _, version)| version)
}

/// Whether `cp` was assigned after `version`: unassigned in it, assigned
/// in the references' data.
pub fn assigned_after(cp: u32, version: UnicodeVersion) -> bool {
    age(cp).is_some_and(|age| age > version)
}

/// The first code point of `code_points` assigned after `version`.
pub fn first_assigned_after(
    code_points: impl IntoIterator<Item = u32>,
    version: UnicodeVersion,
) -> Option<u32> {
    code_points
        .into_iter()
        .find(|&cp| assigned_after(cp, version))
}

/// A change to one range of UTS #46's IdnaMappingTable after the version
/// that assigned its code points (`uts46_changes.txt` beside this file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MappingChange {
    /// The first code point of the range.
    pub first: u32,
    /// The last code point of the range.
    pub last: u32,
    /// The version whose table first has the change.
    pub since: UnicodeVersion,
    /// The entry before: `disallowed`, `mapped 0073 0073`, ...
    pub before: &'static str,
    /// The entry since: `ignored`, `mapped 00DF`, ...
    pub after: &'static str,
}

impl fmt::Display for MappingChange {
    /// `is ignored since Unicode 16.0's IdnaMappingTable (disallowed
    /// before)`, for one code point of the range.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "is {} since Unicode {}'s IdnaMappingTable ({} before)",
            entry_words(self.after),
            self.since,
            entry_words(self.before)
        )
    }
}

/// An entry of `uts46_changes.txt` in words: `mapped 00DF` is "mapped to
/// U+00DF".
fn entry_words(entry: &str) -> String {
    match entry.strip_prefix("mapped ") {
        Some(to) => {
            let to: Vec<String> = to.split(' ').map(|cp| format!("U+{cp}")).collect();
            format!("mapped to {}", to.join(" "))
        }
        None => entry.to_string(),
    }
}

/// Every change of `uts46_changes.txt`: code points whose UTS #46 mapping
/// changed in a later version than the one that assigned them. An
/// implementation of an older table maps them the old way, as its
/// declared version says it would.
pub fn mapping_changes() -> &'static [MappingChange] {
    static CHANGES: OnceLock<Vec<MappingChange>> = OnceLock::new();
    CHANGES.get_or_init(|| {
        include_str!("uts46_changes.txt")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.is_empty())
            .map(|line| {
                let fields: Vec<&'static str> = line.split(';').collect();
                let [range, since, before, after] = fields[..] else {
                    panic!("uts46_changes.txt: {line:?} is not RANGE;VERSION;BEFORE;AFTER");
                };
                let (first, last) = range.split_once("..").expect("a range");
                MappingChange {
                    first: u32::from_str_radix(first, 16).expect("a code point"),
                    last: u32::from_str_radix(last, 16).expect("a code point"),
                    since: since.parse().expect("a version"),
                    before,
                    after,
                }
            })
            .collect()
    })
}

/// The first of `code_points` whose UTS #46 mapping changed after
/// `version`, with the change ([`mapping_changes`]).
pub fn first_remapped_after(
    code_points: impl IntoIterator<Item = u32>,
    version: UnicodeVersion,
) -> Option<(u32, MappingChange)> {
    code_points.into_iter().find_map(|cp| {
        mapping_changes()
            .iter()
            .find(|change| (change.first..=change.last).contains(&cp) && change.since > version)
            .map(|&change| (cp, change))
    })
}

/// Code points whose Bidi_Class, which RFC 5893's Bidi rule reads,
/// changed after a version implementations still use: each with the last
/// version known to hold its old class, NSM (it was Mn), where the
/// references' Unicode 18.0 has L (Mc). CPython's `unicodedata` gives NSM
/// from Unicode 9.0 to 15.1 (Python 3.6 to 3.13), ICU4X's 18.0 data L:
/// the sweep of every code point met them between Hebrew letters, where
/// the PyPI idna package 3.13 (its Bidi classes CPython 3.11's, 14.0)
/// takes them and the reference refuses them (docs/findings.md). Which of
/// 16.0, 17.0 and 18.0 changed them is not read here, so a declaration of
/// 16.0 or later does not explain them.
pub const BIDI_CLASS_CHANGES: [(u32, UnicodeVersion); 4] = [
    (0x1B3A, V15_1),
    (0x1B3C, V15_1),
    (0x1B42, V15_1),
    (0x1171E, V15_1),
];

/// Unicode 15.1.
const V15_1: UnicodeVersion = UnicodeVersion {
    major: 15,
    minor: 1,
};

/// The first of `code_points` whose Bidi_Class `version` still has as it
/// was before a change ([`BIDI_CLASS_CHANGES`]).
pub fn first_reclassified_after(
    code_points: impl IntoIterator<Item = u32>,
    version: UnicodeVersion,
) -> Option<u32> {
    code_points.into_iter().find(|cp| {
        BIDI_CLASS_CHANGES
            .iter()
            .any(|&(changed, held)| changed == *cp && version <= held)
    })
}

/// Whether an implementation of `version` may see `code_points`
/// otherwise than the references: one of them was assigned after it, its
/// UTS #46 mapping changed after it, or its Bidi_Class did.
pub fn known_otherwise(code_points: &[u32], version: UnicodeVersion) -> bool {
    first_remapped_after(code_points.iter().copied(), version).is_some()
        || first_assigned_after(code_points.iter().copied(), version).is_some()
        || first_reclassified_after(code_points.iter().copied(), version).is_some()
}

/// Why a version does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadVersion(String);

impl fmt::Display for BadVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a Unicode version from 1.1 to {REFERENCE} (MAJOR.MINOR, as 15.1)",
            self.0
        )
    }
}

impl std::error::Error for BadVersion {}

impl FromStr for UnicodeVersion {
    type Err = BadVersion;

    /// `MAJOR.MINOR` or `MAJOR.MINOR.UPDATE`, from 1.1 to [`REFERENCE`]:
    /// a later version has code points the references do not know.
    fn from_str(text: &str) -> Result<Self, BadVersion> {
        let bad = || BadVersion(text.to_string());
        let mut parts = text.trim().split('.');
        let major: u8 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let minor: u8 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        if let Some(update) = parts.next()
            && update.parse::<u8>().is_err()
        {
            return Err(bad());
        }
        if parts.next().is_some() {
            return Err(bad());
        }
        let version = UnicodeVersion { major, minor };
        if version < (UnicodeVersion { major: 1, minor: 1 }) || version > REFERENCE {
            return Err(bad());
        }
        Ok(version)
    }
}

impl fmt::Display for UnicodeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl serde::Serialize for UnicodeVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for UnicodeVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_mapping_changed_after_the_declared_version_is_found() {
        let v15_0 = "15.0".parse().unwrap();
        let v15_1 = "15.1".parse().unwrap();
        let found = first_remapped_after([0x61, 0x1E9E], v15_0);
        assert_eq!(
            found.map(|(cp, change)| (cp, change.since)),
            Some((0x1E9E, v15_1))
        );
        assert_eq!(first_remapped_after([0x1E9E], v15_1), None);
        assert_eq!(first_remapped_after([0x61, 0xDF], v15_0), None);
    }
    use super::*;
    use icu_normalizer::uts46::Uts46MapperBorrowed;
    use icu_properties::props::{GeneralCategory, NoncharacterCodePoint};
    use icu_properties::{CodePointMapData, CodePointSetData};

    fn v(text: &str) -> UnicodeVersion {
        text.parse().unwrap()
    }

    #[test]
    fn every_listed_change_is_what_the_references_data_does_now() {
        // Each "after" of uts46_changes.txt, read against ICU4X's UTS #46
        // mapper (the references' data): an ignored code point maps to
        // nothing, a mapped one to what the file says, a valid one to
        // itself and passes validation; and each "before" differs.
        let mapper = Uts46MapperBorrowed::new();
        let changes = mapping_changes();
        assert!(changes.len() > 100, "{} changes read", changes.len());
        for change in changes {
            assert_ne!(change.before, change.after, "{change:?}");
            assert!(change.since <= REFERENCE, "{change:?}");
            for cp in change.first..=change.last {
                let c = char::from_u32(cp).unwrap();
                let now: Vec<char> = mapper.map_normalize(std::iter::once(c)).collect();
                let expected: Vec<char> = match change.after {
                    "ignored" => vec![],
                    "valid" => {
                        let validated: Vec<char> =
                            mapper.normalize_validate(std::iter::once(c)).collect();
                        assert_eq!(validated, vec![c], "u+{cp:04X} is not valid now");
                        vec![c]
                    }
                    mapped => mapped
                        .strip_prefix("mapped ")
                        .unwrap_or_else(|| panic!("u+{cp:04X}: {mapped:?}"))
                        .split(' ')
                        .map(|hex| char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap())
                        .collect(),
                };
                assert_eq!(now, expected, "u+{cp:04X}: {change:?}");
                assert!(
                    age(cp).is_some_and(|age| age < change.since),
                    "u+{cp:04X} was assigned by the change's version or later"
                );
            }
        }
    }

    #[test]
    fn a_change_reads_as_a_reason() {
        let v15_0 = "15.0".parse().unwrap();
        let (cp, change) = first_remapped_after([0x62, 0x2061], v15_0).unwrap();
        assert_eq!(cp, 0x2061);
        assert_eq!(
            change.to_string(),
            "is ignored since Unicode 16.0's IdnaMappingTable (disallowed before)"
        );
        let (_, change) = first_remapped_after([0x1E9E], v15_0).unwrap();
        assert_eq!(
            change.to_string(),
            "is mapped to U+00DF since Unicode 15.1's IdnaMappingTable \
             (mapped to U+0073 U+0073 before)"
        );
    }

    #[test]
    fn the_age_table_is_the_references_unicode() {
        // Every code point the table calls assigned, ICU4X's data (the
        // references') has assigned, and none other: the table and the
        // data are the same Unicode version. DerivedAge.txt counts
        // surrogates and noncharacters as assigned (General_Category Cs,
        // and Cn with Noncharacter_Code_Point).
        let gc = CodePointMapData::<GeneralCategory>::new();
        let nonchar = CodePointSetData::new::<NoncharacterCodePoint>();
        for cp in 0..=0x10FFFF_u32 {
            let assigned = char::from_u32(cp)
                .is_none_or(|c| gc.get(c) != GeneralCategory::Unassigned || nonchar.contains(c));
            assert_eq!(age(cp).is_some(), assigned, "U+{cp:04X}");
        }
        assert!(table().len() > 1500);
    }

    #[test]
    fn ages_are_unicodes() {
        // DerivedAge.txt: A is 1.1, U+20C1 SAUDI RIYAL SIGN 17.0, U+1F600
        // GRINNING FACE 6.1, U+10FFFF (a noncharacter) 2.0.
        assert_eq!(age(0x41), Some(v("1.1")));
        assert_eq!(age(0x20C1), Some(v("17.0")));
        assert_eq!(age(0x1F600), Some(v("6.1")));
        assert_eq!(age(0x10FFFF), Some(v("2.0")));
        assert_eq!(age(0x110000), None);
        assert!(assigned_after(0x20C1, v("16.0")));
        assert!(!assigned_after(0x20C1, v("17.0")));
        assert_eq!(
            first_assigned_after([0x61, 0x1F600, 0x20C1], v("15.1")),
            Some(0x20C1)
        );
    }

    #[test]
    fn versions_parse_within_the_references() {
        assert_eq!(
            v("14.0"),
            UnicodeVersion {
                major: 14,
                minor: 0
            }
        );
        assert_eq!(
            v("15.1.0"),
            UnicodeVersion {
                major: 15,
                minor: 1
            }
        );
        assert_eq!(v("14.0").to_string(), "14.0");
        for bad in ["", "14", "14.x", "19.0", "1.0", "14.0.0.0", "-1.0"] {
            assert!(bad.parse::<UnicodeVersion>().is_err(), "{bad}");
        }
        assert!(v("9.0") < v("14.0"));
    }
}
