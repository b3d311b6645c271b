//! The implementations under test, all behind one trait.
//!
//! Every implementation declares what it supports in [`Capabilities`]: the
//! code point domain, Appendix A annotations, how precisely it reports
//! errors, and its length limits. The harness uses the declaration to decide
//! which cases an implementation can be asked at all and how to compare its
//! answers; anything it cannot express is skipped with the reason recorded.
//!
//! # Where things are
//!
//! - [`builtin`](mod@builtin): the implementations built into punycheck (the clean-room
//!   code, the RFC's C code, the libraries, the other codecs' coders).
//! - [`external`]: how implementations outside punycheck are reached:
//!   `exec:` programs, `pipe:` programs and `so:` libraries, the processes
//!   they run in, and what they share (the line protocol, the time limits
//!   and their retry, the pools of workers).
//! - [`Functions`]: two Rust functions as an implementation, for a crate
//!   that checks its own code.
//! - [`EntryPoints`]: one implementation reached through several entry
//!   points, which must answer alike.
//! - [`declaration`]: what a user declares about an implementation that
//!   punycheck cannot inspect.
//! - [`from_spec`]: a name on the command line (`cleanroom`, `exec:...`,
//!   `pipe:...`, `so:...`) resolved to an implementation.
//!
//! Their types are re-exported here, where users name them
//! (`punycheck::engines::{Engine, Exec, So, RfcC, ...}`).

pub mod builtin;
pub mod declaration;
mod entry_points;
pub mod external;
mod functions;
mod spec;
pub mod spent;

pub use builtin::{
    AmcC, AmcCAsPunycode, Bootstring, CleanRoom, DomainReference, Idna, IdnaDomain, IdnaLabel,
    LabelReference, LaceCleanRoom, RfcC,
};
#[cfg(punycheck_icu)]
pub use builtin::{Icu, IcuDomain, IcuLabel};
#[cfg(punycheck_libidn2)]
pub use builtin::{Libidn2, Libidn2Domain, Libidn2Label};
pub use builtin::{StdUtf8, Utf8CleanRoom};
pub use declaration::{Declaration, Declared};
pub use entry_points::{EntryPoint, EntryPoints};
pub use external::StartError;
pub use external::{Exec, Pipe, So, crash_line, process, so};
pub use functions::{Functions, Refusal};
pub use spec::{SpecError, SpecOptions, from_spec};

use crate::codec::Codec;
use crate::punycode::Decoded;
pub use crate::vocabulary::EngineError;
use crate::vocabulary::classes::Class;
use crate::vocabulary::{Expected, Request};

/// Which code points an implementation takes and returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodePointDomain {
    /// Any 32-bit unsigned value, as RFC 3492 and its C code allow.
    U32,
    /// 0 to 0x7FFFFFFF: what a signed 32-bit integer holds, and what the
    /// original six-byte UTF-8 carries (Ruby's `pack("U*")`).
    U31,
    /// 0 to U+10FFFF, surrogates included: the Unicode code points, as a
    /// Python `str` or a Perl string holds them.
    UnicodeWithSurrogates,
    /// Unicode scalar values only (no surrogates, nothing above U+10FFFF).
    UnicodeScalar,
}

impl CodePointDomain {
    /// Whether `cp` is in the domain.
    pub fn contains(self, cp: u32) -> bool {
        match self {
            CodePointDomain::U32 => true,
            CodePointDomain::U31 => cp <= 0x7FFF_FFFF,
            CodePointDomain::UnicodeWithSurrogates => cp <= 0x10_FFFF,
            CodePointDomain::UnicodeScalar => char::from_u32(cp).is_some(),
        }
    }

    /// Its name on the command line and in reports (`unicode`, `u32`, ...).
    pub fn name(self) -> &'static str {
        match self {
            CodePointDomain::U32 => "u32",
            CodePointDomain::U31 => "u31",
            CodePointDomain::UnicodeWithSurrogates => "unicode-with-surrogates",
            CodePointDomain::UnicodeScalar => "unicode",
        }
    }

    /// What it holds, in words.
    pub fn meaning(self) -> &'static str {
        match self {
            CodePointDomain::U32 => "any 32-bit value",
            CodePointDomain::U31 => "values up to 0x7FFFFFFF",
            CodePointDomain::UnicodeWithSurrogates => {
                "code points up to U+10FFFF, surrogates included"
            }
            CodePointDomain::UnicodeScalar => "Unicode scalar values",
        }
    }
}

