//! Whole domain names: ToASCII and ToUnicode of a name of any number of
//! labels, where the checks that no single label can make are (the Bidi
//! rule across labels, separators made by mapping, empty labels, the
//! trailing dot, the 253-octet limit).
//!
//! [`to_ascii`] and [`to_unicode`] are punycheck's reference for the
//! `domain` codec ([`crate::codec::Codec::Domain`]), on the label
//! reference ([`crate::label`]) and under the same profiles
//! ([`LabelProfile`]). Each step cites its text.
//!
//! # UTS #46 (section 4, Processing, on the whole name)
//!
//! 1. **Map** and 2. **Normalize** the whole name: mapping can make a
//!    separator (U+3002 IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP
//!    and U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP map to U+002E), which is
//!    why the name is broken only after.
//! 3. **Break** the result into labels at U+002E FULL STOP.
//! 4. **Convert/Validate** each label ([`crate::label::uts46`]: an `xn--`
//!    label decoded, criteria 1 to 8 of section 4.1).
//!
//! Criterion 9, CheckBidi: "If CheckBidi, and if the domain name is a Bidi
//! domain name, then the label must satisfy all six of the numbered
//! conditions in RFC 5893, Section 2". A Bidi domain name is one with a
//! code point of Bidi_Class R, AL or AN in any label, after conversion
//! (RFC 5893 section 1.4), so `ا.1x` is one, and its label `1x` breaks
//! condition 1 (the first character must be L, R or AL). An empty label
//! is not judged: it has no first character, and Unicode's test data
//! flags none there.
//!
//! Section 4.2, ToASCII: each label with a non-ASCII code point becomes
//! `xn--` and its Punycode; then, with VerifyDnsLength, "the length of the
//! domain name, excluding the root label and its dot, is from 1 to 253"
//! and "the length of each label is from 1 to 63". Unicode's own test data
//! (IdnaTestV2.txt, `a.b.c.d.` with A4_2) reads the second rule as holding
//! for the root label too: under VerifyDnsLength a trailing dot is an
//! empty label, refused; without it (the URL Standard) it is kept.
//!
//! Section 4.3, ToUnicode: the processed name, with no length rule (the
//! X4_2 that IdnaTestV2.txt marks on an empty label in ToUnicode has no
//! step of the text behind it; the `idna` crate and tr46 skip it too).
//!
//! # IDNA2008 (RFC 5891 section 5, RFC 5893 section 2)
//!
//! IDNA2008 maps nothing, so only U+002E separates labels (a full-width
//! or ideographic full stop is a mapping's business, RFC 5895 section 2
//! step 5: here it is a DISALLOWED code point of a label). An ASCII label
//! that begins with `xn--` in any case must be an A-label (section 5.3,
//! [`crate::label::idna2008`]), and is given back lowercased (section
//! 5.3); another ASCII label is an LDH label (RFC 5890 section 2.3.1),
//! which IDNA2008 leaves as it is (its case too: DNS compares ASCII
//! case-blind, RFC 4343), with CheckHyphens refused for a hyphen-minus
//! first, last, or in both the third and fourth positions, and with
//! UseSTD3ASCIIRules for anything but letters, digits and hyphen-minus; a
//! non-ASCII label must be a U-label (section 5.4). RFC 5893 section 2:
//! "In a Bidi domain name, ... every label" meets the six conditions.
//! Lengths as for UTS #46, under VerifyDnsLength, in ToASCII only, but for
//! the root label of a trailing dot, which is kept: IDNA2008 judges labels
//! and says nothing of it, and the DNS writes an absolute name so (RFC
//! 1034 section 3.1).
//!
//! # IDNA2003 (RFC 3490)
//!
//! Section 3.1, requirement 1: U+002E, U+3002, U+FF0E and U+FF61 all
//! separate labels. ToASCII (section 4.1) and ToUnicode (section 4.2) of
//! each label ([`crate::label::idna2003`]); an ASCII label without the ACE
//! prefix is given back by ToUnicode as it is (section 4.2, step 3 fails,
//! and "the original sequence" is the answer). Step 8 of ToASCII refuses
//! an empty label always; a trailing empty label is the root and is kept
//! (section 3.1: "a domain name ... may end with a dot"). RFC 3490 limits
//! each label to 63 code points (section 4.1, step 8, always) and says
//! nothing of the whole name's length: UTS #46's 253 octets under
//! VerifyDnsLength are not applied. IDNA2003 has no Bidi rule across
//! labels.
//!
//! # The URL Standard's host parser
//!
//! [`LabelRules::Url`] and [`LabelRules::UrlBeforeAsciiFallback`]: the
//! host parser of a special URL, on UTS #46 as above ([`url`]).
//!
//! # Size
//!
//! About 890 lines, a third of them the tests, each expectation derived by
//! hand from the section it names: the three standards' whole-name rules
//! share their splitting, their length rules and the Bidi rule across
//! labels, and are kept beside each other so that their differences show.

pub mod url;

use std::fmt;

use crate::codec::Codec;
use crate::label::{self, LabelError, LabelProfile, LabelRules, MAX_LABEL_OCTETS, Switches};
use crate::punycode;
use crate::vocabulary::Request;

