//! Why a label is refused ([`LabelError`]): the rule, in words, with the
//! section of the standard each profile says it in.

use std::fmt;

use super::LabelRules;
use crate::punycode;

/// Why a label is refused, with the rule that refuses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelError {
    /// The input is not UTF-8 text.
    NotText,
    /// A code point is not a Unicode scalar value (a surrogate, or above
    /// U+10FFFF), so no label holds it.
    NotScalar(u32),
    /// A label to decode does not begin with the ACE prefix (IDNA2008's
    /// ToUnicode takes A-labels only).
    NotAceLabel,
    /// The label holds a full stop (after mapping), so it is not one label.
    FullStop,
    /// A code point of the input is disallowed (UTS #46 section 4,
    /// Processing, step 1, Map).
    Disallowed(u32),
    /// An `xn--` label holds a non-ASCII code point.
    NonAsciiInAceLabel(u32),
    /// The Punycode after `xn--` does not decode.
    Punycode(punycode::Error),
    /// The Punycode decodes to a value that is not a Unicode scalar value.
    DecodesToNonScalar(u32),
    /// The Punycode after `xn--` is empty, or decodes to nothing.
    Empty,
    /// The Punycode decodes to ASCII only: the label names an ASCII label
    /// (`xn--go-` is `go`).
    AsciiOnly,
    /// The Punycode after `xn--` does not decode, and
    /// IgnoreInvalidPunycode kept the label as it is, where item 3 of UTS
    /// #46 section 4, step 4, refuses it: it is ASCII only.
    InvalidPunycodeKept(punycode::Error),
    /// The U-label converts back to another A-label (RFC 5891 section
    /// 5.3): the one it converts back to.
    NotReencoded(String),
    /// The label is not in Normalization Form C (validity criterion 1).
    NotNfc,
    /// Hyphen-minus in both the third and fourth positions (criterion 2).
    HyphensAt3And4,
    /// Hyphen-minus at the start or the end (criterion 3).
    HyphenAtEnd,
    /// The label begins with `xn--` (criterion 4).
    BeginsWithAcePrefix,
    /// The label begins with a combining mark (criterion 6).
    LeadingMark(u32),
    /// A code point whose status is not valid or deviation (criterion 7).
    Status(u32),
    /// A code point whose IDNA2008 derived property is DISALLOWED (RFC
    /// 5892 section 3).
    Disallowed2008(u32),
    /// A code point whose IDNA2008 derived property is UNASSIGNED.
    Unassigned(u32),
    /// A CONTEXTO code point out of its rule's context (RFC 5892 Appendix
    /// A.3 to A.9).
    ContextO(u32),
    /// A code point Nameprep prohibits (RFC 3491 section 5: RFC 3454
    /// tables C.1.2, C.2.2, C.3 to C.9).
    Prohibited(u32),
    /// The label breaks RFC 3454 section 6's Bidi requirement, the
    /// numbered one (2: RandALCat with LCat; 3: RandALCat not first and
    /// last).
    StringprepBidi(u8),
    /// An ASCII code point other than a-z, 0-9 and hyphen-minus, with
    /// UseSTD3ASCIIRules (criterion 7).
    NotLdh(u32),
    /// A zero width joiner or non-joiner out of its context (criterion 8,
    /// RFC 5892 Appendix A.1 and A.2).
    Joiner(u32),
    /// The label breaks the Bidi rule (criterion 9, RFC 5893 section 2,
    /// the numbered condition).
    Bidi(u8),
    /// The A-label is empty or longer than the DNS carries (section 4.2,
    /// ToASCII).
    DnsLength(usize),
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabelError::NotText => f.write_str("the label is not UTF-8 text"),
            LabelError::NotScalar(cp) => write!(f, "u+{cp:04X} is not a Unicode scalar value"),
            LabelError::NotAceLabel => f.write_str("the label does not begin with xn--"),
            LabelError::FullStop => {
                f.write_str("the label holds a full stop after mapping, so it is two labels")
            }
            LabelError::Disallowed(cp) => write!(f, "u+{cp:04X} is disallowed"),
            LabelError::NonAsciiInAceLabel(cp) => {
                write!(f, "an xn-- label holds the non-ASCII u+{cp:04X}")
            }
            LabelError::Punycode(e) => write!(f, "its Punycode does not decode: {e}"),
            LabelError::DecodesToNonScalar(cp) => write!(
                f,
                "its Punycode decodes to u+{cp:04X}, which is not a Unicode scalar value"
            ),
            LabelError::Empty => f.write_str("its Punycode decodes to nothing"),
            LabelError::InvalidPunycodeKept(e) => write!(
                f,
                "its Punycode does not decode ({e}); IgnoreInvalidPunycode keeps the label as \
                 it is, which is ASCII only"
            ),
            LabelError::AsciiOnly => {
                f.write_str("its Punycode decodes to ASCII only, so it names an ASCII label")
            }
            LabelError::NotReencoded(again) => write!(
                f,
                "its U-label converts back to {again}, not to the label given"
            ),
            LabelError::NotNfc => f.write_str("the label is not in Normalization Form C"),
            LabelError::HyphensAt3And4 => {
                f.write_str("hyphen-minus in the third and fourth positions")
            }
            LabelError::HyphenAtEnd => f.write_str("hyphen-minus at the start or the end"),
            LabelError::BeginsWithAcePrefix => f.write_str("the label begins with xn--"),
            LabelError::LeadingMark(cp) => {
                write!(f, "the label begins with the combining mark u+{cp:04X}")
            }
            LabelError::Status(cp) => write!(
                f,
                "u+{cp:04X} is not valid in a label: its UTS #46 status is neither valid nor \
                 deviation"
            ),
            LabelError::Disallowed2008(cp) => write!(f, "u+{cp:04X} is DISALLOWED"),
            LabelError::Prohibited(cp) => write!(f, "u+{cp:04X} is prohibited by Nameprep"),
            LabelError::StringprepBidi(n) => {
                write!(f, "the label breaks stringprep's Bidi requirement {n}")
            }
            LabelError::Unassigned(cp) => write!(f, "u+{cp:04X} is UNASSIGNED"),
            LabelError::NotLdh(cp) => {
                write!(
                    f,
                    "the ASCII u+{cp:04X} is not a letter, digit or hyphen-minus"
                )
            }
            LabelError::Joiner(cp) => write!(
                f,
                "u+{cp:04X} is out of the context RFC 5892 Appendix A allows it in"
            ),
            LabelError::ContextO(cp) => write!(
                f,
                "u+{cp:04X} is out of the context its rule of RFC 5892 Appendix A allows"
            ),
            LabelError::Bidi(rule) => {
                write!(
                    f,
                    "the label breaks the Bidi rule, RFC 5893 section 2 condition {rule}"
                )
            }
            LabelError::DnsLength(octets) => write!(
                f,
                "the A-label is {octets} octets long, where the DNS takes 1 to 63"
            ),
        }
    }
}

