//! What a user declares about an implementation under test: the same facts
//! the built-in implementations declare in their [`Capabilities`], for a
//! program or library punycheck cannot inspect.
//!
//! Every declaration maps onto a divergence class, so that an honest
//! declaration turns a difference from the C reference into a classified
//! one, never a finding: `--domain unicode` (class `domain`), `--errors
//! failure-only` (`error-detail`), `--no-annotations` (`annotations`),
//! `--decode-only` and `--encode-only` (`direction`), `--max-encode N` and
//! `--max-decode N` (`length-limit`), `--unicode-version X.Y`
//! (`unicode-version`), and for labels and names `--max-label-code-points`,
//! `--max-label-bytes`, `--max-name-code-points` and `--max-name-bytes`
//! (`length-limit`). Nothing declared keeps what the implementation
//! declares itself.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{
    Capabilities, CodePointDomain, DecodeResult, Directions, EncodeResult, Engine, ErrorDetail,
    NameLimits, PunycodeInput,
};
use crate::codec::Codec;
use crate::unicode::UnicodeVersion;

/// Declared facts about an implementation; `None` leaves its own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Declaration {
    /// The code points it takes and returns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<DomainDecl>,
    /// How precisely it reports failures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<ErrorsDecl>,
    /// Whether it does Appendix A annotations (case flags).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<bool>,
    /// Which ways it converts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directions: Option<DirectionsDecl>,
    /// The longest input it encodes, in code points, and the most code
    /// points it decodes to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_encode: Option<usize>,
    /// The longest input it decodes, in bytes, and the most bytes it encodes
    /// to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_decode: Option<usize>,
    /// The Unicode version of its data (the `label` and `domain` codecs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unicode_version: Option<UnicodeVersion>,
    /// The most code points of one label it takes (the `label` and
    /// `domain` codecs; [`NameLimits`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_label_code_points: Option<usize>,
    /// The most bytes of one label in ASCII it takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_label_bytes: Option<usize>,
    /// The most code points of a whole name it takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_name_code_points: Option<usize>,
    /// The most bytes of a whole name in ASCII it takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_name_bytes: Option<usize>,
    /// What its answers are: a conversion, or only a verdict (a validator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<AnswersDecl>,
}

/// `--answers`, as written on the command line and in `punycheck.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum AnswersDecl {
    /// It converts: encode answers the ASCII form, decode the code points.
    Conversion,
    /// It answers only whether the input is valid (a validator): `valid`
    /// or `invalid` to a name in any form, asked as a name to encode and
    /// judged against whether the reference's ToASCII succeeds.
    Verdict,
}

/// `--domain`, as written on the command line and in `punycheck.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum DomainDecl {
    /// Unicode scalar values only.
    Unicode,
    /// Code points up to U+10FFFF, surrogates included.
    UnicodeWithSurrogates,
    /// Values up to 0x7FFFFFFF.
    U31,
    /// Any 32-bit value, as RFC 3492 allows.
    U32,
}

impl DomainDecl {
    /// The domain it declares.
    pub fn domain(self) -> CodePointDomain {
        match self {
            DomainDecl::Unicode => CodePointDomain::UnicodeScalar,
            DomainDecl::UnicodeWithSurrogates => CodePointDomain::UnicodeWithSurrogates,
            DomainDecl::U31 => CodePointDomain::U31,
            DomainDecl::U32 => CodePointDomain::U32,
        }
    }
}

/// `--errors`, as written on the command line and in `punycheck.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ErrorsDecl {
    /// It says which error (invalid input, overflow).
    Kinds,
    /// It only says that it failed.
    FailureOnly,
}

/// `--decode-only`/`--encode-only`, as written in `punycheck.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum DirectionsDecl {
    /// Encodes and decodes.
    Both,
    /// Only encodes.
    EncodeOnly,
    /// Only decodes.
    DecodeOnly,
}

impl Declaration {
    /// This declaration laid over `base`: each fact this one states wins.
    pub fn over(self, base: Declaration) -> Declaration {
        Declaration {
            domain: self.domain.or(base.domain),
            errors: self.errors.or(base.errors),
            annotations: self.annotations.or(base.annotations),
            directions: self.directions.or(base.directions),
            max_encode: self.max_encode.or(base.max_encode),
            max_decode: self.max_decode.or(base.max_decode),
            unicode_version: self.unicode_version.or(base.unicode_version),
            max_label_code_points: self.max_label_code_points.or(base.max_label_code_points),
            max_label_bytes: self.max_label_bytes.or(base.max_label_bytes),
            max_name_code_points: self.max_name_code_points.or(base.max_name_code_points),
            max_name_bytes: self.max_name_bytes.or(base.max_name_bytes),
            answers: self.answers.or(base.answers),
        }
    }

