//! The encodings punycheck checks: Punycode, and the other systems of the
//! seed documents.
//!
//! Every implementation under test ([`crate::engines::Engine`]) implements
//! exactly one codec, every vector file holds cases of one codec, and every
//! command takes a `--codec` selector (Punycode by default). All four codecs
//! share one shape, so the harness treats them alike: encoding turns code
//! points into bytes, decoding turns bytes back into code points, and
//! failures are one of the RFC 3492 statuses ([`crate::punycode::ErrorKind`]).
//! The `label` codec has that shape too, one level up: encoding is ToASCII
//! of one U-label, decoding ToUnicode of one A-label ([`crate::label`]);
//! and the `domain` codec one level further: ToASCII and ToUnicode of a
//! whole domain name ([`crate::domain`]).

use std::fmt;

use crate::label::{LabelProfile, LabelRules, Switches};

/// One encoding, named as on the command line, in `punycheck.toml` and in
/// vector files ([`Codec::name`]).
/// The `label` codec carries its profile, so that everything keyed by a
/// codec (its reference, its vectors, a baseline) is keyed by the profile
/// too; by name it is `label` whatever the profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Codec {
    /// Punycode, RFC 3492.
    Punycode,
    /// AMC-ACE-Z 0.3.1, the Bootstring instance of draft-ietf-idn-amc-ace-z-01.
    AmcAceZ,
    /// LACE, draft-ietf-idn-lace-00.
    Lace,
    /// UTF-8 as RFC 2279 defines it (1 to 6 octets, values up to 0x7FFFFFFF).
    Utf8,
    /// The A-label layer: ToASCII and ToUnicode of one DNS label under a
    /// profile (UTS #46, with the caller's switches).
    Label(LabelProfile),
    /// Whole domain names: ToASCII and ToUnicode of a name of any number
    /// of labels under a profile, the label codec's rules on each label
    /// and the name's own (separators, the Bidi rule across labels, empty
    /// labels, 253 octets).
    Domain(LabelProfile),
}

impl Codec {
    /// Every codec, Punycode first (`label` and `domain` with their
    /// default profile).
    pub const ALL: [Codec; 6] = [
        Codec::Punycode,
        Codec::AmcAceZ,
        Codec::Lace,
        Codec::Utf8,
        Codec::Label(LabelProfile::DEFAULT),
        Codec::Domain(LabelProfile::DEFAULT),
    ];

    /// The `label` codec under `rules` with `switches`.
    pub fn label(rules: LabelRules, switches: Switches) -> Self {
        Codec::Label(LabelProfile { rules, switches })
    }

    /// The `domain` codec under `rules` with `switches`.
    pub fn domain(rules: LabelRules, switches: Switches) -> Self {
        Codec::Domain(LabelProfile { rules, switches })
    }

    /// The profile of the `label` and `domain` codecs; `None` for the
    /// others.
    pub fn label_profile(self) -> Option<LabelProfile> {
        match self {
            Codec::Label(profile) | Codec::Domain(profile) => Some(profile),
            _ => None,
        }
    }

    /// This codec with `profile`, where it has one (`label`, `domain`).
    pub fn with_profile(self, profile: LabelProfile) -> Self {
        match self {
            Codec::Label(_) => Codec::Label(profile),
            Codec::Domain(_) => Codec::Domain(profile),
            other => other,
        }
    }

    /// Whether it is `domain`: its questions are whole names.
    pub fn is_domain(self) -> bool {
        matches!(self, Codec::Domain(_))
    }

    /// The name used on the command line and in vector files.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Punycode => "punycode",
            Codec::AmcAceZ => "amc-ace-z",
            Codec::Lace => "lace",
            Codec::Utf8 => "utf8",
            Codec::Label(_) => "label",
            Codec::Domain(_) => "domain",
        }
    }

    /// Parses a name produced by [`Codec::name`] (`label` with its
    /// default profile).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether it has mixed-case annotation (RFC 3492 Appendix A,
    /// AMC-ACE-Z Appendix B): case flags on encode and decode.
    pub fn has_annotations(self) -> bool {
        matches!(self, Codec::Punycode | Codec::AmcAceZ)
    }

    /// The document that defines it.
    pub fn specification(self) -> &'static str {
        match self {
            Codec::Punycode => "RFC 3492",
            Codec::AmcAceZ => "draft-ietf-idn-amc-ace-z-01",
            Codec::Lace => "draft-ietf-idn-lace-00",
            Codec::Utf8 => "RFC 2279",
            Codec::Label(profile) | Codec::Domain(profile) => profile.rules.specification(),
        }
    }
}

impl serde::Serialize for Codec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Codec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Codec::from_name(&name).ok_or_else(|| {
            let names: Vec<&str> = Codec::ALL.iter().map(|c| c.name()).collect();
            serde::de::Error::custom(format!(
                "unknown codec {name:?}, expected one of {}",
                names.join(", ")
            ))
        })
    }
}

#[cfg(feature = "clap")]
impl clap::ValueEnum for Codec {
    fn value_variants<'a>() -> &'a [Self] {
        &Codec::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for codec in Codec::ALL {
            assert_eq!(Codec::from_name(codec.name()), Some(codec));
        }
        assert_eq!(Codec::from_name("bootstring"), None);
    }
}
