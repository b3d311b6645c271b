//! Findings grouped by cause: each nonconformance is reported once, with how
//! often it was seen, its shortest reproducer, and a second answer that
//! confirms it.
//!
//! A cause is keyed by what went wrong, not by the input that showed it:
//! the direction; the [`Kind`] (crash, hang, accepting what the reference
//! rejects, a different output, ...); what the reference answered (success,
//! or the RFC error with its reason or overflow check, from the clean-room
//! code, which equals the C reference); and what the implementation
//! answered, in the same terms. Every observation of a key, from a vector
//! or a generated question, counts towards one cause, and its shortest
//! request is kept.
//!
//! Each cause is then minimized (length first: chunks, then single
//! elements; for a decoding the reference accepts, first through the code
//! points it decodes to) within an attempt budget, which makes the result
//! the same for the same seed, and a time cap, which bounds a slow program
//! (none when the run is bounded by its question count, so that the same
//! seed gives the same reproducers on a loaded machine too).
//! The minimized request is asked again: a cause is reported as confirmed
//! only when both answers agree, and as flaky, with both answers, when they
//! do not.
//!
//! # Size
//!
//! Over 800 lines: keying, grouping, minimizing and confirming are one
//! pipeline over private types (`Group`, `Now`), and whether a candidate
//! "still shows the cause" is the key itself, so they stay together; a
//! third of the file is the unit tests of the keys (kinds, domains,
//! declared limits, crash signatures).

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::compare::{
    BeyondOwnLimit, UNDECLARED_LIMIT, Verdict, ask, askable, evaluate, is_refusal, reference_for,
};
use super::limit_hint;
use super::minimize::{Budget, minimize};
use super::properties::{self, Property, Violation};
use crate::codec::Codec;
use crate::engines::{Capabilities, Engine, EngineError};
use crate::punycode::{self, BadInputReason};
use crate::vocabulary::excerpt::without_lengths;
use crate::vocabulary::{Expected, Request, excerpt};

mod refusals;

/// What kind of nonconformance, most severe first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// It died (signal, uncaught exception or panic, sanitizer report).
    Crash,
    /// It gave no answer, even with a longer time limit.
    Hang,
    /// It held more resident memory than the limit (`--memory-limit`) and
    /// was killed.
    Memory,
    /// It answered (rightly or not) an input inside its declared domain
    /// and limits only after more than the cost budget, twice
    /// ([`super::cost`]).
    Slow,
    /// It answered outside the protocol (garbage, an impossible status).
    Broken,
    /// It answered more than its own declared limit allows (code points
    /// decoded beyond `--max-encode`, bytes encoded beyond `--max-decode`),
    /// whatever the reference answered: a write past a fixed buffer?
    BeyondOwnLimit,
    /// It accepted what the reference rejects.
    AcceptsInvalid,
    /// It returned another result where the reference's lies outside the
    /// domain it declares (which it must refuse): a different answer
    /// passed off as a decoding, such as surrogates re-paired.
    ReplacesOutsideDomain,
    /// Two different strings decode to the same result.
    Uniqueness,
    /// It succeeded with another result than the reference's.
    WrongOutput,
    /// Its own round trip does not give back what went in.
    RoundTrip,
    /// Two spellings of one name (another separator, letter case,
    /// fullwidth letters) get different answers.
    Spellings,
    /// Two entry points of one implementation (`--entry-point`) answer one
    /// question differently.
    EntryPoints,
    /// It returned the reference's result, which lies outside the domain
    /// it declares (so it must refuse it).
    OutsideDomain,
    /// It rejected what the reference accepts.
    RejectsValid,
    /// It failed with another error kind than the reference's.
    WrongErrorKind,
}

impl Kind {
    /// Its name in reports and baselines.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Crash => "crash",
            Kind::Hang => "hang",
            Kind::Memory => "memory",
            Kind::Slow => "slow",
            Kind::Broken => "broken answer",
            Kind::BeyondOwnLimit => {
                "answered beyond its own declared limit: a write past a fixed buffer?"
            }
            Kind::AcceptsInvalid => "accepts what the reference rejects",
            Kind::ReplacesOutsideDomain => {
                "returns another result where the reference's is outside its declared domain"
            }
            Kind::Uniqueness => "uniqueness broken",
            Kind::WrongOutput => "different output",
            Kind::RoundTrip => "round trip broken",
            Kind::Spellings => "equivalent spellings answered differently",
            Kind::EntryPoints => "entry points answered differently",
            Kind::OutsideDomain => "returns a result outside its declared domain",
            Kind::RejectsValid => "rejects what the reference accepts",
            Kind::WrongErrorKind => "different error kind",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What groups findings into one cause.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Key {
    /// `encode` or `decode`.
    pub direction: &'static str,
    /// The kind.
    pub kind: Kind,
    /// What the reference answered, in brief (`success`, `bad_input (not a
    /// digit)`, `overflow (decode_digit)`), or the property for a property;
    /// empty for a crash, a hang or a broken answer, which are told apart
    /// by what the implementation said instead (see [`key_of`]), and for an
    /// answer beyond its own declared limit, which is one defect whatever
    /// the reference answered.
    pub reference: String,
    /// What the implementation answered, in brief.
    pub got: String,
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.reference.is_empty() {
            return write!(
                f,
                "{}: {} (implementation: {})",
                self.direction, self.kind, self.got
            );
        }
        write!(
            f,
            "{}: {} (reference: {}; implementation: {})",
            self.direction, self.kind, self.reference, self.got
        )
    }
}

/// `encode` or `decode`: the direction of `request`.
pub fn direction(request: &Request) -> &'static str {
    match request {
        Request::Encode { .. } => "encode",
        Request::Decode(_) => "decode",
    }
}

fn reason_name(reason: BadInputReason) -> &'static str {
    match reason {
        BadInputReason::NonBasicInLiteral => "non-basic before the delimiter",
        BadInputReason::NotADigit => "not a digit",
        BadInputReason::UnexpectedEnd => "ends inside a delta",
        BadInputReason::FlagsLength => "flags of another length",
        BadInputReason::NotUnicodeScalar => "not a Unicode scalar",
    }
}

/// The reference's answer in brief: for Punycode errors with the
/// clean-room code's reason or overflow check (it equals the C reference on
/// every input, error kinds included).
fn reference_brief(codec: Codec, request: &Request, reference: &Expected) -> String {
    let Expected::Error(kind) = reference else {
        return "success".into();
    };
    // A label's refusal is named by its rule: one defect per rule.
    if codec.label_profile().is_some() {
        return match crate::domain::refusal(codec, request) {
            Some(why) => format!("refused ({})", why.rule()),
            None => "refused".into(),
        };
    }
    if codec != Codec::Punycode {
        return kind.name().into();
    }
    let error = match request {
        Request::Encode { code_points, flags } => {
            punycode::encode(code_points, flags.as_deref()).err()
        }
        Request::Decode(bytes) => punycode::decode(bytes).err(),
    };
    match error {
        Some(punycode::Error::BadInput { reason, .. }) => {
            format!("{} ({})", kind.name(), reason_name(reason))
        }
        Some(punycode::Error::Overflow { check, .. }) => {
            format!("{} ({})", kind.name(), check.name())
        }
        _ => kind.name().into(),
    }
}

/// The implementation's answer in brief.
fn got_brief(got: &Result<Expected, EngineError>) -> String {
    match got {
        Ok(Expected::Error(kind)) => kind.name().into(),
        Ok(_) => "success".into(),
        // Its own words are shown in the detail, never in the key: they
        // often hold the input, and one defect must stay one cause.
        Err(EngineError::Rejected(None) | EngineError::Failed(_)) => "failure".into(),
        Err(EngineError::Rejected(Some(kind))) => kind.name().into(),
        Err(EngineError::Crashed(why) | EngineError::Broken(why)) => signature(why),
        Err(EngineError::Hung(_)) => "hang".into(),
        Err(EngineError::Memory(_)) => "over the memory limit".into(),
        Err(EngineError::Unsupported(_)) => "refused as unsupported".into(),
        Err(EngineError::Limit(_)) => "too large (a limit it does not declare)".into(),
        Err(EngineError::Cancelled) => "cancelled".into(),
    }
}