/// How precisely an implementation reports a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorDetail {
    /// Says which of the RFC's statuses it is (bad input, overflow, ...).
    Kinds,
    /// Only says that it failed (the `idna` crate returns `None`).
    FailureOnly,
}

/// How an implementation takes Punycode text to decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PunycodeInput {
    /// Any bytes.
    Bytes,
    /// Valid UTF-8 only (a Rust `&str`); other byte strings cannot be passed.
    Utf8,
    /// One line of printable ASCII (0x20 to 0x7E), both ways: the RFC test
    /// wrapper's convention, which `exec:` implementations follow. Punycode
    /// with other bytes cannot be decoded, and code points whose encoding
    /// would contain them (basic controls) cannot be encoded.
    PrintableLine,
    /// One label as a line of UTF-8 text without control characters, what
    /// every implementation of the `label` codec is asked: to decode
    /// (ToUnicode), a label that begins with an ACE prefix in any case (it
    /// may hold a non-ASCII character, which an implementation must
    /// refuse); to encode (ToASCII), any label, plain ASCII ones included
    /// (which ToASCII still lowercases and checks, and decodes when they
    /// begin with `xn--`).
    LabelLine,
    /// [`PunycodeInput::LabelLine`] over a channel that carries every
    /// character (the escaped form of `pipe:` and `exec:`): control
    /// characters are asked too.
    LabelText,
    /// A whole domain name, what every implementation of the `domain`
    /// codec is asked, both ways as code points (the `u+XXXX` tokens of
    /// `pipe:` and `exec:`), so any Unicode scalar value crosses: to
    /// decode (ToUnicode), a name of U-labels and A-labels given as UTF-8
    /// text; to encode (ToASCII), any name, plain ASCII ones included.
    Name,
    /// [`PunycodeInput::Name`] from a program that answers no escaped
    /// question: its ToASCII answer is a plain line, which a name holding a
    /// control character (U+0000 to U+001F, U+007F) would break, so such a
    /// name is not asked to encode. Names to decode still cross as tokens.
    NameLine,
}

impl PunycodeInput {
    /// What it takes to decode, in words.
    pub fn described(self) -> &'static str {
        match self {
            PunycodeInput::Bytes => "decodes any bytes",
            PunycodeInput::Utf8 => "decodes UTF-8 text only",
            PunycodeInput::PrintableLine => "one line of printable ASCII each way",
            PunycodeInput::LabelLine => "one label a line: A-labels to decode, U-labels to encode",
            PunycodeInput::LabelText => {
                "one label at a time, any characters: A-labels to decode, U-labels to encode"
            }
            PunycodeInput::Name => "whole domain names as code points, both ways",
            PunycodeInput::NameLine => {
                "whole domain names as code points, both ways, none with a control character to encode"
            }
        }
    }
}

/// Which ways an implementation converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directions {
    /// Encodes and decodes.
    Both,
    /// Only encodes: it is never asked to decode.
    EncodeOnly,
    /// Only decodes: it is never asked to encode.
    DecodeOnly,
}

impl Directions {
    /// Whether it encodes.
    pub fn encodes(self) -> bool {
        self != Directions::DecodeOnly
    }

    /// Whether it decodes.
    pub fn decodes(self) -> bool {
        self != Directions::EncodeOnly
    }
}