/// The longest domain name the DNS carries in text, in octets, without
/// the root label's dot (RFC 1034 section 3.1: 255 octets on the wire;
/// UTS #46 section 4.2, ToASCII, VerifyDnsLength).
pub const MAX_NAME_OCTETS: usize = 253;

/// U+002E FULL STOP, the one separator after UTS #46 mapping and in
/// IDNA2008.
pub const FULL_STOP: char = '.';

/// The four separators of RFC 3490 section 3.1 (IDNA2003): U+002E FULL
/// STOP, U+3002 IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP and
/// U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP. UTS #46 maps the last three to
/// the first.
pub const SEPARATORS: [char; 4] = ['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'];

/// Why a domain name is refused: the label and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DomainError {
    /// The name is not UTF-8 text.
    NotText,
    /// A code point is not a Unicode scalar value.
    NotScalar(u32),
    /// A label (counted from 0, as the name was broken) is refused by the
    /// label's own rules.
    Label {
        /// Its place in the name.
        index: usize,
        /// Its text, as broken off (after mapping, for UTS #46).
        text: String,
        /// Why.
        error: LabelError,
    },
    /// An empty label, with VerifyDnsLength (the root label of a trailing
    /// dot included, as Unicode's test data reads UTS #46 section 4.2);
    /// for IDNA2003, any empty label but the root.
    EmptyLabel {
        /// Its place in the name.
        index: usize,
        /// Whether it is the last label of a name of more than one (the
        /// root label of a trailing dot).
        root: bool,
    },
    /// The name's ASCII form is longer than 253 octets (without the root
    /// label's dot), with VerifyDnsLength.
    NameLength(usize),
    /// IDNA2003: Nameprep made a U+002E FULL STOP inside a label (U+2024
    /// ONE DOT LEADER, U+FE52 SMALL FULL STOP, U+2488 DIGIT ONE FULL
    /// STOP...), so its ToASCII would be two labels, not one.
    SeparatorByNameprep {
        /// Its place in the name.
        index: usize,
        /// Its text, as given.
        text: String,
    },
    /// A label with no right-to-left code point of its own, in a Bidi
    /// domain name, breaks the numbered condition of RFC 5893 section 2.
    BidiAcrossLabels {
        /// Its place in the name.
        index: usize,
        /// Its text.
        text: String,
        /// The condition it breaks (1 to 6).
        condition: u8,
    },
    /// The URL Standard's host parser: the host is empty, before or after
    /// mapping.
    EmptyHost,
    /// The URL Standard's host parser: the ASCII domain holds a forbidden
    /// domain code point (section 3.2).
    ForbiddenCodePoint(u32),
    /// The URL Standard's host parser: the domain ends in a number, and the
    /// IPv4 parser fails.
    Ipv4(Ipv4Error),
    /// The host begins with `[`: an IPv6 address, which the `domain` codec
    /// does not take.
    Ipv6,
}

/// Why the URL Standard's IPv4 parser fails (section 3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ipv4Error {
    /// More than four parts.
    TooManyParts,
    /// A part is not a decimal, octal (`0` first) or hexadecimal (`0x`
    /// first) number.
    NonNumericPart,
    /// A part but the last above 255, or the last too large for the bytes
    /// left.
    OutOfRange,
}

impl fmt::Display for Ipv4Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ipv4Error::TooManyParts => "more than four parts",
            Ipv4Error::NonNumericPart => "a part that is not a number",
            Ipv4Error::OutOfRange => "a part out of range",
        })
    }
}

impl fmt::Display for DomainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DomainError::NotText => f.write_str("the name is not UTF-8 text"),
            DomainError::NotScalar(cp) => write!(f, "u+{cp:04X} is not a Unicode scalar value"),
            DomainError::Label { index, text, error } => {
                write!(f, "label {} ({text:?}): {error}", index + 1)
            }
            DomainError::EmptyLabel { index, root: true } => write!(
                f,
                "label {} is the empty root label of a trailing dot",
                index + 1
            ),
            DomainError::EmptyLabel { index, root: false } => {
                write!(f, "label {} is empty", index + 1)
            }
            DomainError::NameLength(octets) => write!(
                f,
                "the name is {octets} octets long in ASCII, where the DNS takes 1 to 253"
            ),
            DomainError::SeparatorByNameprep { index, text } => write!(
                f,
                "label {} ({text:?}) becomes a full stop in Nameprep, so its ToASCII would be \
                 more than one label",
                index + 1
            ),
            DomainError::BidiAcrossLabels {
                index,
                text,
                condition,
            } => write!(
                f,
                "label {} ({text:?}) breaks the Bidi rule across labels: in a Bidi domain name \
                 every label meets RFC 5893 section 2, and this one breaks condition {condition}",
                index + 1
            ),
            DomainError::EmptyHost => f.write_str("the host is empty"),
            DomainError::ForbiddenCodePoint(cp) => write!(
                f,
                "the ASCII domain holds u+{cp:04X}, a forbidden domain code point"
            ),
            DomainError::Ipv4(why) => write!(
                f,
                "the domain ends in a number, so it is an IPv4 address, and it has {why}"
            ),
            DomainError::Ipv6 => {
                f.write_str("the host begins with [, an IPv6 address: outside the domain codec")
            }
        }
    }
}

impl std::error::Error for DomainError {}

