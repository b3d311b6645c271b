//! The encodings punycheck checks: Punycode, and the other systems of the
//! seed documents.
//!
//! Every implementation under test ([`crate::engines::Engine`]) implements
//! exactly one codec, every vector file holds cases of one codec, and every
//! command takes a `--codec` selector (Punycode by default). All four codecs
//! share one shape, so the harness treats them alike: encoding turns code
//! points into bytes, decoding turns bytes back into code points, and
//! failures are one of the RFC 3492 statuses ([`crate::punycode::ErrorKind`]).

use std::fmt;

/// One encoding, named as on the command line, in `punycheck.toml` and in
/// vector files ([`Codec::name`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Codec {
    /// Punycode, RFC 3492.
    Punycode,
    /// AMC-ACE-Z 0.3.1, the Bootstring instance of draft-ietf-idn-amc-ace-z-01.
    AmcAceZ,
    /// LACE, draft-ietf-idn-lace-00.
    Lace,
    /// UTF-8 as RFC 2279 defines it (1 to 6 octets, values up to 0x7FFFFFFF).
    Utf8,
}

impl Codec {
    /// Every codec, Punycode first.
    pub const ALL: [Codec; 4] = [Codec::Punycode, Codec::AmcAceZ, Codec::Lace, Codec::Utf8];

    /// The name used on the command line and in vector files.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Punycode => "punycode",
            Codec::AmcAceZ => "amc-ace-z",
            Codec::Lace => "lace",
            Codec::Utf8 => "utf8",
        }
    }

    /// Parses a name produced by [`Codec::name`].
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
        }
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