    /// The limits on labels and names it declares.
    pub fn name_limits(&self) -> NameLimits {
        NameLimits {
            label_code_points: self.max_label_code_points,
            label_bytes: self.max_label_bytes,
            name_code_points: self.max_name_code_points,
            name_bytes: self.max_name_bytes,
        }
    }

    /// Whether it declares nothing.
    pub fn is_empty(&self) -> bool {
        *self == Declaration::default()
    }

    /// `caps` with every declared fact laid over it.
    pub fn apply(&self, mut caps: Capabilities) -> Capabilities {
        if let Some(domain) = self.domain {
            caps.domain = domain.domain();
        }
        if let Some(errors) = self.errors {
            caps.errors = match errors {
                ErrorsDecl::Kinds => ErrorDetail::Kinds,
                ErrorsDecl::FailureOnly => ErrorDetail::FailureOnly,
            };
        }
        if let Some(annotations) = self.annotations {
            caps.annotations = annotations;
        }
        if let Some(directions) = self.directions {
            caps.directions = match directions {
                DirectionsDecl::Both => Directions::Both,
                DirectionsDecl::EncodeOnly => Directions::EncodeOnly,
                DirectionsDecl::DecodeOnly => Directions::DecodeOnly,
            };
        }
        // A declared limit is a promise about answers too: at most N code
        // points decoded, at most N bytes encoded.
        if self.max_encode.is_some() {
            caps.max_encode_input = self.max_encode;
            caps.bound_answers.decoded = true;
        }
        if self.max_decode.is_some() {
            caps.max_decode_input = self.max_decode;
            caps.bound_answers.encoded = true;
        }
        if self.unicode_version.is_some() {
            caps.unicode_version = self.unicode_version;
        }
        caps.name_limits = self.name_limits().over(caps.name_limits);
        // A validator is asked names, whatever form they take, and its
        // verdict is judged against ToASCII's: only encode questions.
        if let Some(answers) = self.answers {
            caps.verdict_only = answers == AnswersDecl::Verdict;
            if caps.verdict_only {
                caps.directions = Directions::EncodeOnly;
            }
        }
        caps
    }

    /// The command-line options that make this declaration, each with a
    /// leading space (empty when nothing is declared): for printed
    /// reproducers, so they ask exactly what the check asked.
    pub fn options(&self) -> String {
        let mut out = String::new();
        if let Some(domain) = self.domain {
            out += &format!(" --domain {}", domain.domain().name());
        }
        if let Some(errors) = self.errors {
            out += match errors {
                ErrorsDecl::Kinds => " --errors kinds",
                ErrorsDecl::FailureOnly => " --errors failure-only",
            };
        }
        if self.annotations == Some(false) {
            out += " --no-annotations";
        }
        match self.directions {
            Some(DirectionsDecl::EncodeOnly) => out += " --encode-only",
            Some(DirectionsDecl::DecodeOnly) => out += " --decode-only",
            _ => {}
        }
        if let Some(n) = self.max_encode {
            out += &format!(" --max-encode {n}");
        }
        if let Some(n) = self.max_decode {
            out += &format!(" --max-decode {n}");
        }
        if let Some(version) = self.unicode_version {
            out += &format!(" --unicode-version {version}");
        }
        out += &self.name_limits().options();
        if self.answers == Some(AnswersDecl::Verdict) {
            out += " --answers verdict";
        }
        out
    }
}

/// Describes what `caps` declares, for the head of a report.
pub fn describe(caps: &Capabilities) -> String {
    let mut parts = vec![
        format!("domain {}", caps.domain.name()),
        match caps.errors {
            ErrorDetail::Kinds => "errors kinds".to_string(),
            ErrorDetail::FailureOnly => "errors failure-only".to_string(),
        },
        format!(
            "annotations {}",
            if caps.annotations { "yes" } else { "no" }
        ),
    ];
    if caps.verdict_only {
        parts.push("answers a verdict only (a validator, judged by ToASCII's)".into());
    }
    match caps.directions {
        Directions::Both => parts.push("encodes and decodes".into()),
        Directions::EncodeOnly => parts.push("encode only".into()),
        Directions::DecodeOnly => parts.push("decode only".into()),
    }
    // A program that does not answer the escaped form is never asked what
    // its line cannot carry: said, since every such question is skipped.
    match caps.punycode_input {
        PunycodeInput::PrintableLine => {
            parts.push("printable ASCII only (no escaped questions answered)".into())
        }
        PunycodeInput::LabelLine | PunycodeInput::NameLine => {
            parts.push("no control characters (no escaped questions answered)".into())
        }
        _ => {}
    }
    if let Some(n) = caps.max_encode_input {
        parts.push(format!("max-encode {n} code points"));
    }
    if let Some(n) = caps.max_decode_input {
        parts.push(format!("max-decode {n} bytes"));
    }
    if let Some(version) = caps.unicode_version {
        parts.push(format!(
            "Unicode {version} (the references': {})",
            crate::unicode::REFERENCE
        ));
    }
    parts.extend(
        caps.name_limits
            .each()
            .map(|(_, what, n)| format!("at most {n} {what}")),
    );
    parts.join(", ")
}