impl DomainError {
    /// Where `rules` say it.
    pub fn citation(&self, rules: LabelRules) -> &'static str {
        match (self, rules.per_label()) {
            (DomainError::Label { error, .. }, _) => error.citation(rules),
            (DomainError::NotText | DomainError::NotScalar(_), _) => {
                LabelError::NotText.citation(rules)
            }
            (DomainError::BidiAcrossLabels { .. }, LabelRules::Uts46) => {
                "UTS #46 section 4.1, validity criterion 9, CheckBidi, on a Bidi domain name \
                 (RFC 5893 sections 1.4 and 2)"
            }
            (DomainError::BidiAcrossLabels { .. }, _) => {
                "RFC 5893 section 2, every label of a Bidi domain name (section 1.4)"
            }
            (DomainError::SeparatorByNameprep { .. }, _) => {
                "RFC 3490 section 4: ToASCII takes one label and gives an equivalent label, \
                 and section 3.1, requirement 2: the name's dots are its separators (UTS #46 \
                 disallows these code points for it)"
            }
            (DomainError::EmptyLabel { .. }, LabelRules::Idna2003) => {
                "RFC 3490 section 4.1, step 8, and section 3.1 (the root label)"
            }
            (DomainError::EmptyLabel { .. }, LabelRules::Idna2008) => {
                "RFC 1034 section 3.1, with VerifyDnsLength: only the root label is empty \
                 (RFC 5890 section 2.3.1)"
            }
            (DomainError::NameLength(_), LabelRules::Idna2008) => {
                "RFC 1034 section 3.1, with VerifyDnsLength: 255 octets on the wire, 253 in \
                 text without the root label's dot"
            }
            (DomainError::EmptyLabel { .. }, _) => {
                "UTS #46 section 4.2, ToASCII, step 4, VerifyDnsLength: each label 1 to 63 \
                 octets (the root label too, as IdnaTestV2.txt reads it)"
            }
            (DomainError::NameLength(_), _) => {
                "UTS #46 section 4.2, ToASCII, step 4, VerifyDnsLength: 1 to 253 octets, \
                 without the root label and its dot"
            }
            (DomainError::EmptyHost, _) => {
                "the URL Standard, section 3.3, domain parser (an empty result is failure), \
                 and section 3.5, host parser (not the empty string)"
            }
            (DomainError::ForbiddenCodePoint(_), _) => {
                "the URL Standard, section 3.3, domain parser, and section 3.2, forbidden \
                 domain code point"
            }
            (DomainError::Ipv4(_), _) => {
                "the URL Standard, section 3.5, host parser step 8 (ends in a number) and the \
                 IPv4 parser"
            }
            (DomainError::Ipv6, _) => {
                "the URL Standard, section 3.5, host parser step 1 (IPv6, which the domain \
                 codec does not take)"
            }
        }
    }

    /// The refusal in words, with where `rules` say it.
    pub fn explained(&self, rules: LabelRules) -> String {
        format!("{self} ({})", self.citation(rules))
    }

    /// The rule, as a short stable name: a label's own rule
    /// ([`LabelError::rule`]), or `empty-label`, `name-length`,
    /// `separator-by-nameprep`, `bidi-across-labels`, or one of the URL
    /// Standard's host parser.
    pub fn rule(&self) -> &'static str {
        match self {
            DomainError::NotText => "not-text",
            DomainError::NotScalar(_) => "not-scalar",
            DomainError::Label { error, .. } => error.rule(),
            DomainError::EmptyLabel { .. } => "empty-label",
            DomainError::NameLength(_) => "name-length",
            DomainError::SeparatorByNameprep { .. } => "separator-by-nameprep",
            DomainError::BidiAcrossLabels { .. } => "bidi-across-labels",
            DomainError::EmptyHost => "empty-host",
            DomainError::ForbiddenCodePoint(_) => "forbidden-domain-code-point",
            DomainError::Ipv4(_) => "ipv4",
            DomainError::Ipv6 => "ipv6",
        }
    }
}

/// Why the reference of the `label` or `domain` codec refuses a question:
/// what a report names a refusal by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The label reference's ([`crate::label`]).
    Label(LabelError),
    /// The whole-name reference's ([`to_ascii`], [`to_unicode`]).
    Domain(DomainError),
}

impl Refusal {
    /// The rule, as a short stable name ([`LabelError::rule`],
    /// [`DomainError::rule`]).
    pub fn rule(&self) -> &'static str {
        match self {
            Refusal::Label(error) => error.rule(),
            Refusal::Domain(error) => error.rule(),
        }
    }

    /// The refusal in words, with where `rules` say it.
    pub fn explained(&self, rules: LabelRules) -> String {
        match self {
            Refusal::Label(error) => error.explained(rules),
            Refusal::Domain(error) => error.explained(rules),
        }
    }

    /// The label's own error, where one label's rule refuses it.
    pub fn label_error(&self) -> Option<&LabelError> {
        match self {
            Refusal::Label(error) | Refusal::Domain(DomainError::Label { error, .. }) => {
                Some(error)
            }
            Refusal::Domain(_) => None,
        }
    }
}

impl fmt::Display for Refusal {
    /// The refusal in the reference's words, as a vector's `reason` holds
    /// it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Label(error) => error.fmt(f),
            Refusal::Domain(error) => error.fmt(f),
        }
    }
}