/// How glibc's messages start when it aborts a program whose heap is
/// corrupted (`malloc(): invalid next size (unsorted)` and its kin).
const GLIBC_HEAP_CHECKS: [&str; 9] = [
    "malloc(): ",
    "free(): ",
    "realloc(): ",
    "munmap_chunk(): ",
    "mremap_chunk(): ",
    "malloc_consolidate(): ",
    "double free or corruption",
    "corrupted size vs. prev_size",
    "corrupted double-linked list",
];

/// What a program writes when it reports its own crash (sanitizers, Rust
/// and Python, C's `assert`, C++'s `terminate`; and glibc's heap checks,
/// [`GLIBC_HEAP_CHECKS`]): kept in the key of a death by a signal (see
/// [`signature`]).
const CRASH_REPORTS: [&str; 7] = [
    "SUMMARY:",
    "ERROR: AddressSanitizer",
    "runtime error:",
    "panicked",
    "Fatal Python error",
    "Assertion",
    "terminate called",
];

/// What a death by SIGSEGV, SIGBUS, or SIGABRT without a crash report of
/// its own (glibc's heap checks included) is keyed by: one memory error,
/// whichever signal it met (see [`signature`]).
pub const MEMORY_ERROR: &str = "killed by a signal after a memory error (SIGSEGV, SIGBUS, or SIGABRT from glibc's heap checks: which one depends on the memory's state)";

/// What a crash with any of [`GLIBC_HEAP_CHECKS`] is keyed by.
const GLIBC_HEAP_CORRUPTION: &str =
    "a heap corruption that glibc detected (its message depends on the heap's state)";

/// How the messages about a broken answer that quote the answer start.
const QUOTES_OUTPUT: [&str; 5] = [
    "output",
    "result",
    "the answer",
    "answered",
    "an error message outside",
];