impl LabelError {
    /// Where `rules` say it: the section of the standard.
    pub fn citation(&self, rules: LabelRules) -> &'static str {
        match rules.per_label() {
            LabelRules::Uts46 | LabelRules::Url | LabelRules::UrlBeforeAsciiFallback => {
                match self {
                    LabelError::NotText | LabelError::NotScalar(_) => "UTS #46 section 4",
                    LabelError::NotAceLabel => "UTS #46 section 4, Processing, step 4",
                    LabelError::FullStop => "UTS #46 section 4, Processing, step 3, Break",
                    LabelError::Disallowed(_) => "UTS #46 section 4, Processing, step 1, Map",
                    LabelError::NonAsciiInAceLabel(_) => {
                        "UTS #46 section 4, Processing, step 4, xn-- labels, item 1"
                    }
                    LabelError::Punycode(_) | LabelError::DecodesToNonScalar(_) => {
                        "UTS #46 section 4, Processing, step 4, xn-- labels, item 2"
                    }
                    LabelError::Empty | LabelError::AsciiOnly | LabelError::NotReencoded(_) => {
                        "UTS #46 section 4, Processing, step 4, xn-- labels, item 3"
                    }
                    LabelError::InvalidPunycodeKept(_) => {
                        "UTS #46 section 4, Processing, step 4, xn-- labels, items 2 and 3, with \
                         IgnoreInvalidPunycode"
                    }
                    LabelError::NotNfc => "UTS #46 section 4.1, validity criterion 1",
                    LabelError::HyphensAt3And4 => "UTS #46 section 4.1, validity criterion 2",
                    LabelError::HyphenAtEnd => {
                        "UTS #46 section 4.1, validity criterion 3, with CheckHyphens"
                    }
                    LabelError::BeginsWithAcePrefix => {
                        "UTS #46 section 4.1, validity criterion 4, without CheckHyphens"
                    }
                    LabelError::LeadingMark(_) => "UTS #46 section 4.1, validity criterion 6",
                    LabelError::NotLdh(_) => {
                        "UTS #46 section 4.1, validity criterion 7, with UseSTD3ASCIIRules"
                    }
                    LabelError::Status(_)
                    | LabelError::Disallowed2008(_)
                    | LabelError::Unassigned(_)
                    | LabelError::Prohibited(_)
                    | LabelError::ContextO(_) => "UTS #46 section 4.1, validity criterion 7",
                    LabelError::Joiner(_) => {
                        "UTS #46 section 4.1, validity criterion 8, CheckJoiners"
                    }
                    LabelError::Bidi(_) | LabelError::StringprepBidi(_) => {
                        "UTS #46 section 4.1, validity criterion 9, CheckBidi"
                    }
                    LabelError::DnsLength(_) => {
                        "UTS #46 section 4.2, ToASCII, with VerifyDnsLength"
                    }
                }
            }
            LabelRules::Idna2008 => match self {
                LabelError::NotText
                | LabelError::NotScalar(_)
                | LabelError::NotAceLabel
                | LabelError::NonAsciiInAceLabel(_)
                | LabelError::Empty
                | LabelError::AsciiOnly
                | LabelError::InvalidPunycodeKept(_) => {
                    "RFC 5890 section 2.3.2.1, A-label and U-label"
                }
                LabelError::Punycode(_) | LabelError::DecodesToNonScalar(_) => {
                    "RFC 5891 section 5.3, A-label input, and RFC 3492 section 6.2"
                }
                LabelError::NotReencoded(_) => "RFC 5891 section 5.3, A-label input",
                LabelError::NotNfc
                | LabelError::HyphensAt3And4
                | LabelError::LeadingMark(_)
                | LabelError::Disallowed2008(_)
                | LabelError::Unassigned(_)
                | LabelError::Disallowed(_)
                | LabelError::Status(_)
                | LabelError::FullStop
                | LabelError::Prohibited(_) => "RFC 5891 section 5.4 and RFC 5892 section 3",
                LabelError::NotLdh(_) => {
                    "RFC 5890 section 2.3.1, an LDH label, with UseSTD3ASCIIRules"
                }
                LabelError::HyphenAtEnd | LabelError::BeginsWithAcePrefix => {
                    "RFC 5891 section 4.2.3.1 and RFC 5890 section 2.3.1, with CheckHyphens"
                }
                LabelError::Joiner(_) => "RFC 5891 section 5.4 and RFC 5892 Appendix A.1, A.2",
                LabelError::ContextO(_) => "RFC 5891 section 5.4 and RFC 5892 Appendix A.3 to A.9",
                LabelError::Bidi(_) | LabelError::StringprepBidi(_) => {
                    "RFC 5891 section 5.4 and RFC 5893 section 2"
                }
                LabelError::DnsLength(_) => "RFC 5890 section 2.3.1, with VerifyDnsLength",
            },
            LabelRules::Idna2003 => match self {
                LabelError::NotAceLabel => "RFC 3490 section 4.2, step 3",
                LabelError::NonAsciiInAceLabel(_) => "RFC 3490 section 4.2, steps 2 and 3",
                LabelError::Punycode(_) | LabelError::DecodesToNonScalar(_) => {
                    "RFC 3490 section 4.2, step 5"
                }
                LabelError::NotReencoded(_) => "RFC 3490 section 4.2, step 7",
                LabelError::Prohibited(_) => "RFC 3491 section 5",
                LabelError::StringprepBidi(_) | LabelError::Bidi(_) => {
                    "RFC 3491 section 6 and RFC 3454 section 6"
                }
                LabelError::NotLdh(_) | LabelError::HyphenAtEnd => {
                    "RFC 3490 section 4.1, step 3, with UseSTD3ASCIIRules"
                }
                LabelError::BeginsWithAcePrefix => "RFC 3490 section 4.1, step 5",
                LabelError::DnsLength(_) => "RFC 3490 section 4.1, step 8",
                _ => "RFC 3490 section 4",
            },
        }
    }

    /// The refusal in words, with where `rules` say it.
    pub fn explained(&self, rules: LabelRules) -> String {
        format!("{self} ({})", self.citation(rules))
    }

    /// The rule, as a short stable name (`ascii-only`, `status`, `bidi`):
    /// what tells one defect from another in a cause's key, without the
    /// code point that met it.
    pub fn rule(&self) -> &'static str {
        match self {
            LabelError::NotText => "not-text",
            LabelError::NotScalar(_) => "not-scalar",
            LabelError::FullStop => "full-stop",
            LabelError::Disallowed(_) => "disallowed",
            LabelError::NonAsciiInAceLabel(_) => "non-ascii-in-a-label",
            LabelError::Punycode(_) => "punycode",
            LabelError::DecodesToNonScalar(_) => "decodes-to-non-scalar",
            LabelError::Empty => "empty",
            LabelError::AsciiOnly => "ascii-only",
            LabelError::InvalidPunycodeKept(_) => "invalid-punycode-kept",
            LabelError::NotNfc => "not-nfc",
            LabelError::HyphensAt3And4 => "hyphens-3-4",
            LabelError::HyphenAtEnd => "hyphen-at-end",
            LabelError::BeginsWithAcePrefix => "begins-with-xn--",
            LabelError::LeadingMark(_) => "leading-mark",
            LabelError::Status(_) => "status",
            LabelError::NotLdh(_) => "not-ldh",
            LabelError::Joiner(_) => "contextj",
            LabelError::ContextO(_) => "contexto",
            LabelError::NotAceLabel => "not-an-a-label",
            LabelError::NotReencoded(_) => "not-re-encoded",
            LabelError::Disallowed2008(_) => "disallowed",
            LabelError::Unassigned(_) => "unassigned",
            LabelError::Prohibited(_) => "prohibited",
            LabelError::StringprepBidi(_) => "bidi",
            LabelError::Bidi(_) => "bidi",
            LabelError::DnsLength(_) => "dns-length",
        }
    }
}

impl std::error::Error for LabelError {}