/// How long a name is, each way: what an implementation's own limits
/// count ([`crate::engines::NameLimits`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    /// The code points of its longest label that holds a non-ASCII code
    /// point, in Unicode (an A-label decoded): what ICU's and the `idna`
    /// crate's bounds count, Punycode's input.
    pub longest_label_code_points: usize,
    /// The bytes of that kind of label in ASCII, the longest (a U-label
    /// encoded, with `xn--`).
    pub longest_label_bytes: usize,
    /// The code points of the name in Unicode, dots included, the root
    /// label's not.
    pub name_code_points: usize,
    /// The bytes of the name in ASCII, dots included, the root label's
    /// not.
    pub name_bytes: usize,
}

impl Sizes {
    /// The four sizes: a label's code points and bytes, the name's code
    /// points and bytes.
    pub fn in_order(&self) -> [usize; 4] {
        [
            self.longest_label_code_points,
            self.longest_label_bytes,
            self.name_code_points,
            self.name_bytes,
        ]
    }

    /// The sizes of a name as the label or domain codec answers it: ASCII
    /// (ToASCII) or code points (ToUnicode). `None` for a refusal, or an
    /// A-label whose Punycode does not decode or a U-label that does not
    /// encode.
    pub fn of(answer: &crate::vocabulary::Expected) -> Option<Sizes> {
        use crate::vocabulary::Expected;
        // Each label: its code points, its bytes in ASCII, and whether it
        // holds a non-ASCII code point.
        let labels: Vec<(usize, usize, bool)> = match answer {
            Expected::Encoded(ascii) => ascii
                .split(|&b| b == b'.')
                .map(|label| {
                    if label::has_ace_prefix(label) {
                        let decoded = punycode::decode(&label.to_ascii_lowercase()[4..])
                            .ok()?
                            .code_points;
                        let wide = decoded.iter().any(|&c| c >= 0x80);
                        Some((decoded.len(), label.len(), wide))
                    } else {
                        let text = String::from_utf8_lossy(label);
                        Some((text.chars().count(), label.len(), !label.is_ascii()))
                    }
                })
                .collect::<Option<_>>()?,
            Expected::Decoded(cps) => cps
                .values
                .split(|&c| c == 0x2E)
                .map(|label| {
                    if label.iter().all(|&c| c < 0x80) {
                        Some((label.len(), label.len(), false))
                    } else {
                        let bytes = 4 + punycode::encode(label, None).ok()?.len();
                        Some((label.len(), bytes, true))
                    }
                })
                .collect::<Option<_>>()?,
            Expected::Error(_) => return None,
        };
        // The root label, empty after the last dot, and its dot.
        let counted = match labels.split_last() {
            Some((&(0, 0, _), rest)) if !rest.is_empty() => rest,
            _ => &labels[..],
        };
        let dots = counted.len().saturating_sub(1);
        let wide = || counted.iter().filter(|l| l.2);
        Some(Sizes {
            longest_label_code_points: wide().map(|l| l.0).max().unwrap_or(0),
            longest_label_bytes: wide().map(|l| l.1).max().unwrap_or(0),
            name_code_points: counted.iter().map(|l| l.0).sum::<usize>() + dots,
            name_bytes: counted.iter().map(|l| l.1).sum::<usize>() + dots,
        })
    }
}

/// Why `codec`'s reference refuses `request`: `None` where it answers, or
/// where `codec` is neither `label` nor `domain`.
pub fn refusal(codec: Codec, request: &Request) -> Option<Refusal> {
    match (codec, request) {
        (Codec::Label(profile), Request::Encode { code_points, .. }) => {
            label::to_ascii(profile, code_points)
                .err()
                .map(Refusal::Label)
        }
        (Codec::Label(profile), Request::Decode(bytes)) => {
            label::to_unicode(profile, bytes).err().map(Refusal::Label)
        }
        (Codec::Domain(profile), Request::Encode { code_points, .. }) => {
            to_ascii(profile, code_points).err().map(Refusal::Domain)
        }
        (Codec::Domain(profile), Request::Decode(bytes)) => {
            to_unicode(profile, bytes).err().map(Refusal::Domain)
        }
        _ => None,
    }
}