/// What identifies a crash or a broken answer: its message with the values
/// in it left out, so that one defect met by many inputs is one cause.
/// Every word holding a digit becomes `#` (values, addresses, lengths),
/// except in a path (a token with a `/`), in a source location (after `:`
/// or `line `) and in a signal number; the line number of Perl's input
/// handle (`<STDIN> line 3`, which counts the questions a `pipe:` program
/// has read) is a value. The output a broken answer quotes (the messages of
/// `exec:` and `pipe:` about an answer: [`QUOTES_OUTPUT`]) becomes `"…"`,
/// and the length of a text cut short ([`excerpt()`]) is left out, so that a
/// long answer and a short one of one defect are one cause.
pub fn signature(message: &str) -> String {
    let message = without_lengths(message);
    let message = message.as_str();
    // A death by a signal is keyed by the signal, and by what it wrote
    // only when that is a report of the crash itself ([`CRASH_REPORTS`]):
    // anything else it last wrote to stderr (an interpreter's warning about
    // memory an earlier question corrupted, in a `pipe:` program) depends
    // on what it was asked before, and stays in the detail only. And a
    // segmentation fault, a bus error and glibc's abort on a corrupted heap
    // are one memory error: which of them ends the program depends on the
    // memory's state, from run to run.
    if let Some(rest) = message.strip_prefix("killed by signal ") {
        let (number, said) = rest.split_once(": ").unwrap_or((rest, ""));
        let reported = CRASH_REPORTS.iter().any(|report| said.contains(report));
        let heap = GLIBC_HEAP_CHECKS.iter().any(|check| said.contains(check));
        if !reported && number.bytes().all(|b| b.is_ascii_digit()) {
            return match number {
                "11" | "7" | "6" => MEMORY_ERROR.to_string(),
                _ => format!("killed by signal {number}"),
            };
        }
        if heap && number == "6" {
            return MEMORY_ERROR.to_string();
        }
    }
    // glibc's heap checks: which one trips depends on the heap's state,
    // which differs from run to run; the defect is the same.
    let heap = GLIBC_HEAP_CHECKS
        .iter()
        .filter_map(|check| message.find(check))
        .min();
    let message = match heap {
        Some(at) => format!("{}{GLIBC_HEAP_CORRUPTION}", &message[..at]),
        None => message.to_string(),
    };
    let message = message.as_str();
    let mut text = String::with_capacity(message.len());
    if QUOTES_OUTPUT.iter().any(|start| message.starts_with(start)) {
        let mut quoted = false;
        let mut escaped = false;
        for c in message.chars() {
            match (quoted, c) {
                (false, '"') => {
                    quoted = true;
                    text.push_str("\"…\"");
                }
                (true, _) if escaped => escaped = false,
                (true, '\\') => escaped = true,
                (true, '"') => quoted = false,
                (true, _) => {}
                (false, c) => text.push(c),
            }
        }
    } else {
        text.push_str(message);
    }
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let mut in_path = false;
    let flush = |word: &mut String, out: &mut String, in_path: bool| {
        let location = out.ends_with(':')
            || (out.ends_with("line ") && !out.ends_with("> line "))
            || out.ends_with("signal ");
        if word.bytes().any(|b| b.is_ascii_digit()) && !location && !in_path {
            out.push('#');
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    let mut rest = text.as_str();
    while let Some(c) = rest.chars().next() {
        if out.is_empty() || out.ends_with(char::is_whitespace) {
            // A new token: a path when it holds a slash before its end.
            let token = rest.split(char::is_whitespace).next().unwrap_or("");
            in_path = token.contains('/');
        }
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out, in_path);
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    flush(&mut word, &mut out, in_path);
    out
}

/// The key of a nonconforming answer `got` to `request` by an
/// implementation that declares `caps`, where the reference answered
/// `reference`.
///
/// A crash, a hang or a broken answer is keyed by what the implementation
/// said ([`signature`]), not by what the reference answered: one defect
/// dies the same way whatever the reference would have said (a wrapped
/// integer that kills the program on valid input and on input that
/// overflows). An answer longer than the implementation's own declared
/// limit allows ([`BeyondOwnLimit`]) is keyed by that limit alone, before
/// anything else: a smaller reproducer must still be beyond it, by any
/// margin, and whether the reference succeeds there does not change the
/// defect. Every other kind keeps the reference's answer, whose reason
/// or overflow check tells apart defects that the implementation's answer
/// alone does not (a missing digit check and a missing code point check
/// both answer "success").
pub fn key_of(
    caps: &Capabilities,
    codec: Codec,
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> Key {
    let outside = match reference {
        Expected::Decoded(cps) => cps.values.iter().any(|&cp| !caps.domain.contains(cp)),
        _ => false,
    };
    let beyond = BeyondOwnLimit::of(caps, got);
    let kind = match got {
        Err(EngineError::Crashed(_)) => Kind::Crash,
        Err(EngineError::Hung(_)) => Kind::Hang,
        Err(EngineError::Memory(_)) => Kind::Memory,
        Err(EngineError::Broken(_)) => Kind::Broken,
        _ if beyond.is_some() => Kind::BeyondOwnLimit,
        g if is_refusal(g) => match reference {
            Expected::Error(_) => Kind::WrongErrorKind,
            _ => Kind::RejectsValid,
        },
        _ => match (reference, got) {
            (Expected::Error(_), _) => Kind::AcceptsInvalid,
            // Success where the reference's result lies outside the
            // declared domain: it must refuse it. Returning that very
            // result and returning another are different defects.
            (Expected::Decoded(want), Ok(Expected::Decoded(answer))) if outside => {
                if answer.values == want.values {
                    Kind::OutsideDomain
                } else {
                    Kind::ReplacesOutsideDomain
                }
            }
            _ => Kind::WrongOutput,
        },
    };
    let reference_said = match kind {
        Kind::Crash
        | Kind::Hang
        | Kind::Memory
        | Kind::Slow
        | Kind::Broken
        | Kind::BeyondOwnLimit => String::new(),
        _ if outside => "success outside its domain".into(),
        _ => reference_brief(codec, request, reference),
    };
    // Beyond its limit by one or by many is one defect: the limit names it.
    let got = match beyond {
        Some(b) => format!("more {} than its declared {}", b.unit(), b.declared()),
        None => got_brief(got),
    };
    Key {
        direction: direction(request),
        kind,
        reference: reference_said,
        got,
    }
}

impl Key {
    /// Whether the implementation, or one of its entry points
    /// ([`violation_key`]), hung: each question of it costs a time limit.
    pub fn is_hang(&self) -> bool {
        self.kind == Kind::Hang || (self.kind == Kind::EntryPoints && self.got.ends_with(": hang"))
    }

    /// What [`super::witness::explain`] reads of it.
    pub fn class(&self) -> super::witness::Class {
        super::witness::Class {
            accepts_invalid: self.kind == Kind::AcceptsInvalid,
            reference_refuses: matches!(self.kind, Kind::AcceptsInvalid | Kind::WrongErrorKind),
            says_overflow: self.got == "overflow"
                && matches!(self.kind, Kind::RejectsValid | Kind::WrongErrorKind),
            wrong_output: self.kind == Kind::WrongOutput,
        }
    }
}

/// The key of a property violation on `request`.
pub fn property_key(request: &Request, property: Property) -> Key {
    Key {
        direction: direction(request),
        kind: match property {
            Property::Uniqueness => Kind::Uniqueness,
            Property::EquivalentSpellings => Kind::Spellings,
            Property::EntryPoints => Kind::EntryPoints,
            _ => Kind::RoundTrip,
        },
        reference: property.name().into(),
        got: "violated".into(),
    }
}

/// The key of the violation `v` of a property on `request`, asked of an
/// implementation of `codec`: [`property_key`], but for two entry points
/// that disagree, what the reference answered and how the other entry
/// point's answer differs from the main one's, so that one defect of one
/// entry point is one cause.
pub fn violation_key(codec: Codec, request: &Request, v: &Violation) -> Key {
    let Some(d) = &v.entry_point else {
        return property_key(request, v.property);
    };
    let spec = &d.spec;
    let got = match &d.other {
        Err(
            EngineError::Crashed(_)
            | EngineError::Hung(_)
            | EngineError::Memory(_)
            | EngineError::Broken(_),
        ) => format!("entry point {spec}: {}", got_brief(&d.other)),
        other => match (is_refusal(&d.main), is_refusal(other)) {
            (false, true) => format!("entry point {spec} refuses what --impl accepts"),
            (true, false) => format!("entry point {spec} accepts what --impl refuses"),
            _ => format!("entry point {spec} answers another result than --impl"),
        },
    };
    Key {
        direction: direction(request),
        kind: Kind::EntryPoints,
        reference: reference_for(codec, request)
            .map(|r| reference_brief(codec, request, &r))
            .unwrap_or_default(),
        got,
    }
}

/// The length of a request: code points to encode, bytes to decode.
pub fn request_len(request: &Request) -> usize {
    match request {
        Request::Encode { code_points, .. } => code_points.len(),
        Request::Decode(bytes) => bytes.len(),
    }
}

/// The shape of a request, in words: its direction, its length, the
/// highest region of its code points or what its bytes hold.
pub fn shape(request: &Request) -> String {
    let n = request_len(request);
    let length = match n {
        0 => "empty".to_string(),
        1..=4 => "1-4".into(),
        5..=16 => "5-16".into(),
        17..=64 => "17-64".into(),
        65..=256 => "65-256".into(),
        257..=1024 => "257-1024".into(),
        1025..=4096 => "1025-4096".into(),
        _ => "over 4096".into(),
    };
    match request {
        Request::Encode { code_points, flags } => {
            let top = code_points.iter().copied().max().unwrap_or(0);
            let region = match top {
                0..=0x7F => "basic only",
                0x80..=0xFFFF => "up to the BMP",
                0x1_0000..=0x10_FFFF => "up to U+10FFFF",
                _ => "above U+10FFFF",
            };
            let flagged = if flags.is_some() { ", with flags" } else { "" };
            format!("{length} code points, {region}{flagged}")
        }
        Request::Decode(bytes) => {
            let what = if bytes.iter().any(|b| !b.is_ascii()) {
                "with non-ASCII bytes"
            } else if bytes.contains(&punycode::DELIMITER) {
                "with a delimiter"
            } else {
                "no delimiter"
            };
            format!("{length} bytes, {what}")
        }
    }
}

/// Whether the second answer confirmed the first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Confirmation {
    /// Asked again, it answered the same.
    Confirmed,
    /// Asked again, it answered differently: both answers.
    Flaky {
        /// The first answer.
        first: String,
        /// The second.
        second: String,
    },
    /// No time was left to ask again.
    Unconfirmed,
}

/// One cause, as reported.
#[derive(Clone, Debug, Serialize)]
pub struct Cause {
    /// What groups its findings.
    pub key: Key,
    /// The shape of its reproducer.
    pub shape: String,
    /// How many answers showed it (vectors and generated questions).
    pub count: u64,
    /// The vectors that showed it.
    pub vectors: Vec<String>,
    /// The property it breaks, for a property cause.
    #[serde(skip)]
    pub property: Option<Property>,
    /// The reproducer: the shortest request found, minimized.
    #[serde(skip)]
    pub request: Request,
    /// The reproducer, written compactly.
    pub input: String,
    /// What is wrong on the reproducer, in full.
    pub detail: String,
    /// The shortest request seen before minimization, written compactly.
    pub original: String,
    /// Whether asking again gave the same answer.
    pub confirmation: Confirmation,
    /// What explains its observations beyond the key
    /// ([`super::witness::explain`]), each once, sorted: what a baseline
    /// records of it.
    pub explanations: Vec<String>,
    /// Each explanation with the shortest question that showed it, as
    /// seen (not minimized): a wrong output of several rules is several
    /// defects under one key, and each gets a reproducer of its own in the
    /// report (Addressable's `ü` U+007F left unencoded beside its U+00A0
    /// encoded as `xn-- -`).
    #[serde(skip)]
    pub by_rule: Vec<(String, Request)>,
    /// Why it is new although a baseline records its class: set only on a
    /// cause split from a known one ([`Collector::witnessed`]).
    pub beside: Option<String>,
    /// For a cause of [`Kind::EntryPoints`], the spec of the entry point
    /// that answered otherwise, which its reproducer names.
    pub entry_point: Option<String>,
    /// For a cause the sweep of every code point found
    /// ([`super::sweep`]), the code points and contexts that showed it;
    /// `None` for every other.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swept: Option<super::swept::Swept>,
}

/// One group of observations, before it is minimized.
#[derive(Clone, Debug)]
struct Group {
    count: u64,
    vectors: Vec<String>,
    shortest: Request,
    detail: String,
    property: Option<Property>,
    first_seen: usize,
    /// Each explanation seen, with its shortest observation.
    explained: BTreeMap<String, Seen>,
    /// The named questions (vectors, small cases) that showed it.
    named: Vec<Named>,
    /// The entry point that answered otherwise, for a cause of entry
    /// points.
    entry_point: Option<String>,
    /// For a refusal of valid input, the refusals to minimize
    /// ([`refusals`]).
    samples: Vec<refusals::Sample>,
    /// How many refusals no named question asked, by length class.
    classes: BTreeMap<u32, u64>,
    /// Its reproducer, when it is minimized already (a refusal split by
    /// its minimized question).
    minimized: Option<Request>,
}

/// The observations of one explanation in a group.
#[derive(Clone, Debug)]
struct Seen {
    count: u64,
    shortest: Request,
    detail: String,
}

/// A named question that showed a cause.
#[derive(Clone, Debug)]
struct Named {
    name: String,
    explanation: String,
    request: Request,
    detail: String,
}

/// What a baseline's causes of one key were witnessed by when it was
/// recorded: the named questions that showed them, and the explanations.
#[derive(Clone, Debug, Default)]
pub struct Witnessed {
    /// Vectors and small cases, by name.
    pub names: std::collections::BTreeSet<String>,
    /// Explanations ([`super::witness::explain`]).
    pub explanations: std::collections::BTreeSet<String>,
}

/// Observations grouped by key.
#[derive(Clone, Debug, Default)]
pub struct Collector {
    groups: BTreeMap<Key, Group>,
    /// Causes accepted beforehand (a baseline's): not minimized.
    accepted: Vec<Key>,
    /// The codec observed, whose reference explains observations; none:
    /// every explanation is empty.
    codec: Option<Codec>,
    /// The witnesses of the accepted keys that a baseline records them
    /// with: an observation outside them is a new cause.
    witnesses: BTreeMap<Key, Witnessed>,
    /// Whether the run records a baseline: its refusals are minimized
    /// more widely ([`refusals`]), so that the gate's are among them.
    recording: bool,
}

impl Collector {
    /// A collector for which the causes with these keys are accepted
    /// beforehand (a baseline's): they are confirmed but not minimized,
    /// since nobody needs a smaller reproducer of a known deviation, and a
    /// CI gate should not spend its time on one.
    pub fn accepting(accepted: Vec<Key>) -> Self {
        Collector {
            accepted,
            ..Collector::default()
        }
    }

    /// The same collector, explaining its observations by `codec`'s
    /// reference, with the witnesses a baseline records for some of its
    /// accepted keys: an observation of such a key is known only when the
    /// question is one of the witnesses' names, or (for a generated one)
    /// its explanation is one of theirs. Anything else is resolved as a
    /// cause of its own beside the known one ([`Cause::beside`]).
    pub fn witnessed(mut self, codec: Codec, witnesses: BTreeMap<Key, Witnessed>) -> Self {
        self.codec = Some(codec);
        self.witnesses = witnesses;
        self
    }

    /// The same collector, for a run that records a baseline: every
    /// refusal that was the shortest of its length class is minimized,
    /// not only the last ([`refusals`]).
    pub fn recording(mut self, recording: bool) -> Self {
        self.recording = recording;
        self
    }

    /// Records one nonconformance or property violation: `vector` names
    /// the vector (or small case) it came from, if any.
    pub fn observe(
        &mut self,
        key: Key,
        request: &Request,
        detail: &str,
        property: Option<Property>,
        vector: Option<&str>,
    ) {
        self.record(key, request, detail, property, vector, None, None);
    }

    /// Records one nonconformance whose answer was `answer`: a wrong
    /// output is explained by where it departs from the reference's
    /// ([`super::witness::explain`]).
    pub fn observe_answer(
        &mut self,
        key: Key,
        request: &Request,
        answer: &Result<Expected, EngineError>,
        detail: &str,
        vector: Option<&str>,
    ) {
        let words = is_refusal(answer).then(|| refusals::words(answer));
        self.record(
            key,
            request,
            detail,
            None,
            vector,
            answer.as_ref().ok(),
            words,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        key: Key,
        request: &Request,
        detail: &str,
        property: Option<Property>,
        vector: Option<&str>,
        answer: Option<&Expected>,
        words: Option<String>,
    ) {
        let explanation = match self.codec {
            Some(codec) if property.is_none() => {
                super::witness::explain(codec, key.class(), request, answer)
            }
            _ => String::new(),
        };
        let next = self.groups.len();
        let refusal = key.kind == Kind::RejectsValid && vector.is_none() && self.codec.is_some();
        let group = self.groups.entry(key).or_insert_with(|| Group {
            count: 0,
            vectors: Vec::new(),
            shortest: request.clone(),
            detail: detail.to_string(),
            property,
            first_seen: next,
            explained: BTreeMap::new(),
            named: Vec::new(),
            entry_point: None,
            samples: Vec::new(),
            classes: BTreeMap::new(),
            minimized: None,
        });
        group.count += 1;
        if refusal {
            refusals::sample(group, request, detail, words.unwrap_or_default());
        }
        if let Some(name) = vector {
            group.vectors.push(name.to_string());
            group.named.push(Named {
                name: name.to_string(),
                explanation: explanation.clone(),
                request: request.clone(),
                detail: detail.to_string(),
            });
        }
        if request_len(request) < request_len(&group.shortest) {
            group.shortest = request.clone();
            group.detail = detail.to_string();
        }
        let seen = group.explained.entry(explanation).or_insert_with(|| Seen {
            count: 0,
            shortest: request.clone(),
            detail: detail.to_string(),
        });
        seen.count += 1;
        if request_len(request) < request_len(&seen.shortest) {
            seen.shortest = request.clone();
            seen.detail = detail.to_string();
        }
    }

    /// Records a property violation: [`Collector::observe`] with its key
    /// ([`violation_key`]), and for entry points that disagree, which one.
    pub fn observe_violation(
        &mut self,
        codec: Codec,
        request: &Request,
        v: &Violation,
        vector: Option<&str>,
    ) {
        let key = violation_key(codec, request, v);
        self.observe(key.clone(), request, &v.detail, Some(v.property), vector);
        if let (Some(group), Some(d)) = (self.groups.get_mut(&key), &v.entry_point) {
            group.entry_point.get_or_insert_with(|| d.spec.clone());
        }
    }

    /// How many causes so far.
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether nothing was observed.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Minimizes and confirms every cause, most severe first, sharing
    /// what is left until `deadline` among them; each minimization takes
    /// at most `cap` and `attempts` questions, and only the first
    /// `minimized` causes that were not accepted beforehand are minimized.
    /// Causes left when time runs out are reported with their shortest
    /// request as it was found.
    pub fn resolve(
        self,
        engine: &dyn Engine,
        deadline: Instant,
        cap: Duration,
        attempts: usize,
        minimized: usize,
    ) -> Vec<Cause> {
        let mut groups: Vec<(Key, Group, Option<Beside>)> = Vec::new();
        for (key, group) in self.groups {
            // Refusals of valid input are told apart by what they
            // minimize to, with or without a baseline.
            let parts = if self.codec.is_some() && refusals::applies(&key, &group) {
                refusals::split(engine, &key, group, self.recording, deadline)
            } else {
                vec![group]
            };
            for group in parts {
                match self.witnesses.get(&key) {
                    Some(witnessed) if key.kind != Kind::Slow => {
                        let (known, new) = split(group, witnessed);
                        groups.extend(known.map(|g| (key.clone(), g, None)));
                        groups.extend(new.into_iter().map(|(g, b)| (key.clone(), g, Some(b))));
                    }
                    _ => groups.push((key.clone(), group, None)),
                }
            }
        }
        groups.sort_by_key(|(key, group, _)| (key.kind, group.first_seen));
        let total = groups.len();
        let mut causes = Vec::with_capacity(total);
        let mut left = minimized;
        for (k, (key, group, beside)) in groups.into_iter().enumerate() {
            let now = Instant::now();
            let share = deadline.saturating_duration_since(now)
                / u32::try_from(total - k).unwrap_or(u32::MAX);
            // A known cause is not minimized; a new one beside it only
            // when its explanation is new, keeping that explanation (a
            // named question that newly shows a known explanation is its
            // own reproducer).
            let minimize = left > 0
                && group.minimized.is_none()
                && match &beside {
                    None => !self.accepted.contains(&key),
                    Some(b) => b.new_explanation,
                };
            left -= usize::from(minimize);
            let budget = Budget {
                attempts: if minimize { attempts } else { 0 },
                deadline: now + share.min(cap),
            };
            let keep = match (&beside, self.codec) {
                (Some(b), Some(codec)) if group.minimized.is_none() => {
                    Some((codec, b.explanation.clone()))
                }
                _ => None,
            };
            let mut cause = resolve_one(engine, key, group, budget, keep);
            cause.beside = beside.map(|b| b.why);
            causes.push(cause);
        }
        causes
    }
}

/// Why a part of a known cause's observations is a cause of its own.
#[derive(Clone, Debug)]
struct Beside {
    /// Its explanation.
    explanation: String,
    /// Whether the baseline's witnesses lack that explanation (otherwise
    /// only named questions it did not record show it).
    new_explanation: bool,
    /// In words, for the report.
    why: String,
}

/// Splits the observations of a key that a baseline records with
/// `witnessed` into the known ones (a group, unless there are none) and a
/// group for each explanation that is new, or shown by named questions
/// the baseline does not record.
fn split(group: Group, witnessed: &Witnessed) -> (Option<Group>, Vec<(Group, Beside)>) {
    let listed = |set: &std::collections::BTreeSet<String>| {
        let shown: Vec<String> = set
            .iter()
            .map(|e| {
                if e.is_empty() {
                    "the class alone".into()
                } else {
                    e.clone()
                }
            })
            .collect();
        if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join("; ")
        }
    };
    let new_names: Vec<&Named> = group
        .named
        .iter()
        .filter(|n| !witnessed.names.contains(&n.name))
        .collect();
    let recorded = |e: &str| super::witness::covers(&witnessed.explanations, e);
    let mut explanations: Vec<&String> = group.explained.keys().filter(|e| !recorded(e)).collect();
    for named in &new_names {
        if !explanations.contains(&&named.explanation) {
            explanations.push(&named.explanation);
        }
    }
    let mut new = Vec::new();
    let mut taken = 0;
    let mut taken_names = Vec::new();
    for explanation in explanations {
        let new_explanation = !recorded(explanation);
        let named: Vec<&Named> = group
            .named
            .iter()
            .filter(|n| {
                &n.explanation == explanation
                    && (new_explanation || !witnessed.names.contains(&n.name))
            })
            .collect();
        let (count, shortest, detail) = match group.explained.get(explanation) {
            Some(seen) if new_explanation => {
                (seen.count, seen.shortest.clone(), seen.detail.clone())
            }
            _ => {
                let first = named
                    .iter()
                    .min_by_key(|n| request_len(&n.request))
                    .expect("a named question shows it");
                (
                    named.len() as u64,
                    first.request.clone(),
                    first.detail.clone(),
                )
            }
        };
        taken += count;
        taken_names.extend(named.iter().map(|n| n.name.clone()));
        let why = if new_explanation {
            let what = if explanation.is_empty() {
                "the class alone"
            } else {
                explanation
            };
            format!(
                "new beside a known cause of the same class: {what}, where the baseline's witnesses show {}",
                listed(&witnessed.explanations)
            )
        } else {
            let names: Vec<&str> = named.iter().map(|n| n.name.as_str()).collect();
            format!(
                "new beside a known cause of the same class: {} now show it, which the baseline does not record (it records {})",
                names.join(", "),
                listed(&witnessed.names)
            )
        };
        let seen = Seen {
            count,
            shortest: shortest.clone(),
            detail: detail.clone(),
        };
        new.push((
            Group {
                count,
                vectors: named.iter().map(|n| n.name.clone()).collect(),
                shortest,
                detail,
                property: group.property,
                first_seen: group.first_seen,
                explained: BTreeMap::from([(explanation.clone(), seen)]),
                named: Vec::new(),
                entry_point: group.entry_point.clone(),
                samples: Vec::new(),
                classes: BTreeMap::new(),
                minimized: group.minimized.clone(),
            },
            Beside {
                explanation: explanation.clone(),
                new_explanation,
                why,
            },
        ));
    }
    if new.is_empty() {
        return (Some(group), new);
    }
    // What is left is known: its shortest observation of a known
    // explanation, and the named questions not taken.
    let known: BTreeMap<String, Seen> = group
        .explained
        .into_iter()
        .filter(|(e, _)| recorded(e))
        .collect();
    let count = group.count.saturating_sub(taken);
    let Some(shortest) = known.values().min_by_key(|s| request_len(&s.shortest)) else {
        return (None, new);
    };
    if count == 0 {
        return (None, new);
    }
    let (shortest, detail) = (shortest.shortest.clone(), shortest.detail.clone());
    let vectors = group
        .vectors
        .into_iter()
        .filter(|name| !taken_names.contains(name))
        .collect();
    let known = Group {
        count,
        vectors,
        shortest,
        detail,
        property: group.property,
        first_seen: group.first_seen,
        explained: known,
        named: Vec::new(),
        entry_point: group.entry_point,
        samples: Vec::new(),
        classes: BTreeMap::new(),
        minimized: group.minimized,
    };
    (Some(known), new)
}

/// Whether `candidate` still shows the cause `key`.
fn shows(engine: &dyn Engine, key: &Key, property: Option<Property>, candidate: &Request) -> bool {
    showing(engine, key, property, candidate).is_some()
}

/// The answer of `engine` to `candidate` where it shows the cause of
/// `key` (see [`shows`]).
fn showing(
    engine: &dyn Engine,
    key: &Key,
    property: Option<Property>,
    candidate: &Request,
) -> Option<Result<Expected, EngineError>> {
    if !askable(engine, candidate) {
        return None;
    }
    let answer = ask(engine, candidate);
    let codec = engine.codec();
    // Entry points disagree whatever the reference says: it is not asked.
    if property == Some(Property::EntryPoints) {
        return properties::check_entry_points(engine, candidate, &answer)
            .is_some_and(|v| violation_key(codec, candidate, &v) == *key)
            .then_some(answer);
    }
    // A property is checked where the answer conforms, as the campaign
    // checks it: a candidate the reference disputes shows another cause.
    let caps = engine.capabilities();
    let judged = reference_for(engine.codec(), candidate).map(|reference| {
        let verdict = evaluate(&caps, engine.codec(), candidate, &reference, &answer, true);
        (reference, verdict)
    });
    let nonconforming = matches!(&judged, Some((_, Verdict::Nonconformance(_))));
    let shown = match (property, &judged) {
        (Some(p), _) => {
            !nonconforming
                && properties::check_all(engine, candidate, &answer, true)
                    .is_some_and(|v| violation_key(codec, candidate, &v) == *key && v.property == p)
        }
        (None, Some((reference, _))) => {
            nonconforming && key_of(&caps, engine.codec(), candidate, reference, &answer) == *key
        }
        (None, None) => false,
    };
    shown.then_some(answer)
}

/// What asking `request` again showed.
enum Now {
    /// The cause, with what is wrong and the answer, in full.
    Shows(String, String),
    /// Something else: the answer.
    Other(String),
    /// No answer before the run's time ran out.
    Cancelled,
}

/// Asks `request` again and says whether it shows the cause `key`.
fn describe_now(
    engine: &dyn Engine,
    key: &Key,
    property: Option<Property>,
    request: &Request,
) -> Now {
    let answer = ask(engine, request);
    if matches!(answer, Err(EngineError::Cancelled)) {
        return Now::Cancelled;
    }
    let shown = super::compare::describe(&answer);
    if let Some(property) = property {
        let violation = if property == Property::EntryPoints {
            properties::check_entry_points(engine, request, &answer)
        } else {
            properties::check_all(engine, request, &answer, true)
        };
        return match violation {
            Some(v) if violation_key(engine.codec(), request, &v) == *key => {
                Now::Shows(v.detail, shown)
            }
            _ => Now::Other(shown),
        };
    }
    let Some(reference) = reference_for(engine.codec(), request) else {
        return Now::Other(shown);
    };
    match evaluate(
        &engine.capabilities(),
        engine.codec(),
        request,
        &reference,
        &answer,
        true,
    ) {
        Verdict::Nonconformance(detail)
            if key_of(
                &engine.capabilities(),
                engine.codec(),
                request,
                &reference,
                &answer,
            ) == *key =>
        {
            Now::Shows(detail, shown)
        }
        _ => Now::Other(shown),
    }
}

/// Asks `request` twice (a hang once): the cause is confirmed when both
/// answers show it and are the same. When it is not, what is wrong on one answer that
/// showed it comes with the confirmation, if one did.
pub(crate) fn confirm(
    engine: &dyn Engine,
    key: &Key,
    property: Option<Property>,
    request: &Request,
) -> Result<String, (Confirmation, Option<String>)> {
    let first = describe_now(engine, key, property, request);
    // A hang has already met its time limit twice when it was seen: asked
    // once more, it is confirmed or not, at the cost of one more wait.
    if key.is_hang() {
        return match first {
            Now::Shows(detail, _) => Ok(detail),
            Now::Cancelled => Err((Confirmation::Unconfirmed, None)),
            Now::Other(shown) => Err((
                Confirmation::Flaky {
                    first: "no answer".into(),
                    second: format!("{} (not this cause)", excerpt(&shown)),
                },
                None,
            )),
        };
    }
    let second = describe_now(engine, key, property, request);
    // The answers are compared whole, and shown bounded.
    let answer = |now: &Now| match now {
        Now::Shows(_, shown) => excerpt(shown),
        Now::Other(shown) => format!("{} (not this cause)", excerpt(shown)),
        Now::Cancelled => "no answer".into(),
    };
    let shown = [&first, &second].into_iter().find_map(|now| match now {
        Now::Shows(detail, _) => Some(detail.clone()),
        _ => None,
    });
    match (&first, &second) {
        (Now::Cancelled, _) | (_, Now::Cancelled) => Err((Confirmation::Unconfirmed, shown)),
        (Now::Shows(detail, a), Now::Shows(_, b)) if a == b => Ok(detail.clone()),
        _ => Err((
            Confirmation::Flaky {
                first: answer(&first),
                second: answer(&second),
            },
            shown,
        )),
    }
}

/// For a decoding the reference accepts: the smallest code points whose
/// reference encoding still shows the cause, as that encoding.
fn minimize_through_code_points(
    engine: &dyn Engine,
    shows: &dyn Fn(&Request) -> bool,
    request: &Request,
    budget: Budget,
) -> Option<Request> {
    if engine.codec() != Codec::Punycode {
        return None;
    }
    let Request::Decode(bytes) = request else {
        return None;
    };
    let decoded = crate::c_reference::decode(bytes).ok()?;
    let as_encode = Request::Encode {
        code_points: decoded.code_points.clone(),
        flags: Some(decoded.flags.to_vec()),
    };
    let encoded = |r: &Request| match r {
        Request::Encode { code_points, flags } => {
            crate::c_reference::encode(code_points, flags.as_deref())
                .ok()
                .map(Request::Decode)
        }
        Request::Decode(_) => None,
    };
    // Only when the reference's own encoding is this input (up to case),
    // so that the search starts from the failing request itself.
    let start = encoded(&as_encode)?;
    if !shows(&start) {
        return None;
    }
    let small = minimize(
        &as_encode,
        &mut |c| encoded(c).is_some_and(|r| shows(&r)),
        budget,
    );
    encoded(&small)
}

fn resolve_one(
    engine: &dyn Engine,
    key: Key,
    group: Group,
    budget: Budget,
    keep: Option<(Codec, String)>,
) -> Cause {
    let Group {
        count,
        vectors,
        shortest,
        detail,
        property,
        explained,
        entry_point,
        minimized,
        ..
    } = group;
    // A cause new beside a known one of its class keeps its explanation
    // while it is minimized, so that it never shrinks into the known one.
    let shows = |c: &Request| match &keep {
        None => shows(engine, &key, property, c),
        Some((codec, e)) => showing(engine, &key, property, c).is_some_and(|answer| {
            &super::witness::explain(*codec, key.class(), c, answer.as_ref().ok()) == e
        }),
    };
    // A hang (of an entry point too) costs a time limit per question: it
    // is not minimized. The minimization leaves a third of its share for
    // confirming.
    let mut best = minimized.clone().unwrap_or_else(|| shortest.clone());
    let now = Instant::now();
    let budget = Budget {
        attempts: budget.attempts,
        deadline: now + budget.deadline.saturating_duration_since(now).mul_f64(0.66),
    };
    if !key.is_hang() && minimized.is_none() {
        let half = Budget {
            attempts: budget.attempts / 2,
            deadline: Instant::now()
                + budget.deadline.saturating_duration_since(Instant::now()) / 2,
        };
        if let Some(smaller) = minimize_through_code_points(engine, &shows, &best, half)
            && request_len(&smaller) < request_len(&best)
        {
            best = smaller;
        }
        best = minimize(&best, &mut |c| shows(c), budget);
    }
    // Asked twice more: both must show the cause with the same answer.
    // When the minimized request does not, the shortest one found is tried.
    // Unconfirmed, the detail and the answers must still describe the
    // request reported: the minimized one when an answer to it showed the
    // cause, otherwise the shortest one seen, with the detail recorded
    // with it.
    let (request, detail, confirmation) = match confirm(engine, &key, property, &best) {
        Ok(d) => (best, d, Confirmation::Confirmed),
        Err((confirmation, shown)) => {
            let flaky = matches!(confirmation, Confirmation::Flaky { .. });
            let again =
                (flaky && best != shortest).then(|| confirm(engine, &key, property, &shortest));
            match (again, shown) {
                (Some(Ok(d)), _) => (shortest.clone(), d, Confirmation::Confirmed),
                (_, Some(d)) => (best, d, confirmation),
                (Some(Err((theirs, shown))), None) => {
                    (shortest.clone(), shown.unwrap_or(detail), theirs)
                }
                (None, None) => (shortest.clone(), detail, confirmation),
            }
        }
    };
    // A long refusal that the probes show to be a size limit says how to
    // declare it.
    // A refusal that named its limit already says to declare one; the
    // probes give the number.
    let detail = match (&key.kind, &confirmation) {
        (Kind::RejectsValid, Confirmation::Confirmed) => {
            match limit_hint::size_limit(engine, &request) {
                Some(limit) if detail.contains(UNDECLARED_LIMIT) => detail.replace(
                    UNDECLARED_LIMIT,
                    &format!(
                        "a size limit it does not declare (stopped at {} code points, not at \
                         {limit}: declare it with --max-encode {limit})",
                        limit + 1
                    ),
                ),
                Some(limit) => format!("{detail}; {}", limit_hint::hint(engine.codec(), limit)),
                None => detail,
            }
        }
        _ => detail,
    };
    Cause {
        shape: shape(&request),
        input: request.to_string(),
        original: shortest.to_string(),
        key,
        count,
        vectors,
        property,
        request,
        detail,
        confirmation,
        by_rule: explained
            .iter()
            .map(|(e, seen)| (e.clone(), seen.shortest.clone()))
            .collect(),
        explanations: explained.into_keys().collect(),
        beside: None,
        entry_point,
        swept: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::punycode::ErrorKind;
    use crate::vocabulary::CodePoints;

    #[test]
    fn kinds_follow_the_answers() {
        let decode = Request::Decode(b"a-b".to_vec());
        let ok = Expected::Decoded(CodePoints::with_flags(&[0x61], None));
        let bad = Expected::Error(ErrorKind::BadInput);
        let cases = [
            (&ok, Err(EngineError::Crashed("x".into())), Kind::Crash),
            (&ok, Err(EngineError::Hung("x".into())), Kind::Hang),
            (&ok, Err(EngineError::Rejected(None)), Kind::RejectsValid),
            (&bad, Ok(ok.clone()), Kind::AcceptsInvalid),
            (
                &ok,
                Ok(Expected::Decoded(CodePoints::with_flags(&[0x62], None))),
                Kind::WrongOutput,
            ),
            (
                &bad,
                Ok(Expected::Error(ErrorKind::Overflow)),
                Kind::WrongErrorKind,
            ),
        ];
        for (reference, got, kind) in cases {
            assert_eq!(
                key_of(&caps(), Codec::Punycode, &decode, reference, &got).kind,
                kind
            );
        }
        assert!(Kind::Crash < Kind::AcceptsInvalid && Kind::AcceptsInvalid < Kind::WrongOutput);
        assert!(Kind::WrongOutput < Kind::RejectsValid);
    }

    fn caps() -> Capabilities {
        crate::engines::CleanRoom.capabilities()
    }

    /// The JSON report's schema lists every kind, most severe first, as the
    /// reports write them (it once lacked the two domain kinds).
    #[test]
    fn the_report_schema_lists_every_kind_most_severe_first() {
        let all = [
            Kind::Crash,
            Kind::Hang,
            Kind::Memory,
            Kind::Slow,
            Kind::Broken,
            Kind::BeyondOwnLimit,
            Kind::AcceptsInvalid,
            Kind::ReplacesOutsideDomain,
            Kind::Uniqueness,
            Kind::WrongOutput,
            Kind::RoundTrip,
            Kind::Spellings,
            Kind::EntryPoints,
            Kind::OutsideDomain,
            Kind::RejectsValid,
            Kind::WrongErrorKind,
        ];
        // A new kind does not compile here until it is listed above.
        for kind in all {
            match kind {
                Kind::Crash
                | Kind::Hang
                | Kind::Memory
                | Kind::Slow
                | Kind::Broken
                | Kind::BeyondOwnLimit
                | Kind::AcceptsInvalid
                | Kind::ReplacesOutsideDomain
                | Kind::Uniqueness
                | Kind::WrongOutput
                | Kind::RoundTrip
                | Kind::Spellings
                | Kind::EntryPoints
                | Kind::OutsideDomain
                | Kind::RejectsValid
                | Kind::WrongErrorKind => {}
            }
        }
        assert!(all.is_sorted());
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../../../docs/report.schema.json")).unwrap();
        let names: Vec<serde_json::Value> = all
            .iter()
            .map(|k| serde_json::to_value(k).unwrap())
            .collect();
        assert_eq!(
            schema["$defs"]["cause"]["properties"]["kind"]["enum"],
            serde_json::Value::Array(names)
        );
    }

    /// An answer beyond the implementation's own declared limit is one
    /// cause, right after a broken answer, keyed by that limit alone: by
    /// one code point or by many, where the reference succeeds or fails,
    /// so that minimizing keeps it beyond the limit and nothing else.
    #[test]
    fn an_answer_beyond_its_own_limit_is_keyed_by_the_limit() {
        let declared = crate::engines::Declaration {
            max_encode: Some(512),
            max_decode: Some(1000),
            ..Default::default()
        }
        .apply(caps());
        let decoded = |n: usize| {
            Ok(Expected::Decoded(CodePoints::with_flags(
                &vec![0x61; n],
                None,
            )))
        };
        let decode = Request::Decode(b"a-b".to_vec());
        let ok = Expected::Decoded(CodePoints::with_flags(&[0x61; 513], None));
        let bad = Expected::Error(ErrorKind::BadInput);
        let key = key_of(&declared, Codec::Punycode, &decode, &ok, &decoded(513));
        assert_eq!(
            key.to_string(),
            "decode: answered beyond its own declared limit: a write past a fixed buffer? (implementation: more code points than its declared --max-encode 512)"
        );
        for (reference, n) in [(&ok, 600), (&bad, 513), (&bad, 4000)] {
            assert_eq!(
                key_of(&declared, Codec::Punycode, &decode, reference, &decoded(n)),
                key
            );
        }
        // At the limit it is judged as any answer: here a wrong output.
        let at = key_of(&declared, Codec::Punycode, &decode, &ok, &decoded(512));
        assert_eq!(at.kind, Kind::WrongOutput);
        // Encoding: bytes beyond --max-decode.
        let encode = Request::Encode {
            code_points: vec![0x61],
            flags: None,
        };
        let long = Ok(Expected::Encoded(vec![b'a'; 1001]));
        let key = key_of(&declared, Codec::Punycode, &encode, &bad, &long);
        assert_eq!(
            (key.kind, key.reference.as_str(), key.got.as_str()),
            (
                Kind::BeyondOwnLimit,
                "",
                "more bytes than its declared --max-decode 1000"
            )
        );
        assert!(Kind::Broken < Kind::BeyondOwnLimit && Kind::BeyondOwnLimit < Kind::AcceptsInvalid);
    }

    fn unicode() -> Capabilities {
        Capabilities {
            domain: crate::engines::CodePointDomain::UnicodeScalar,
            ..caps()
        }
    }

    /// Returning the reference's result outside the domain and returning
    /// another one are two causes, so that minimizing one cannot end on
    /// the other (Node's re-paired surrogates, `ib9b89l`, are not the lone
    /// surrogate of `zy0c` that it also returns as C does).
    #[test]
    fn outside_the_domain_the_same_result_and_another_are_two_kinds() {
        let decode = Request::Decode(b"ib9b89l".to_vec());
        let pair = Expected::Decoded(CodePoints::with_flags(&[0xD800, 0xDFFF], None));
        let repaired = Ok(Expected::Decoded(CodePoints::with_flags(&[0x103FF], None)));
        let key = key_of(&unicode(), Codec::Punycode, &decode, &pair, &repaired);
        assert_eq!(key.kind, Kind::ReplacesOutsideDomain);
        assert_eq!(key.reference, "success outside its domain");
        let same = key_of(
            &unicode(),
            Codec::Punycode,
            &decode,
            &pair,
            &Ok(pair.clone()),
        );
        assert_eq!(same.kind, Kind::OutsideDomain);
        assert_eq!(
            same.to_string(),
            "decode: returns a result outside its declared domain (reference: success outside its domain; implementation: success)"
        );
        // Inside a wider domain the surrogates are a result like any other.
        let wide = Capabilities {
            domain: crate::engines::CodePointDomain::UnicodeWithSurrogates,
            ..caps()
        };
        let key = key_of(&wide, Codec::Punycode, &decode, &pair, &repaired);
        assert_eq!(
            (key.kind, key.reference.as_str()),
            (Kind::WrongOutput, "success")
        );
    }

    /// One defect that kills the program is one cause, whatever the
    /// reference answers and whatever values its message names.
    #[test]
    fn crashes_are_keyed_by_what_the_program_said() {
        let die = |cp: &str| {
            Err(EngineError::Crashed(format!(
                "exit status 255: Use of code point {cp} is not allowed; the permissible max is 0x7FFFFFFFFFFFFFFF at adapters/perl/net_idn_punycode.pl line 68, <STDIN> chunk 1."
            )))
        };
        let ok = Expected::Decoded(CodePoints::with_flags(&[0x61], None));
        let bad = Expected::Error(ErrorKind::BadInput);
        let a = key_of(
            &caps(),
            Codec::Punycode,
            &Request::Decode(b"c705263y".to_vec()),
            &ok,
            &die("0xFFFFFFFFC6FA4E95"),
        );
        let b = key_of(
            &caps(),
            Codec::Punycode,
            &Request::Decode(b"y416146o]".to_vec()),
            &bad,
            &die("0xFFFFFFFF80000081"),
        );
        assert_eq!(a, b);
        assert_eq!(
            a.to_string(),
            "decode: crash (implementation: exit status #: Use of code point # is not allowed; the permissible max is # at adapters/perl/net_idn_punycode.pl line 68, <STDIN> chunk #.)"
        );
        // Paths stay whole.
        assert_eq!(
            signature(
                "Illegal division by zero at /usr/lib/x86_64-linux-gnu/perl5/5.36/Net/IDN/Punycode/PP.pm line 45, <STDIN> chunk 1."
            ),
            "Illegal division by zero at /usr/lib/x86_64-linux-gnu/perl5/5.36/Net/IDN/Punycode/PP.pm line 45, <STDIN> chunk #."
        );
        // A segmentation fault and glibc's heap abort are one memory error;
        // other signals, and source lines, still tell crashes apart.
        assert_eq!(signature("killed by signal 11"), MEMORY_ERROR);
        assert_eq!(signature("killed by signal 6"), MEMORY_ERROR);
        assert_ne!(
            signature("killed by signal 11"),
            signature("killed by signal 8")
        );
        assert_ne!(
            signature("thread 'main' panicked at src/lib.rs:155:9: attempt to add with overflow"),
            signature("thread 'main' panicked at src/lib.rs:90:9: attempt to add with overflow")
        );
        assert_eq!(
            signature("output contains byte 0xFF, which is not printable ASCII: \"ab-\\u{ff}\\n\""),
            signature("output contains byte 0x00, which is not printable ASCII: \"!-\\0\\n\"")
        );
        assert_eq!(
            signature("output line \"u+21FDE021ECE1B1\" is not u+XXXX or U+XXXX"),
            "output line \"…\" is not u+XXXX or U+XXXX"
        );
        // One heap corruption, whichever of glibc's checks saw it.
        assert_eq!(
            signature("killed by signal 6: malloc(): invalid next size (unsorted)"),
            signature("killed by signal 6: realloc(): invalid old size")
        );
        assert_eq!(
            signature("killed by signal 6: double free or corruption (out)"),
            MEMORY_ERROR
        );
        // glibc's heap checks outside a death by a signal keep their words.
        assert_eq!(
            signature("exit status 134: free(): invalid pointer"),
            format!("exit status #: {GLIBC_HEAP_CORRUPTION}")
        );
        // A segmentation fault after an interpreter's warning about
        // corrupted memory is the segmentation fault.
        assert_eq!(
            signature(
                "killed by signal 11: Malformed UTF-8 character: \\xc0\\x00 in ord at \
                 adapters/perl/net_idn_punycode.pl line 70, <STDIN> line 2."
            ),
            signature("killed by signal 11")
        );
        assert_eq!(signature("killed by signal 7: x"), MEMORY_ERROR);
        assert_eq!(
            signature(
                "killed by signal 6: Malformed UTF-8 character: \\xe4\\x01 in ord at a.pl line 70."
            ),
            MEMORY_ERROR
        );
        assert_eq!(signature("killed by signal 8: x"), "killed by signal 8");
        // Its own report stays: a sanitizer's, a panic's, an assertion's.
        assert_eq!(
            signature("killed by signal 6: thread 'main' panicked at src/lib.rs:9:5: boom"),
            "killed by signal 6: thread 'main' panicked at src/lib.rs:9:5: boom"
        );
        assert_eq!(
            signature("killed by signal 6: a.out: x.c:3: f: Assertion `n < 4' failed."),
            "killed by signal 6: a.out: x.c:3: f: Assertion `n < #' failed."
        );
        // Not a prefix of another signal's number.
        assert_eq!(signature("killed by signal 110: x"), "killed by signal 110");
        // pipe:'s broken answers quote the answer too.
        assert_eq!(
            signature("result contains byte 0x7F, which is not printable ASCII: \"bbbb-\\u{7f}\""),
            signature("result contains byte 0x01, which is not printable ASCII: \"e-\\u{1}\"")
        );
        // Perl counts the lines it read: a value under pipe:, unlike the
        // source line before it.
        let perl = |source: u32, input: u32| {
            signature(&format!(
                "Use of code point 0x110000 is not allowed at adapter.pl line {source}, <STDIN> line {input}."
            ))
        };
        assert_eq!(perl(68, 3), perl(68, 39));
        assert_ne!(perl(68, 3), perl(70, 3));
    }

    /// What a program says is shown, never keyed: failures with different
    /// words are one cause, and broken answers long and short are one
    /// cause, with a key of bounded length.
    #[test]
    fn a_programs_words_and_lengths_do_not_split_a_cause() {
        let decode = Request::Decode(b"a-bga".to_vec());
        let ok = Expected::Decoded(CodePoints::with_flags(&[0x61, 0xE9], Some(&[false, true])));
        let key = |got: EngineError| key_of(&caps(), Codec::Punycode, &decode, &ok, &Err(got));
        let plain = key(EngineError::Rejected(None));
        for words in ["Illegal char found", "bad char at index 3 in \"a-bga\""] {
            assert_eq!(key(EngineError::Failed(words.into())), plain);
        }
        assert_eq!(plain.got, "failure");
        let broken = |answer: &str| {
            key(EngineError::Broken(format!(
                "answered {}, a line that starts with neither ok nor error",
                crate::vocabulary::quoted(answer.as_bytes())
            )))
        };
        let short = broken("nonsense");
        assert_eq!(short, broken(&"garbage ".repeat(6_553_600)));
        assert_eq!(
            short.got,
            "answered \"…\", a line that starts with neither ok nor error"
        );
        // A crash line cut short keys as its prefix, whatever its length.
        let cut = |n: usize| {
            key(EngineError::Crashed(format!(
                "killed by signal 6: {}",
                excerpt(&"abort ".repeat(n))
            )))
        };
        assert_eq!(cut(100), cut(100_000));
        assert!(cut(100_000).got.len() < 400, "{}", cut(100_000).got);
    }

    #[test]
    fn reference_errors_carry_their_reason() {
        let bad = Expected::Error(ErrorKind::BadInput);
        let key = key_of(
            &caps(),
            Codec::Punycode,
            &Request::Decode(b"ab-c_d".to_vec()),
            &bad,
            &Ok(Expected::Decoded(CodePoints::default())),
        );
        assert_eq!(key.reference, "bad_input (not a digit)");
        let end = key_of(
            &caps(),
            Codec::Punycode,
            &Request::Decode(b"a-9".to_vec()),
            &bad,
            &Ok(Expected::Decoded(CodePoints::default())),
        );
        assert_eq!(end.reference, "bad_input (ends inside a delta)");
    }

    /// A decoder that takes `_` anywhere for a valid input.
    fn underscore_taker() -> crate::engines::Functions {
        crate::engines::Functions::new("underscore").decoder(|text| {
            if text.contains('_') {
                return Ok(vec![0x80]);
            }
            crate::c_reference::decode(text.as_bytes())
                .map(|d| d.code_points.clone())
                .map_err(|_| crate::engines::Refusal::Invalid)
        })
    }

    #[test]
    fn accepted_causes_are_confirmed_but_not_minimized() {
        let engine = underscore_taker();
        let request = Request::Decode(b"abcdefgh-ijk_lmn".to_vec());
        let want = crate::harness::compare::reference(&request).unwrap();
        let answer = crate::harness::compare::ask(&engine, &request);
        let key = key_of(
            &engine.capabilities(),
            Codec::Punycode,
            &request,
            &want,
            &answer,
        );
        assert_eq!(key.kind, Kind::AcceptsInvalid);
        let resolve = |mut collector: Collector| {
            collector.observe(key.clone(), &request, "accepts _", None, None);
            let deadline = Instant::now() + Duration::from_secs(3600);
            collector.resolve(&engine, deadline, Duration::MAX, 2_000, 16)
        };
        // Not accepted: minimized to a shorter reproducer.
        let new = resolve(Collector::default());
        assert!(request_len(&new[0].request) < 16, "{:?}", new[0].request);
        // Accepted (a baseline's): reported as it was seen, confirmed.
        let known = resolve(Collector::accepting(vec![key.clone()]));
        assert_eq!(known[0].request, request);
        assert_eq!(known[0].confirmation, Confirmation::Confirmed);
    }

    #[test]
    fn one_cause_keeps_its_shortest_request() {
        let mut collector = Collector::default();
        let key = property_key(&Request::Decode(b"x".to_vec()), Property::Uniqueness);
        collector.observe(
            key.clone(),
            &Request::Decode(b"long-input".to_vec()),
            "a",
            None,
            Some("v1"),
        );
        collector.observe(
            key.clone(),
            &Request::Decode(b"ab".to_vec()),
            "b",
            None,
            None,
        );
        collector.observe(
            key,
            &Request::Decode(b"abcd".to_vec()),
            "c",
            None,
            Some("v2"),
        );
        assert_eq!(collector.len(), 1);
        let group = collector.groups.values().next().unwrap();
        assert_eq!(
            (group.count, group.shortest.clone()),
            (3, Request::Decode(b"ab".to_vec()))
        );
        assert_eq!(group.vectors, ["v1", "v2"]);
    }

    #[test]
    fn compact_writes_runs() {
        let cps = CodePoints::with_flags(&[0x61, 0x61, 0x61, 0x61, 0x62, 0x10FFFF], None);
        assert_eq!(cps.compact(), "u+0061*4 u+0062 u+10FFFF");
        assert_eq!(
            shape(&Request::Encode {
                code_points: cps.values,
                flags: None
            }),
            "5-16 code points, up to U+10FFFF"
        );
    }
}
