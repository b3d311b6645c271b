//! The A-label layer: ToUnicode and ToASCII of one DNS label, where
//! Punycode meets the DNS.
//!
//! An A-label is the ACE prefix `xn--` followed by Punycode (RFC 3492) of a
//! U-label, a label holding at least one non-ASCII code point (RFC 5890
//! section 2.3.2.1). Whether a string is an A-label is decided above
//! Punycode: the prefix is taken in any case, the Punycode must decode, the
//! decoding must be neither empty nor all ASCII (`xn--go-` decodes to `go`,
//! so one name would display as another), and the U-label must pass the
//! profile's validity rules. Most Punycode advisories of 2022-2026 are in
//! this layer: Go's `xn--go-`, the Rust `idna` crate's RUSTSEC-2024-0421,
//! Node's `url.domainToUnicode`, WebKit's `xn--a-ecp`, ada's `xn--xn--`.
//!
//! [`to_unicode`] and [`to_ascii`] are punycheck's reference for the
//! `label` codec ([`crate::codec::Codec::Label`]). They are written from
//! the standards' text, each step citing it, on punycheck's clean-room
//! Punycode ([`crate::punycode`]). What the rules look up per code point
//! (the UTS #46 status of each code point and NFC, General_Category,
//! Bidi_Class, Joining_Type, Canonical_Combining_Class) comes from ICU4X's
//! data (`icu_normalizer`'s UTS #46 mapper and `icu_properties`, the
//! tables the `idna` crate itself uses), not from tables written here.
//!
//! # Profiles
//!
//! [`LabelRules`] names the standard; [`LabelProfile`] adds the switches
//! that the standard leaves to the caller ([`Switches`]: the URL Standard
//! sets them differently from a registry).
//!
//! - [`LabelRules::Uts46`]: UTS #46 (Unicode IDNA Compatibility
//!   Processing), revision 36 (Unicode 18.0.0), with all seven of its
//!   flags the caller's ([`Switches`]): by default Nontransitional
//!   Processing, every check on, IgnoreInvalidPunycode off ([`uts46`]).
//! - [`LabelRules::Idna2008`]: IDNA2008 lookup, RFC 5891 section 5, with
//!   RFC 5892's derived properties computed by its own algorithm
//!   ([`idna2008`]).
//! - [`LabelRules::Idna2003`]: IDNA2003, RFC 3490 section 4 with Nameprep
//!   for queries, on RFC 3454's tables ([`idna2003`]).

mod error;
pub mod idna2003;
pub mod idna2008;
pub mod uts46;

pub use error::LabelError;

use std::fmt;

use crate::punycode;

/// The ACE prefix of RFC 3490 section 5 and RFC 5890 section 2.3.2.5, as
/// it is written in an A-label (the standards compare it in any case).
pub const ACE_PREFIX: &str = "xn--";

/// The longest label the DNS carries, in octets (RFC 1034 section 3.1, and
/// UTS #46 section 4.2, ToASCII, VerifyDnsLength).
pub const MAX_LABEL_OCTETS: usize = 63;

/// The standard a label is judged by.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum LabelRules {
    /// UTS #46 revision 36, Nontransitional Processing unless the switches
    /// say Transitional: what browsers, URL parsers and most libraries
    /// implement (the `idna` crate, ICU's
    /// `uidna`, Node's `url`, ada).
    #[default]
    Uts46,
    /// IDNA2008 lookup, RFC 5891 section 5, with RFC 5892's derived
    /// properties and RFC 5893's Bidi rule: no mapping (what libidn2's
    /// lookup, the Python `idna` package and registries implement).
    Idna2008,
    /// IDNA2003, RFC 3490 section 4 with Nameprep (RFC 3491) for queries
    /// (AllowUnassigned): what CPython's `idna` codec and GNU Libidn 1.x
    /// implement.
    Idna2003,
    /// The URL Standard's host parser for a special URL, on UTS #46 with
    /// the switches its beStrict sets: domains and IPv4 addresses (not
    /// IPv6), as written since its ASCII fallback (whatwg/url commit
    /// a8d5ca37, 2026-06-25). The `domain` codec only
    /// ([`crate::domain::url`]).
    Url,
    /// The URL Standard's host parser as written before its ASCII fallback
    /// (`--label-rules url --url-ascii-fallback false`): what Node 20, ada
    /// 2.x and whatwg-url 16 implement. The `domain` codec only.
    #[cfg_attr(feature = "clap", value(skip))]
    UrlBeforeAsciiFallback,
}