/// What an implementation declares it supports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Code points it accepts when encoding and returns when decoding.
    pub domain: CodePointDomain,
    /// Whether it takes and returns Appendix A mixed-case annotations.
    pub annotations: bool,
    /// How precise its errors are.
    pub errors: ErrorDetail,
    /// What it decodes from.
    pub punycode_input: PunycodeInput,
    /// The longest input it takes when encoding, in code points.
    pub max_encode_input: Option<usize>,
    /// The longest input it takes when decoding, in bytes.
    pub max_decode_input: Option<usize>,
    /// Which of those limits also bound its own answers.
    pub bound_answers: BoundAnswers,
    /// Which ways it converts.
    pub directions: Directions,
    /// Documented ways it departs from RFC 3492, each with its reason: an
    /// answer that differs from the reference is classified (class
    /// `listed`) only when one of these explains it.
    pub deviations: &'static [Deviation],
    /// The Unicode version of its data, where it is older than the
    /// references' ([`crate::unicode::REFERENCE`]): a difference on a
    /// question that holds a code point assigned after it is classified
    /// (class `unicode-version`), never a finding. `None`: the
    /// references' own.
    pub unicode_version: Option<crate::unicode::UnicodeVersion>,
    /// The label and domain codecs: limits on a label's and a name's
    /// length of its own, beyond those of its rules (ICU's 1,000 code
    /// points a label); none by default.
    pub name_limits: NameLimits,
    /// It answers only whether the input is valid (a validator: JSON
    /// Schema's `idn-hostname`, a domain validator), not a conversion:
    /// its verdict is judged against whether the reference succeeds, and
    /// the text of an answer is never compared (`--answers verdict`).
    pub verdict_only: bool,
}

/// An implementation's own limits on labels and names (the `label` and
/// `domain` codecs), which no IDNA rule sets: a refusal of a question
/// whose answer, as the reference gives it, passes one of them is the
/// divergence class `length-limit`, and an answer that passes one breaks
/// the promise (a finding). Counted on the reference's answer: a label's
/// code points in its Unicode form (an A-label decoded) and its bytes in
/// its ASCII form (a U-label encoded, with `xn--`), for a label that holds
/// a non-ASCII code point (the label bounds of ICU and the `idna` crate
/// bound Punycode's input: an ASCII label is never encoded); a name's
/// likewise, every label and the dots included, the root label's dot not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NameLimits {
    /// The most code points of one label.
    pub label_code_points: Option<usize>,
    /// The most bytes of one label in ASCII.
    pub label_bytes: Option<usize>,
    /// The most code points of a whole name.
    pub name_code_points: Option<usize>,
    /// The most bytes of a whole name in ASCII.
    pub name_bytes: Option<usize>,
}

impl NameLimits {
    /// No limit.
    pub const NONE: NameLimits = NameLimits {
        label_code_points: None,
        label_bytes: None,
        name_code_points: None,
        name_bytes: None,
    };

    /// Whether it sets any limit.
    pub fn any(&self) -> bool {
        *self != NameLimits::NONE
    }

    /// Each limit laid over `base`'s.
    pub fn over(self, base: NameLimits) -> NameLimits {
        NameLimits {
            label_code_points: self.label_code_points.or(base.label_code_points),
            label_bytes: self.label_bytes.or(base.label_bytes),
            name_code_points: self.name_code_points.or(base.name_code_points),
            name_bytes: self.name_bytes.or(base.name_bytes),
        }
    }

    /// The limits as command-line options, each with a leading space.
    pub fn options(&self) -> String {
        self.each()
            .map(|(option, _, n)| format!(" --{option} {n}"))
            .collect()
    }

    /// Each limit set: its option's name, what it counts, and the limit.
    pub fn each(&self) -> impl Iterator<Item = (&'static str, &'static str, usize)> {
        self.table()
            .into_iter()
            .filter_map(|(option, what, n)| n.map(|n| (option, what, n)))
    }

    /// Every limit, set or not, with its option's name and what it counts,
    /// in the order of [`crate::domain::Sizes::in_order`].
    fn table(&self) -> [(&'static str, &'static str, Option<usize>); 4] {
        [
            (
                "max-label-code-points",
                "code points in a non-ASCII label",
                self.label_code_points,
            ),
            (
                "max-label-bytes",
                "bytes in a non-ASCII label's ASCII form",
                self.label_bytes,
            ),
            (
                "max-name-code-points",
                "code points in a name",
                self.name_code_points,
            ),
            (
                "max-name-bytes",
                "bytes in a name's ASCII form",
                self.name_bytes,
            ),
        ]
    }

    /// The first limit that a name `answer` (an answer of the label or
    /// domain codec: code points for ToUnicode, ASCII for ToASCII) passes:
    /// its size, the limit, what it counts and the option that declares
    /// it; `None` when it passes none, or is no answer.
    pub fn passed_by(
        &self,
        answer: &crate::vocabulary::Expected,
    ) -> Option<(usize, usize, &'static str, &'static str)> {
        if !self.any() {
            return None;
        }
        crate::domain::Sizes::of(answer)?
            .in_order()
            .into_iter()
            .zip(self.table())
            .find_map(|(size, (option, what, limit))| {
                let limit = limit?;
                (size > limit).then_some((size, limit, what, option))
            })
    }
}