/// ToASCII of the name whose code points are `name`, under `profile`: the
/// ASCII name, labels joined by U+002E.
pub fn to_ascii(profile: LabelProfile, name: &[u32]) -> Result<Vec<u8>, DomainError> {
    if profile.rules.is_url() {
        return url::host_to_ascii(profile, name);
    }
    let chars = name
        .iter()
        .map(|&cp| char::from_u32(cp).ok_or(DomainError::NotScalar(cp)))
        .collect::<Result<Vec<char>, _>>()?;
    let switches = profile.switches;
    let labels = match profile.rules {
        // The URL Standard's rules went to the host parser above.
        LabelRules::Uts46 | LabelRules::Url | LabelRules::UrlBeforeAsciiFallback => {
            let labels = uts46_process(switches, &chars)?;
            labels
                .iter()
                .enumerate()
                .map(|(index, label)| {
                    if label.iter().all(char::is_ascii) {
                        return Ok(label.iter().map(|&c| c as u8).collect());
                    }
                    let code_points: Vec<u32> = label.iter().map(|&c| u32::from(c)).collect();
                    let mut out = label::ACE_PREFIX.as_bytes().to_vec();
                    out.extend(punycode::encode(&code_points, None).map_err(|e| {
                        DomainError::Label {
                            index,
                            text: label.iter().collect(),
                            error: LabelError::Punycode(e),
                        }
                    })?);
                    Ok(out)
                })
                .collect::<Result<Vec<Vec<u8>>, DomainError>>()?
        }
        LabelRules::Idna2008 => idna2008_labels(switches, &chars)?
            .into_iter()
            .map(|(ascii, _)| ascii)
            .collect(),
        LabelRules::Idna2003 => {
            let labels = split(&chars, &SEPARATORS);
            let last = labels.len() - 1;
            let mut out = Vec::with_capacity(labels.len());
            for (index, label) in labels.iter().enumerate() {
                if label.is_empty() && index == last && index > 0 {
                    out.push(Vec::new());
                    continue;
                }
                let code_points: Vec<u32> = label.iter().map(|&c| u32::from(c)).collect();
                match label::idna2003::to_ascii(switches, &code_points) {
                    // A full stop Nameprep made (UseSTD3ASCIIRules, which
                    // refuses it as non-LDH, is off).
                    Ok(ascii) if ascii.contains(&b'.') => {
                        return Err(DomainError::SeparatorByNameprep {
                            index,
                            text: label.iter().collect(),
                        });
                    }
                    Ok(ascii) => out.push(ascii),
                    Err(LabelError::DnsLength(0)) => {
                        return Err(DomainError::EmptyLabel { index, root: false });
                    }
                    Err(error) => return Err(labelled(index, label, error)),
                }
            }
            // Step 8 held each label to 63 already. RFC 3490 sets no
            // length for the name: UTS #46's VerifyDnsLength rule of 253
            // octets is not IDNA2003's (a limit of the implementation's
            // own is declared: --max-name-octets).
            return Ok(join(&out));
        }
    };
    if switches.verify_dns_length {
        // IDNA2008 says nothing of the root label, which the DNS writes
        // as a trailing dot (RFC 1034 section 3.1): it is kept.
        verify_dns_length(&labels, profile.rules == LabelRules::Idna2008)?;
    }
    Ok(join(&labels))
}

/// ToUnicode of the name given as text (U-labels and A-labels alike),
/// under `profile`: the name's code points, labels joined by U+002E.
pub fn to_unicode(profile: LabelProfile, name: &[u8]) -> Result<Vec<u32>, DomainError> {
    if profile.rules.is_url() {
        return url::domain_to_unicode(profile, name);
    }
    let text = std::str::from_utf8(name).map_err(|_| DomainError::NotText)?;
    let chars: Vec<char> = text.chars().collect();
    let switches = profile.switches;
    let labels: Vec<Vec<char>> = match profile.rules {
        LabelRules::Uts46 | LabelRules::Url | LabelRules::UrlBeforeAsciiFallback => {
            uts46_process(switches, &chars)?
        }
        LabelRules::Idna2008 => {
            // ToUnicode has no length rule.
            let switches = Switches {
                verify_dns_length: false,
                ..switches
            };
            idna2008_labels(switches, &chars)?
                .into_iter()
                .map(|(_, unicode)| unicode)
                .collect()
        }
        LabelRules::Idna2003 => split(&chars, &SEPARATORS)
            .into_iter()
            .enumerate()
            .map(|(index, label)| {
                // Section 4.2, steps 1 and 2: Nameprep when not all ASCII.
                let prepared = if label.iter().all(char::is_ascii) {
                    label.clone()
                } else {
                    label::idna2003::nameprep(&label)
                        .map_err(|error| labelled(index, &label, error))?
                };
                let head: Vec<u8> = prepared.iter().take(4).map(|&c| c as u8).collect();
                if !label::has_ace_prefix(&head) || !prepared[..4].iter().all(char::is_ascii) {
                    // Step 3: no ACE prefix, the label as it was given (a
                    // U-label, or an ASCII label).
                    return Ok(label);
                }
                let text: String = label.iter().collect();
                label::idna2003::to_unicode(switches, text.as_bytes())
                    .map(|cps| cps.into_iter().filter_map(char::from_u32).collect())
                    .map_err(|error| labelled(index, &label, error))
            })
            .collect::<Result<_, _>>()?,
    };
    let mut out = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        if i > 0 {
            out.push(u32::from(FULL_STOP));
        }
        out.extend(label.iter().map(|&c| u32::from(c)));
    }
    Ok(out)
}

/// UTS #46 section 4, Processing, on a whole name: the labels, converted
/// and validated, CheckBidi across them.
fn uts46_process(switches: Switches, input: &[char]) -> Result<Vec<Vec<char>>, DomainError> {
    // Steps 1 and 2, on the whole name.
    let mapped = label::uts46::map_normalize_as(switches, input).map_err(|error| {
        // The label of the culprit: the full stops its mapped prefix holds.
        let index = match error {
            LabelError::Disallowed(cp) => input
                .iter()
                .position(|&c| u32::from(c) == cp)
                .and_then(|at| label::uts46::map_normalize(&input[..at]).ok())
                .map_or(0, |prefix| {
                    prefix.iter().filter(|&&c| c == FULL_STOP).count()
                }),
            _ => 0,
        };
        DomainError::Label {
            index,
            text: String::new(),
            error,
        }
    })?;
    // Step 3, Break; step 4, Convert/Validate, criteria 1 to 8.
    let labels = split(&mapped, &[FULL_STOP])
        .into_iter()
        .enumerate()
        .map(|(index, label)| {
            label::uts46::convert_validate(switches, label.clone())
                .map_err(|error| labelled(index, &label, error))
        })
        .collect::<Result<Vec<Vec<char>>, DomainError>>()?;
    // Criterion 9, with CheckBidi.
    if switches.check_bidi {
        check_bidi(&labels)?;
    }
    Ok(labels)
}