impl LabelRules {
    /// Every standard a label is judged by: the `label` codec's rules.
    pub const ALL: [LabelRules; 3] = [
        LabelRules::Uts46,
        LabelRules::Idna2008,
        LabelRules::Idna2003,
    ];

    /// Every rule set, the URL Standard's (the `domain` codec's only) too.
    pub const EVERY: [LabelRules; 5] = [
        LabelRules::Uts46,
        LabelRules::Idna2008,
        LabelRules::Idna2003,
        LabelRules::Url,
        LabelRules::UrlBeforeAsciiFallback,
    ];

    /// Its name on the command line, in `punycheck.toml` and in vector
    /// files.
    pub fn name(self) -> &'static str {
        match self {
            LabelRules::Uts46 => "uts46",
            LabelRules::Idna2008 => "idna2008",
            LabelRules::Idna2003 => "idna2003",
            LabelRules::Url => "url",
            LabelRules::UrlBeforeAsciiFallback => "url-before-ascii-fallback",
        }
    }

    /// Parses a name produced by [`LabelRules::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::EVERY.into_iter().find(|r| r.name() == name)
    }

    /// Whether these are the URL Standard's host parser (either text).
    pub fn is_url(self) -> bool {
        matches!(self, LabelRules::Url | LabelRules::UrlBeforeAsciiFallback)
    }

    /// The standard each label is judged by: UTS #46 for the URL
    /// Standard's host parser, the rules themselves otherwise.
    pub fn per_label(self) -> LabelRules {
        if self.is_url() {
            LabelRules::Uts46
        } else {
            self
        }
    }

    /// The document it follows.
    pub fn specification(self) -> &'static str {
        match self {
            LabelRules::Uts46 => "UTS #46 revision 36 (Unicode 18.0.0)",
            LabelRules::Idna2008 => "IDNA2008 lookup (RFC 5891 section 5, RFC 5892, RFC 5893)",
            LabelRules::Idna2003 => "IDNA2003 (RFC 3490 section 4, Nameprep for queries)",
            LabelRules::Url => {
                "the URL Standard's host parser (special URLs; domains and IPv4), with its ASCII \
                 fallback (whatwg/url a8d5ca37), on UTS #46 revision 36"
            }
            LabelRules::UrlBeforeAsciiFallback => {
                "the URL Standard's host parser (special URLs; domains and IPv4), as written \
                 before its ASCII fallback (whatwg/url a8d5ca37), on UTS #46 revision 36"
            }
        }
    }
}

impl fmt::Display for LabelRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The switches UTS #46 leaves to its caller: the boolean flags of
/// section 4, Processing (CheckHyphens, CheckBidi, CheckJoiners,
/// UseSTD3ASCIIRules, Transitional_Processing, IgnoreInvalidPunycode) and
/// of 4.2, ToASCII (VerifyDnsLength). Their defaults are the values of
/// Unicode's own conformance data (`IdnaTestV2.txt`: every check on,
/// Nontransitional Processing, IgnoreInvalidPunycode off; its `toAsciiT`
/// column has Transitional_Processing on), the strict setting of a
/// registry or a resolver; the URL Standard's "domain to ASCII" turns
/// CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off and keeps the
/// other four at these defaults ([`Switches::URL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Switches {
    /// CheckHyphens: no hyphen-minus at the start, the end, or in both the
    /// third and fourth positions (validity criteria 2 and 3); when off,
    /// only a label beginning with `xn--` is refused (criterion 4).
    pub check_hyphens: bool,
    /// UseSTD3ASCIIRules: the ASCII code points of a label are only
    /// lowercase letters, digits and the hyphen-minus (criterion 7).
    pub use_std3_ascii_rules: bool,
    /// VerifyDnsLength: ToASCII's answer is 1 to 63 octets long (section
    /// 4.2, ToASCII). ToUnicode has none.
    pub verify_dns_length: bool,
    /// CheckBidi: in a Bidi domain name, each label meets the six
    /// conditions of RFC 5893 section 2 (UTS #46 section 4.1, criterion
    /// 9). UTS #46 rules only.
    pub check_bidi: bool,
    /// CheckJoiners: U+200C and U+200D only where the ContextJ rules of
    /// RFC 5892 Appendix A allow them (criterion 8). UTS #46 rules only.
    pub check_joiners: bool,
    /// Transitional_Processing (deprecated since UTS #46 revision 31):
    /// step 1 maps the four deviation characters (U+00DF to `ss`, U+03C2
    /// to U+03C3, U+200C and U+200D to nothing) and U+1E9E to `ss`, and a
    /// label that does not begin with `xn--` is held to criterion 7's
    /// "valid" only (section 4, step 1 and step 4; section 4.1, criterion
    /// 7.1). UTS #46 rules only.
    pub transitional_processing: bool,
    /// IgnoreInvalidPunycode: an `xn--` label whose Punycode does not
    /// convert is kept as it is instead of recording an error at once
    /// (section 4, step 4, item 2); item 3 then records one all the same
    /// (the label is ASCII only), so the answers are those without it,
    /// refused by item 3's rule ([`uts46`]). UTS #46 rules only.
    pub ignore_invalid_punycode: bool,
}