/// Which of an implementation's declared limits also bound what it
/// answers, as a fixed buffer does: a declared `--max-encode N` is at most N
/// code points decoded too, and `--max-decode N` at most N bytes encoded
/// (see [`crate::engines::Declaration`]). An answer longer than a limit that
/// binds it is a finding: a write past a fixed buffer, as in OpenSSL 3.0.6
/// (CVE-2022-3602). A built-in library that only limits what it is given
/// (ICU takes at most 2,000 bytes to decode, and answers up to 1,999 code
/// points, beyond its 1,000-unit encoding limit) binds neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoundAnswers {
    /// `max_encode_input` also bounds the code points it decodes.
    pub decoded: bool,
    /// `max_decode_input` also bounds the bytes it encodes.
    pub encoded: bool,
}

/// A documented departure from RFC 3492 of one implementation.
#[derive(Clone, Copy, Debug)]
pub struct Deviation {
    /// A short name.
    pub id: &'static str,
    /// What it does and where that comes from (source, documentation).
    pub reason: &'static str,
    /// Whether this deviation explains `got` where the reference answered
    /// `reference` to `request`. It must be exact: anything it does not
    /// explain stays a nonconformance.
    pub explains:
        fn(request: &Request, reference: &Expected, got: &Result<Expected, EngineError>) -> bool,
}

impl PartialEq for Deviation {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Deviation {}

/// What encoding returns: Punycode bytes (ASCII for every conforming engine).
pub type EncodeResult = Result<Vec<u8>, EngineError>;
/// What decoding returns: code points with case flags (all `false` from an
/// engine without annotations).
pub type DecodeResult = Result<Decoded, EngineError>;

/// A Punycode implementation under test.
pub trait Engine: Send + Sync {
    /// The name it is selected by (`cleanroom`, `rfc-c`, `idna`, ...).
    fn name(&self) -> &str;
    /// The encoding it implements (Punycode unless it says otherwise).
    fn codec(&self) -> Codec {
        Codec::Punycode
    }
    /// How many requests it is worth running at once (more than one for an
    /// implementation that waits on something, like a process per call).
    fn workers(&self) -> usize {
        1
    }
    /// What it supports.
    fn capabilities(&self) -> Capabilities;
    /// The instant by which every answer must be in, or none: an
    /// implementation that runs outside this process stops waiting then and
    /// answers [`EngineError::Cancelled`]. In-process ones ignore it.
    fn set_deadline(&self, _deadline: Option<std::time::Instant>) {}
    /// Encodes code points; `case_flags` (one per code point) only for engines
    /// that declare annotations.
    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult;
    /// Decodes Punycode text.
    fn decode(&self, input: &[u8]) -> DecodeResult;
    /// Encodes each of `inputs` without case flags, in order: one answer
    /// per input, as [`Engine::encode`] gives it. A program behind a pipe
    /// keeps many of them in flight at once ([`Pipe`]); the others are
    /// asked one by one. The sweep of every code point asks so
    /// ([`crate::harness::sweep`]).
    fn encode_many(&self, inputs: &[Vec<u32>]) -> Vec<EncodeResult> {
        inputs
            .iter()
            .map(|input| self.encode(input, None))
            .collect()
    }
    /// Decodes each of `inputs`, in order, as [`Engine::encode_many`]
    /// encodes.
    fn decode_many(&self, inputs: &[Vec<u8>]) -> Vec<DecodeResult> {
        inputs.iter().map(|input| self.decode(input)).collect()
    }
    /// Its other entry points, which must answer every question as it
    /// does ([`EntryPoints`]); none for most.
    fn entry_points(&self) -> &[EntryPoint] {
        &[]
    }
}

/// Every Punycode implementation built into punycheck, the reference first.
pub fn builtin() -> Vec<Box<dyn Engine>> {
    builtin_for(Codec::Punycode)
}

/// Every implementation of `codec` built into punycheck, its reference
/// first (the one whose answers the others are judged against).
pub fn builtin_for(codec: Codec) -> Vec<Box<dyn Engine>> {
    match codec {
        Codec::Punycode => {
            let mut all: Vec<Box<dyn Engine>> =
                vec![Box::new(RfcC), Box::new(CleanRoom), Box::new(Idna)];
            #[cfg(punycheck_libidn2)]
            all.push(Box::new(Libidn2));
            #[cfg(punycheck_icu)]
            all.push(Box::new(Icu));
            all.push(Box::new(Bootstring::punycode()));
            all.push(Box::new(AmcCAsPunycode));
            all
        }
        Codec::AmcAceZ => vec![Box::new(AmcC), Box::new(Bootstring::amc_ace_z())],
        Codec::Lace => vec![Box::new(LaceCleanRoom)],
        Codec::Utf8 => vec![Box::new(Utf8CleanRoom), Box::new(StdUtf8)],
        Codec::Label(profile) => builtin::label_builtin(profile),
        Codec::Domain(profile) => builtin::domain_builtin(profile),
    }
}

/// A built-in implementation that this build of punycheck lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The name it would be selected by.
    pub name: &'static str,
    /// Why it is not here, and how to get it.
    pub why: &'static str,
}