/// One label in both forms: ASCII (for ToASCII) and Unicode (for
/// ToUnicode).
type BothForms = (Vec<u8>, Vec<char>);

/// IDNA2008 lookup of each label of a name broken at U+002E: its ASCII
/// form and its Unicode form, the Bidi rule across labels checked.
fn idna2008_labels(switches: Switches, input: &[char]) -> Result<Vec<BothForms>, DomainError> {
    let labels = split(input, &[FULL_STOP])
        .into_iter()
        .enumerate()
        .map(|(index, label)| {
            idna2008_label(switches, &label).map_err(|error| labelled(index, &label, error))
        })
        .collect::<Result<Vec<BothForms>, DomainError>>()?;
    let unicode: Vec<Vec<char>> = labels.iter().map(|(_, u)| u.clone()).collect();
    check_bidi(&unicode)?;
    Ok(labels)
}

/// One label of an IDNA2008 name: an A-label, an LDH label or a U-label
/// ([`label::idna2008::lookup_label`]), the Bidi rule left to the whole
/// name; the root label of a trailing dot, empty, as it is.
fn idna2008_label(switches: Switches, label: &[char]) -> Result<BothForms, LabelError> {
    if label.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    label::idna2008::lookup_label(switches, label, false)
}

/// RFC 5893 section 2 on every label of a name, when it is a Bidi domain
/// name (section 1.4).
fn check_bidi(labels: &[Vec<char>]) -> Result<(), DomainError> {
    let bidi_domain = labels.iter().any(|l| label::uts46::is_bidi(l));
    for (index, label) in labels.iter().enumerate() {
        if let Err(error) = label::uts46::check_bidi(label, bidi_domain) {
            let LabelError::Bidi(condition) = error else {
                return Err(labelled(index, label, error));
            };
            // A label that holds an R, AL or AN code point breaks the
            // rule alone; one that does not breaks it because of another.
            if label::uts46::is_bidi(label) {
                return Err(labelled(index, label, error));
            }
            return Err(DomainError::BidiAcrossLabels {
                index,
                text: label.iter().collect(),
                condition,
            });
        }
    }
    Ok(())
}

/// UTS #46 section 4.2, step 4, VerifyDnsLength, on the ASCII labels;
/// with `root_kept`, the empty last label of a name of more than one is
/// the root, not counted.
fn verify_dns_length(labels: &[Vec<u8>], root_kept: bool) -> Result<(), DomainError> {
    let (labels, root_set_aside) = match labels.split_last() {
        Some((root, rest)) if root_kept && root.is_empty() && !rest.is_empty() => (rest, true),
        _ => (labels, false),
    };
    let last = labels.len() - 1;
    for (index, label) in labels.iter().enumerate() {
        if label.is_empty() {
            // With the root label set aside, the last one left is not it
            // (`a..` has an empty label 2 before its root label 3).
            return Err(DomainError::EmptyLabel {
                index,
                root: !root_set_aside && index == last && index > 0,
            });
        }
        if label.len() > MAX_LABEL_OCTETS {
            return Err(labelled_ascii(
                index,
                label,
                LabelError::DnsLength(label.len()),
            ));
        }
    }
    let octets = join(labels).len();
    if octets > MAX_NAME_OCTETS {
        return Err(DomainError::NameLength(octets));
    }
    Ok(())
}

/// `input` broken at any of `separators`: always at least one label.
fn split(input: &[char], separators: &[char]) -> Vec<Vec<char>> {
    input
        .split(|c| separators.contains(c))
        .map(<[char]>::to_vec)
        .collect()
}

fn join(labels: &[Vec<u8>]) -> Vec<u8> {
    labels.join(&b'.')
}

fn labelled(index: usize, label: &[char], error: LabelError) -> DomainError {
    DomainError::Label {
        index,
        text: label.iter().collect(),
        error,
    }
}