impl Switches {
    /// Every check on, Nontransitional Processing, IgnoreInvalidPunycode
    /// off: Unicode's conformance data, a registry, a resolver.
    pub const STRICT: Switches = Switches {
        check_hyphens: true,
        use_std3_ascii_rules: true,
        verify_dns_length: true,
        check_bidi: true,
        check_joiners: true,
        transitional_processing: false,
        ignore_invalid_punycode: false,
    };

    /// The URL Standard's host parser (`beStrict` false): CheckHyphens,
    /// UseSTD3ASCIIRules and VerifyDnsLength off, CheckBidi and
    /// CheckJoiners on, Transitional_Processing and IgnoreInvalidPunycode
    /// off (its "domain to ASCII", whatwg/url a6e4492).
    pub const URL: Switches = Switches {
        check_hyphens: false,
        use_std3_ascii_rules: false,
        verify_dns_length: false,
        ..Switches::STRICT
    };

    /// Whether the four switches only UTS #46 has (CheckBidi,
    /// CheckJoiners, Transitional_Processing, IgnoreInvalidPunycode) are
    /// at their defaults.
    pub fn uts46_defaults(self) -> bool {
        self.check_bidi
            && self.check_joiners
            && !self.transitional_processing
            && !self.ignore_invalid_punycode
    }

    /// The switches as `CheckHyphens=true UseSTD3ASCIIRules=false ...`:
    /// the first three always, each of the other four where it is not
    /// its default.
    pub fn described(self) -> String {
        let mut out = format!(
            "CheckHyphens={} UseSTD3ASCIIRules={} VerifyDnsLength={}",
            self.check_hyphens, self.use_std3_ascii_rules, self.verify_dns_length
        );
        for (name, value, default) in self.uts46_only() {
            if value != default {
                out.push_str(&format!(" {name}={value}"));
            }
        }
        out
    }

    /// The four switches only UTS #46 has: (its name in UTS #46, its
    /// value, its default).
    fn uts46_only(self) -> [(&'static str, bool, bool); 4] {
        let default = Switches::STRICT;
        [
            ("CheckBidi", self.check_bidi, default.check_bidi),
            ("CheckJoiners", self.check_joiners, default.check_joiners),
            (
                "Transitional_Processing",
                self.transitional_processing,
                default.transitional_processing,
            ),
            (
                "IgnoreInvalidPunycode",
                self.ignore_invalid_punycode,
                default.ignore_invalid_punycode,
            ),
        ]
    }
}

impl Default for Switches {
    fn default() -> Self {
        Switches::STRICT
    }
}

/// A profile: the rules and the caller's switches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LabelProfile {
    /// The standard.
    pub rules: LabelRules,
    /// The caller's switches.
    pub switches: Switches,
}

impl LabelProfile {
    /// UTS #46 with every switch on ([`Switches::STRICT`]).
    pub const DEFAULT: LabelProfile = LabelProfile {
        rules: LabelRules::Uts46,
        switches: Switches::STRICT,
    };

    /// Whether all three switches are on: the URL Standard's beStrict, when
    /// its rules are the URL Standard's.
    pub fn be_strict(self) -> bool {
        self.switches == Switches::STRICT
    }
}