/// Why this build lacks libidn2's built-ins, `None` when it has them:
/// built without the cargo feature `libidn2`, or with it where the build
/// script did not find the library (its cargo warning said so).
fn libidn2_missing() -> Option<&'static str> {
    if cfg!(punycheck_libidn2) {
        return None;
    }
    Some(match option_env!("PUNYCHECK_LIBIDN2_LEFT_OUT") {
        Some(why) => why,
        None => {
            "built without the cargo feature `libidn2` (needs libidn2-dev and pkg-config; it is a default feature)"
        }
    })
}

/// [`libidn2_missing`] for ICU.
fn icu_missing() -> Option<&'static str> {
    if cfg!(punycheck_icu) {
        return None;
    }
    Some(match option_env!("PUNYCHECK_ICU_LEFT_OUT") {
        Some(why) => why,
        None => {
            "built without the cargo feature `icu` (needs libicu-dev and pkg-config; it is a default feature)"
        }
    })
}

/// The built-in implementations of `codec` that this build lacks: the
/// system libraries are behind cargo features (`libidn2`, `icu`, both on by
/// default), and a build with a feature whose library is not installed
/// leaves it out (with a cargo warning), so that punycheck builds on a
/// machine without them.
pub fn missing_for(codec: Codec) -> Vec<Missing> {
    let mut missing = Vec::new();
    let mut lacks = |name: &'static str, why: Option<&'static str>| {
        if let Some(why) = why {
            missing.push(Missing { name, why });
        }
    };
    if let Some(profile) = codec.label_profile() {
        if profile.rules == crate::label::LabelRules::Uts46 && !profile.switches.uts46_defaults() {
            lacks(
                "idna",
                Some(
                    "the idna crate's UTS #46 is not called with CheckBidi, CheckJoiners, Transitional_Processing or IgnoreInvalidPunycode other than their defaults (idna 1.1.0, src/uts46.rs: Uts46::to_ascii takes an AsciiDenyList, Hyphens and DnsLength only)",
                ),
            );
            if cfg!(punycheck_icu) {
                lacks(
                    "icu",
                    Some(
                        "ICU's uidna is called by punycheck with CheckBidi, CheckJoiners and Nontransitional Processing fixed (crates/punycheck/csrc/icu_punycode_shim.c, punycheck_icu_label), and has no IgnoreInvalidPunycode",
                    ),
                );
            }
        }
        if profile.rules == crate::label::LabelRules::Uts46 {
            lacks("icu", icu_missing());
        }
        if profile.rules == crate::label::LabelRules::Idna2008 {
            lacks("libidn2", libidn2_missing());
        }
    } else if codec == Codec::Punycode {
        lacks("libidn2", libidn2_missing());
        lacks("icu", icu_missing());
    }
    missing
}

/// Whether this build has the cargo feature of a built-in it lacks (the
/// feature is on, the system library was not found): a test of it is then
/// skipped saying so, where without the feature it is not expected.
pub fn left_out(name: &str) -> bool {
    match name {
        "libidn2" => option_env!("PUNYCHECK_LIBIDN2_LEFT_OUT").is_some(),
        "icu" => option_env!("PUNYCHECK_ICU_LEFT_OUT").is_some(),
        _ => false,
    }
}