fn labelled_ascii(index: usize, label: &[u8], error: LabelError) -> DomainError {
    DomainError::Label {
        index,
        text: String::from_utf8_lossy(label).into_owned(),
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cps(text: &str) -> Vec<u32> {
        text.chars().map(u32::from).collect()
    }

    fn ascii(profile: LabelProfile, name: &str) -> Result<String, DomainError> {
        to_ascii(profile, &cps(name)).map(|b| String::from_utf8(b).unwrap())
    }

    fn unicode(profile: LabelProfile, name: &str) -> Result<String, DomainError> {
        to_unicode(profile, name.as_bytes())
            .map(|c| c.into_iter().filter_map(char::from_u32).collect())
    }

    const STRICT: LabelProfile = LabelProfile::DEFAULT;
    const URL: LabelProfile = LabelProfile {
        rules: LabelRules::Uts46,
        switches: Switches::URL,
    };

    fn rules(rules: LabelRules) -> LabelProfile {
        LabelProfile {
            rules,
            switches: Switches::STRICT,
        }
    }

    // Each expectation is derived by hand from the section the module docs
    // cite; the A-labels are RFC 3492's algorithm, and those of
    // IdnaTestV2.txt where it has the name (tests/idna_test_v2.rs runs all
    // of it).
    #[test]
    fn separators_made_by_mapping_break_the_name() {
        // U+3002, U+FF0E and U+FF61 map to U+002E before step 3.
        for dot in ['\u{3002}', '\u{FF0E}', '\u{FF61}', '.'] {
            let name = format!("bücher{dot}de");
            assert_eq!(ascii(STRICT, &name).unwrap(), "xn--bcher-kva.de");
        }
        // 127。0。0。1 is 127.0.0.1 to UTS #46.
        assert_eq!(
            ascii(URL, "127\u{3002}0\u{3002}0\u{3002}1").unwrap(),
            "127.0.0.1"
        );
        // IDNA2008 maps nothing: U+3002 is a DISALLOWED code point of a label.
        assert!(matches!(
            ascii(rules(LabelRules::Idna2008), "b\u{FC}cher\u{3002}de"),
            Err(DomainError::Label {
                index: 0,
                error: LabelError::Disallowed2008(0x3002),
                ..
            })
        ));
        // IDNA2003 takes all four (RFC 3490 section 3.1).
        assert_eq!(
            ascii(rules(LabelRules::Idna2003), "b\u{FC}cher\u{FF61}de").unwrap(),
            "xn--bcher-kva.de"
        );
        // But it breaks the name before Nameprep, which makes U+002E of
        // U+2024 ONE DOT LEADER: ToASCII of `a\u{2024}b` would be `a.b`,
        // two labels, and of `\u{1F7F7}\u{2024}` an `xn--.-` label that the
        // name breaks again (found by the domain_properties fuzz target).
        // With UseSTD3ASCIIRules the dot is refused as non-LDH instead.
        let lax = LabelProfile {
            rules: LabelRules::Idna2003,
            switches: Switches {
                use_std3_ascii_rules: false,
                ..STRICT.switches
            },
        };
        for name in ["a\u{2024}b.c", "\u{1F7F7}\u{2024}.c", "x.\u{FE52}"] {
            let index = usize::from(name.starts_with('x'));
            assert!(
                matches!(
                    ascii(lax, name),
                    Err(DomainError::SeparatorByNameprep { index: i, .. }) if i == index
                ),
                "{name}: {:?}",
                ascii(lax, name)
            );
        }
        assert!(matches!(
            ascii(rules(LabelRules::Idna2003), "a\u{2024}b"),
            Err(DomainError::Label {
                error: LabelError::NotLdh(0x2E),
                ..
            })
        ));
    }

    #[test]
    fn the_bidi_rule_holds_across_labels() {
        // ا.1x: a Bidi domain name whose label 1x starts with EN
        // (condition 1).
        assert_eq!(
            ascii(STRICT, "\u{0627}.1x"),
            Err(DomainError::BidiAcrossLabels {
                index: 1,
                text: "1x".into(),
                condition: 1
            })
        );
        assert_eq!(
            ascii(URL, "\u{0627}.1x").unwrap_err().rule(),
            "bidi-across-labels"
        );
        assert_eq!(
            ascii(rules(LabelRules::Idna2008), "\u{0627}.1x")
                .unwrap_err()
                .rule(),
            "bidi-across-labels"
        );
        // IdnaTestV2.txt: 0à.\u05D0 is [B1].
        assert!(ascii(STRICT, "0\u{E0}.\u{05D0}").is_err());
        // An LTR label that meets conditions 5 and 6 is fine, and so is the
        // root label of a trailing dot (URL switches keep it).
        assert_eq!(ascii(STRICT, "\u{0627}.com").unwrap(), "xn--mgb.com");
        assert_eq!(ascii(URL, "\u{0627}.com.").unwrap(), "xn--mgb.com.");
        // IDNA2003 has no rule across labels.
        assert_eq!(
            ascii(rules(LabelRules::Idna2003), "\u{0627}.1x").unwrap(),
            "xn--mgb.1x"
        );
        // An A-label makes the name Bidi as its U-label does.
        assert!(unicode(STRICT, "xn--mgb.1x").is_err());
    }

    #[test]
    fn lengths_are_of_the_ascii_form() {
        // 63 fullwidth a (189 octets of UTF-8) map to 63 a.
        let wide: String = "\u{FF41}".repeat(63);
        assert_eq!(ascii(STRICT, &wide).unwrap(), "a".repeat(63));
        let wide: String = "\u{FF41}".repeat(64);
        assert_eq!(ascii(STRICT, &wide).unwrap_err().rule(), "dns-length");
        // 253 octets pass, 254 do not.
        let label = "a".repeat(63);
        let name = format!("{label}.{label}.{label}.{}", "a".repeat(61));
        assert_eq!(name.len(), 253);
        assert!(ascii(STRICT, &name).is_ok());
        let longer = format!("{name}a");
        assert_eq!(ascii(STRICT, &longer), Err(DomainError::NameLength(254)));
        // Without VerifyDnsLength both pass, with the trailing dot kept.
        assert_eq!(
            ascii(URL, &format!("{longer}.")).unwrap(),
            format!("{longer}.")
        );
    }

    #[test]
    fn empty_labels_and_the_trailing_dot() {
        // IdnaTestV2.txt: a..b and a.b.c.d. are A4_2 under VerifyDnsLength.
        assert_eq!(
            ascii(STRICT, "a..b"),
            Err(DomainError::EmptyLabel {
                index: 1,
                root: false
            })
        );
        assert_eq!(
            ascii(STRICT, "example.com."),
            Err(DomainError::EmptyLabel {
                index: 2,
                root: true
            })
        );
        assert_eq!(
            ascii(STRICT, ""),
            Err(DomainError::EmptyLabel {
                index: 0,
                root: false
            })
        );
        assert_eq!(ascii(URL, "a..b").unwrap(), "a..b");
        assert_eq!(ascii(URL, "example.com.").unwrap(), "example.com.");
        // ToUnicode has no length rule.
        assert_eq!(unicode(STRICT, "a..b").unwrap(), "a..b");
        // IDNA2003 keeps the root label, and refuses other empty labels.
        let idna2003 = rules(LabelRules::Idna2003);
        assert_eq!(ascii(idna2003, "example.com.").unwrap(), "example.com.");
        assert_eq!(ascii(idna2003, "a..b").unwrap_err().rule(), "empty-label");
        // RFC 3490 limits labels (section 4.1, step 8: 1 to 63 code
        // points) and says nothing of the name: 254 octets of 63-octet
        // labels are answered (an ASCII label skips Nameprep, step 2, so
        // its case is kept); a 64-octet label is refused.
        let label = "A".repeat(63);
        let long = format!("{label}.{label}.{label}.{}", "a".repeat(62));
        assert_eq!(long.len(), 254);
        assert_eq!(ascii(idna2003, &long).unwrap(), long);
        assert_eq!(
            ascii(idna2003, &format!("{}.b", "a".repeat(64)))
                .unwrap_err()
                .rule(),
            "dns-length"
        );
        // So does IDNA2008, which says nothing of the root label; another
        // empty label is refused under VerifyDnsLength, and the 253 octets
        // are counted without the root's dot.
        let idna2008 = rules(LabelRules::Idna2008);
        assert_eq!(ascii(idna2008, "example.com.").unwrap(), "example.com.");
        assert_eq!(ascii(idna2008, "a..b").unwrap_err().rule(), "empty-label");
        assert_eq!(ascii(idna2008, ".").unwrap_err().rule(), "empty-label");
        // With the root label set aside, the empty label before it is not
        // the root (a.. has its root label 3 and an empty label 2).
        assert_eq!(
            ascii(idna2008, "a.."),
            Err(DomainError::EmptyLabel {
                index: 1,
                root: false
            })
        );
        let label = "a".repeat(63);
        let name = format!("{label}.{label}.{label}.{}.", "a".repeat(61));
        assert_eq!(ascii(idna2008, &name).unwrap(), name);
    }

    #[test]
    fn to_unicode_takes_a_labels_and_u_labels() {
        assert_eq!(unicode(STRICT, "XN--BCHER-KVA.DE").unwrap(), "bücher.de");
        assert_eq!(
            unicode(STRICT, "bücher.xn--bcher-kva").unwrap(),
            "bücher.bücher"
        );
        assert_eq!(
            unicode(STRICT, "www.xn--go-.com").unwrap_err().rule(),
            "ascii-only"
        );
        let idna2008 = rules(LabelRules::Idna2008);
        // An LDH label keeps its case; an A-label is lowercased first.
        assert_eq!(
            unicode(idna2008, "WWW.XN--BCHER-KVA.de").unwrap(),
            "WWW.bücher.de"
        );
        let idna2003 = rules(LabelRules::Idna2003);
        assert_eq!(
            unicode(idna2003, "www.xn--bcher-kva.de").unwrap(),
            "www.bücher.de"
        );
        // A U-label has no ACE prefix after Nameprep: RFC 3490 section 4.2
        // step 3 gives it back as it was (the fuzz target domain_properties
        // found it refused).
        assert_eq!(unicode(idna2003, "bücher\u{3002}de").unwrap(), "bücher.de");
        // Fullwidth letters that Nameprep makes an ACE prefix are decoded.
        assert_eq!(
            unicode(idna2003, "\u{FF58}\u{FF4E}--bcher-kva").unwrap(),
            "bücher"
        );
    }

    #[test]
    fn a_disallowed_code_point_names_its_label() {
        // U+2488 DIGIT ONE FULL STOP is disallowed; it is in label 2.
        assert_eq!(
            ascii(STRICT, "a.b\u{2488}"),
            Err(DomainError::Label {
                index: 1,
                text: String::new(),
                error: LabelError::Disallowed(0x2488)
            })
        );
        assert_eq!(
            to_ascii(STRICT, &[0x61, 0xD800]),
            Err(DomainError::NotScalar(0xD800))
        );
        assert_eq!(to_unicode(STRICT, b"a.\xff"), Err(DomainError::NotText));
    }
}