/// The label options of a command line, a configuration file or a vector:
/// each one given is laid over a profile, the others kept
/// ([`LabelOptions::applied`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelOptions {
    /// `--label-rules`.
    pub rules: Option<LabelRules>,
    /// `--check-hyphens`.
    pub check_hyphens: Option<bool>,
    /// `--std3-rules`.
    pub std3_rules: Option<bool>,
    /// `--verify-dns-length`.
    pub verify_dns_length: Option<bool>,
    /// `--check-bidi` (with `--label-rules uts46`).
    pub check_bidi: Option<bool>,
    /// `--check-joiners` (with `--label-rules uts46`).
    pub check_joiners: Option<bool>,
    /// `--transitional-processing` (with `--label-rules uts46`).
    pub transitional_processing: Option<bool>,
    /// `--ignore-invalid-punycode` (with `--label-rules uts46`).
    pub ignore_invalid_punycode: Option<bool>,
    /// `--be-strict` (with `--label-rules url`).
    pub be_strict: Option<bool>,
    /// `--url-ascii-fallback` (with `--label-rules url`).
    pub url_ascii_fallback: Option<bool>,
}

impl LabelOptions {
    /// Whether any option is given.
    pub fn any(&self) -> bool {
        *self != LabelOptions::default()
    }

    /// `base` with these options laid over it; for `domain` false (the
    /// `label` codec) the URL Standard's rules are refused. The URL
    /// Standard sets the three switches from beStrict and the other four
    /// to UTS #46's defaults, so with its rules they are refused too, and
    /// `--be-strict` and `--url-ascii-fallback` are refused without them.
    /// CheckBidi, CheckJoiners, Transitional_Processing and
    /// IgnoreInvalidPunycode are UTS #46's own: with other rules, a value
    /// other than the default is refused.
    pub fn applied(self, base: LabelProfile, domain: bool) -> Result<LabelProfile, String> {
        let mut rules = self.rules.unwrap_or(base.rules);
        let uts46_given = [
            self.check_bidi,
            self.check_joiners,
            self.transitional_processing,
            self.ignore_invalid_punycode,
        ];
        let switches_given = self.check_hyphens.is_some()
            || self.std3_rules.is_some()
            || self.verify_dns_length.is_some()
            || uts46_given.iter().any(Option::is_some);
        if !rules.is_url() {
            if self.be_strict.is_some() || self.url_ascii_fallback.is_some() {
                return Err(
                    "--be-strict and --url-ascii-fallback go with --label-rules url".into(),
                );
            }
            let mut switches = if base.rules.is_url() {
                Switches::STRICT
            } else {
                base.switches
            };
            switches.check_hyphens = self.check_hyphens.unwrap_or(switches.check_hyphens);
            switches.use_std3_ascii_rules =
                self.std3_rules.unwrap_or(switches.use_std3_ascii_rules);
            switches.verify_dns_length =
                self.verify_dns_length.unwrap_or(switches.verify_dns_length);
            if rules == LabelRules::Uts46 {
                switches.check_bidi = self.check_bidi.unwrap_or(switches.check_bidi);
                switches.check_joiners = self.check_joiners.unwrap_or(switches.check_joiners);
                switches.transitional_processing = self
                    .transitional_processing
                    .unwrap_or(switches.transitional_processing);
                switches.ignore_invalid_punycode = self
                    .ignore_invalid_punycode
                    .unwrap_or(switches.ignore_invalid_punycode);
            } else {
                let strict = Switches::STRICT;
                let defaults = [
                    strict.check_bidi,
                    strict.check_joiners,
                    strict.transitional_processing,
                    strict.ignore_invalid_punycode,
                ];
                if uts46_given
                    .iter()
                    .zip(defaults)
                    .any(|(given, default)| given.is_some_and(|v| v != default))
                {
                    return Err(format!(
                        "--check-bidi, --check-joiners, --transitional-processing and \
                         --ignore-invalid-punycode are UTS #46's parameters: they go with \
                         --label-rules uts46 ({} applies its own rules, whole)",
                        rules.specification()
                    ));
                }
                switches.check_bidi = strict.check_bidi;
                switches.check_joiners = strict.check_joiners;
                switches.transitional_processing = strict.transitional_processing;
                switches.ignore_invalid_punycode = strict.ignore_invalid_punycode;
            }
            return Ok(LabelProfile { rules, switches });
        }
        if !domain {
            return Err(
                "--label-rules url is the URL Standard's host parser, of a whole \
                        name: it goes with --codec domain"
                    .into(),
            );
        }
        if switches_given {
            return Err(
                "--label-rules url sets CheckHyphens, UseSTD3ASCIIRules and \
                        VerifyDnsLength from beStrict, and CheckBidi and CheckJoiners on, \
                        Transitional_Processing and IgnoreInvalidPunycode off, as the URL \
                        Standard does: give --be-strict instead of --check-hyphens, \
                        --std3-rules and --verify-dns-length, and none of --check-bidi, \
                        --check-joiners, --transitional-processing and \
                        --ignore-invalid-punycode"
                    .into(),
            );
        }
        let be_strict = self
            .be_strict
            .unwrap_or(base.rules.is_url() && base.be_strict());
        let fallback = self
            .url_ascii_fallback
            .unwrap_or(rules != LabelRules::UrlBeforeAsciiFallback);
        rules = if fallback {
            LabelRules::Url
        } else {
            LabelRules::UrlBeforeAsciiFallback
        };
        let switches = if be_strict {
            Switches::STRICT
        } else {
            Switches::URL
        };
        Ok(LabelProfile { rules, switches })
    }