/// An implementation seen through a declaration: its answers, with the
/// declared capabilities in place of its own.
pub struct Declared {
    inner: Box<dyn Engine>,
    declaration: Declaration,
}

impl Declared {
    /// `inner` with `declaration` laid over its capabilities.
    pub fn new(inner: Box<dyn Engine>, declaration: Declaration) -> Self {
        Declared { inner, declaration }
    }
}

impl fmt::Debug for Declared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Declared")
            .field("inner", &self.inner.name())
            .field("declaration", &self.declaration)
            .finish()
    }
}

impl Engine for Declared {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn codec(&self) -> Codec {
        self.inner.codec()
    }

    fn workers(&self) -> usize {
        self.inner.workers()
    }

    fn capabilities(&self) -> Capabilities {
        self.declaration.apply(self.inner.capabilities())
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        let flags = case_flags.filter(|_| self.capabilities().annotations);
        self.inner.encode(input, flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        self.inner.decode(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::CleanRoom;

    #[test]
    fn a_declaration_lays_over_the_capabilities() {
        let own = CleanRoom.capabilities();
        assert_eq!(Declaration::default().apply(own.clone()), own);
        let declared = Declaration {
            domain: Some(DomainDecl::Unicode),
            errors: Some(ErrorsDecl::FailureOnly),
            annotations: Some(false),
            directions: Some(DirectionsDecl::DecodeOnly),
            max_encode: Some(10),
            max_decode: Some(20),
            unicode_version: Some("14.0".parse().unwrap()),
            ..Declaration::default()
        };
        let caps = declared.apply(own);
        assert_eq!(
            caps.unicode_version.map(|v| v.to_string()).as_deref(),
            Some("14.0")
        );
        assert_eq!(caps.domain, CodePointDomain::UnicodeScalar);
        assert_eq!(caps.errors, ErrorDetail::FailureOnly);
        assert!(!caps.annotations);
        assert_eq!(caps.directions, Directions::DecodeOnly);
        assert_eq!(
            (caps.max_encode_input, caps.max_decode_input),
            (Some(10), Some(20))
        );
        assert_eq!(
            declared.options(),
            " --domain unicode --errors failure-only --no-annotations --decode-only --max-encode 10 --max-decode 20 --unicode-version 14.0"
        );
        assert_eq!(
            describe(&caps),
            "domain unicode, errors failure-only, annotations no, decode only, max-encode 10 code points, max-decode 20 bytes, Unicode 14.0 (the references': 18.0)"
        );
    }

    #[test]
    fn declarations_read_from_toml() {
        let d: Declaration = toml::from_str(
            "domain = \"unicode\"\nerrors = \"failure-only\"\nannotations = false\ndirections = \"decode-only\"\nmax-decode = 63\n",
        )
        .unwrap();
        assert_eq!(d.domain, Some(DomainDecl::Unicode));
        assert_eq!(d.directions, Some(DirectionsDecl::DecodeOnly));
        assert_eq!(d.max_decode, Some(63));
        assert!(toml::from_str::<Declaration>("domain = \"ascii\"").is_err());
        for (text, domain) in [
            (
                "unicode-with-surrogates",
                CodePointDomain::UnicodeWithSurrogates,
            ),
            ("u31", CodePointDomain::U31),
        ] {
            let d: Declaration = toml::from_str(&format!("domain = {text:?}")).unwrap();
            let caps = d.apply(CleanRoom.capabilities());
            assert_eq!(caps.domain, domain);
            assert_eq!(d.options(), format!(" --domain {text}"));
            assert!(describe(&caps).starts_with(&format!("domain {text},")));
        }
        assert!(toml::from_str::<Declaration>("colour = 1").is_err());
    }
}