/// The reference implementation of `codec`.
pub fn reference_for(codec: Codec) -> Option<Box<dyn Engine>> {
    builtin_for(codec).into_iter().next()
}

/// The names of the built-in implementations of `codec`.
pub fn builtin_names_for(codec: Codec) -> Vec<String> {
    builtin_for(codec)
        .iter()
        .map(|e| e.name().to_string())
        .collect()
}

/// The names of the built-in Punycode implementations.
pub fn builtin_names() -> Vec<String> {
    builtin_names_for(Codec::Punycode)
}

/// Looks up a built-in implementation of `codec` by name.
pub fn by_name(codec: Codec, name: &str) -> Option<Box<dyn Engine>> {
    builtin_for(codec).into_iter().find(|e| e.name() == name)
}

/// Checks a request against an engine's declared capabilities, before
/// running it: `Err` gives the divergence class and the reason it cannot be
/// asked.
pub fn check_supported(
    caps: &Capabilities,
    encode_input: Option<(&[u32], bool)>,
    decode_input: Option<&[u8]>,
) -> Result<(), (Class, String)> {
    if let Some((input, flags)) = encode_input {
        if !caps.directions.encodes() {
            return Err((
                Class::Direction,
                "it only decodes (declared --decode-only)".into(),
            ));
        }
        if flags && !caps.annotations {
            return Err((
                Class::Annotations,
                "needs Appendix A annotations, which it does not support".into(),
            ));
        }
        if input.iter().any(|&cp| !caps.domain.contains(cp)) {
            return Err((
                Class::Domain,
                format!(
                    "a code point is outside its domain ({})",
                    caps.domain.meaning()
                ),
            ));
        }
        if matches!(
            caps.punycode_input,
            PunycodeInput::PrintableLine | PunycodeInput::LabelLine | PunycodeInput::NameLine
        ) && input.iter().any(|&cp| cp < 0x20 || cp == 0x7F)
        {
            return Err((
                Class::InputForm,
                "a basic control code point cannot cross its printable-ASCII channel".into(),
            ));
        }
        if let Some(limit) = caps.max_encode_input.filter(|&l| input.len() > l) {
            return Err((
                Class::LengthLimit,
                format!("{} code points exceed its limit of {limit}", input.len()),
            ));
        }
    }
    if let Some(input) = decode_input {
        if !caps.directions.decodes() {
            return Err((
                Class::Direction,
                "it only encodes (declared --encode-only)".into(),
            ));
        }
        if caps.punycode_input == PunycodeInput::Utf8 && std::str::from_utf8(input).is_err() {
            return Err((
                Class::InputForm,
                "input is not UTF-8 and it only takes text".into(),
            ));
        }
        if caps.punycode_input == PunycodeInput::PrintableLine
            && !input.iter().all(|&b| (0x20..0x7F).contains(&b))
        {
            return Err((
                Class::InputForm,
                "input is not printable ASCII, which is all its channel carries".into(),
            ));
        }
        if matches!(
            caps.punycode_input,
            PunycodeInput::Name | PunycodeInput::NameLine
        ) && std::str::from_utf8(input).is_err()
        {
            return Err((
                Class::InputForm,
                "input is not UTF-8, so not a domain name's code points".into(),
            ));
        }
        if caps.punycode_input == PunycodeInput::LabelText && std::str::from_utf8(input).is_err() {
            return Err((
                Class::InputForm,
                "input is not UTF-8, which is all a label question carries".into(),
            ));
        }
        if matches!(
            caps.punycode_input,
            PunycodeInput::LabelLine | PunycodeInput::LabelText
        ) {
            if caps.punycode_input == PunycodeInput::LabelLine
                && !std::str::from_utf8(input).is_ok_and(|text| !text.chars().any(char::is_control))
            {
                return Err((
                    Class::InputForm,
                    "input is not one line of text, which is all a label question carries".into(),
                ));
            }
            if !crate::label::has_ace_prefix(input) {
                return Err((
                    Class::InputForm,
                    "no ACE prefix: a plain label, which the label codec does not ask to decode"
                        .into(),
                ));
            }
        }
        if let Some(limit) = caps.max_decode_input.filter(|&l| input.len() > l) {
            return Err((
                Class::LengthLimit,
                format!("{} bytes exceed its limit of {limit}", input.len()),
            ));
        }
    }
    Ok(())
}