    /// The options that give `profile` when laid over
    /// [`LabelProfile::DEFAULT`], as command-line words: ` --label-rules
    /// RULES` and each switch that differs.
    pub fn printed(profile: LabelProfile) -> String {
        let mut out = String::new();
        match profile.rules {
            LabelRules::Url | LabelRules::UrlBeforeAsciiFallback => {
                out.push_str(" --label-rules url");
                if profile.be_strict() {
                    out.push_str(" --be-strict true");
                }
                if profile.rules == LabelRules::UrlBeforeAsciiFallback {
                    out.push_str(" --url-ascii-fallback false");
                }
            }
            rules => {
                out.push_str(&format!(" --label-rules {rules}"));
                let (given, default) = (profile.switches, Switches::STRICT);
                for (option, value, default) in [
                    ("check-hyphens", given.check_hyphens, default.check_hyphens),
                    (
                        "std3-rules",
                        given.use_std3_ascii_rules,
                        default.use_std3_ascii_rules,
                    ),
                    (
                        "verify-dns-length",
                        given.verify_dns_length,
                        default.verify_dns_length,
                    ),
                    ("check-bidi", given.check_bidi, default.check_bidi),
                    ("check-joiners", given.check_joiners, default.check_joiners),
                    (
                        "transitional-processing",
                        given.transitional_processing,
                        default.transitional_processing,
                    ),
                    (
                        "ignore-invalid-punycode",
                        given.ignore_invalid_punycode,
                        default.ignore_invalid_punycode,
                    ),
                ] {
                    if value != default {
                        out.push_str(&format!(" --{option} {value}"));
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for LabelProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.rules, self.switches.described())
    }
}

/// ToUnicode of one label under `profile`: the U-label's code points, or
/// why the label is refused.
pub fn to_unicode(profile: LabelProfile, label: &[u8]) -> Result<Vec<u32>, LabelError> {
    match profile.rules {
        LabelRules::Idna2008 => idna2008::to_unicode(profile.switches, label),
        LabelRules::Idna2003 => idna2003::to_unicode(profile.switches, label),
        _ => uts46::to_unicode(profile.switches, label),
    }
}

/// ToASCII of one U-label under `profile`: the A-label (`xn--...`), or
/// why the label is refused.
pub fn to_ascii(profile: LabelProfile, label: &[u32]) -> Result<Vec<u8>, LabelError> {
    match profile.rules {
        LabelRules::Idna2008 => idna2008::to_ascii(profile.switches, label),
        LabelRules::Idna2003 => idna2003::to_ascii(profile.switches, label),
        _ => uts46::to_ascii(profile.switches, label),
    }
}

/// The Punycode after an ACE prefix decoded to a U-label's characters:
/// a Punycode failure, a value that is no Unicode scalar value, an empty
/// or an all-ASCII decoding is refused (no profile takes those as a
/// U-label), with the decoded code points beside the characters.
fn decode_payload(payload: &[u8]) -> Result<(Vec<u32>, Vec<char>), LabelError> {
    let decoded = punycode::decode(payload).map_err(LabelError::Punycode)?;
    let chars = decoded
        .code_points
        .iter()
        .map(|&cp| char::from_u32(cp).ok_or(LabelError::DecodesToNonScalar(cp)))
        .collect::<Result<Vec<char>, _>>()?;
    if chars.is_empty() {
        return Err(LabelError::Empty);
    }
    if chars.iter().all(char::is_ascii) {
        return Err(LabelError::AsciiOnly);
    }
    Ok((decoded.code_points, chars))
}

/// Whether `label` begins with the ACE prefix in any case (`xn--`,
/// `XN--`, `Xn--`...).
pub fn has_ace_prefix(label: &[u8]) -> bool {
    label.len() >= 4 && label[..4].eq_ignore_ascii_case(ACE_PREFIX.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_options_lay_over_a_profile_and_refuse_what_it_does_not_take() {
        let url = LabelOptions {
            rules: Some(LabelRules::Url),
            ..LabelOptions::default()
        };
        // The URL Standard's rules: beStrict false by default, the fallback
        // on; the switches follow beStrict.
        let profile = url.applied(LabelProfile::DEFAULT, true).unwrap();
        assert_eq!(profile.rules, LabelRules::Url);
        assert_eq!(profile.switches, Switches::URL);
        let strict = LabelOptions {
            be_strict: Some(true),
            url_ascii_fallback: Some(false),
            ..url
        };
        let earlier = strict.applied(LabelProfile::DEFAULT, true).unwrap();
        assert_eq!(earlier.rules, LabelRules::UrlBeforeAsciiFallback);
        assert!(earlier.be_strict());
        // What it prints gives it back.
        assert_eq!(
            LabelOptions::printed(earlier),
            " --label-rules url --be-strict true --url-ascii-fallback false"
        );
        // A later layer keeps the earlier text unless it says otherwise.
        let again = LabelOptions::default().applied(earlier, true).unwrap();
        assert_eq!(again, earlier);
        // Refused: the label codec, a UTS #46 switch with url, beStrict
        // without it.
        assert!(url.applied(LabelProfile::DEFAULT, false).is_err());
        let switch = LabelOptions {
            check_hyphens: Some(false),
            ..url
        };
        assert!(switch.applied(LabelProfile::DEFAULT, true).is_err());
        let alone = LabelOptions {
            be_strict: Some(true),
            ..LabelOptions::default()
        };
        assert!(alone.applied(LabelProfile::DEFAULT, true).is_err());
        // Leaving url for uts46 gives the registry's switches back.
        let uts46 = LabelOptions {
            rules: Some(LabelRules::Uts46),
            ..LabelOptions::default()
        };
        assert_eq!(uts46.applied(profile, true).unwrap(), LabelProfile::DEFAULT);
    }

    #[test]
    fn uts46s_own_switches_go_with_its_rules_only() {
        let transitional = LabelOptions {
            transitional_processing: Some(true),
            check_bidi: Some(false),
            ..LabelOptions::default()
        };
        let profile = transitional.applied(LabelProfile::DEFAULT, false).unwrap();
        assert!(profile.switches.transitional_processing && !profile.switches.check_bidi);
        assert_eq!(
            LabelOptions::printed(profile),
            " --label-rules uts46 --check-bidi false --transitional-processing true"
        );
        assert_eq!(
            profile.switches.described(),
            "CheckHyphens=true UseSTD3ASCIIRules=true VerifyDnsLength=true CheckBidi=false \
             Transitional_Processing=true"
        );
        // Refused with IDNA2008 and with the URL Standard's host parser,
        // which set them themselves.
        for rules in [LabelRules::Idna2008, LabelRules::Idna2003, LabelRules::Url] {
            let options = LabelOptions {
                rules: Some(rules),
                ..transitional
            };
            let error = options.applied(LabelProfile::DEFAULT, true).unwrap_err();
            assert!(error.contains("--transitional-processing"), "{error}");
        }
        // Their defaults are taken with any rules; leaving UTS #46 for
        // IDNA2008 gives them back.
        let idna2008 = LabelOptions {
            rules: Some(LabelRules::Idna2008),
            check_bidi: Some(true),
            ..LabelOptions::default()
        };
        let back = idna2008.applied(profile, false).unwrap();
        assert!(back.switches.uts46_defaults());
        // The URL Standard's switches keep them at their defaults.
        assert!(Switches::URL.uts46_defaults());
    }
}
