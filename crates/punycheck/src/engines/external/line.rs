//! What `exec:` and `pipe:` programs both speak: the convention of the RFC
//! 3492 Appendix C test wrapper, and the program behind it.
//!
//! - Questions: code points as `u+XXXX`/`U+XXXX` tokens (`U` sets the
//!   uppercase flag, [`tokens_for`]); the encoded form as a line of
//!   printable ASCII, or as lowercase hexadecimal for UTF-8, whose encoded
//!   form is bytes ([`Program::channel_text`]).
//! - Answers: the same tokens ([`parse_token`]) and text; failures as the
//!   wrapper's messages (`invalid input`, `arithmetic overflow`, `input or
//!   output is too large...`, `failed...`: [`convention_error`]).
//! - A program that dies says why on one line of its standard error
//!   ([`crash_line`]: a sanitizer's summary, a panic, a traceback, a Perl
//!   `die`, a Ruby exception...).
//! - A probe ([`probe`]) asks trivial questions first, to show that the
//!   program starts and speaks the convention at all.
//!
//! How each carries a question (a process per question, or lines on a
//! persistent pipe) is theirs: [`super::exec`], [`super::pipe`].

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

use super::{StartError, process};
use crate::codec::Codec;
use crate::engines::declaration::{DomainDecl, ErrorsDecl};
use crate::engines::{
    Capabilities, CodePointDomain, Declaration, DecodeResult, Directions, EncodeResult, Engine,
    EngineError, ErrorDetail, PunycodeInput,
};
use crate::punycode::{CaseFlags, Decoded, ErrorKind};
use crate::vocabulary::{CodePoints, Request, excerpt, quoted};

/// A program under test, as `exec:` and `pipe:` know it: its name, its
/// words, the codec it implements and what it is declared to support.
#[derive(Debug)]
pub(super) struct Program {
    /// `exec:COMMAND` or `pipe:COMMAND`.
    pub name: String,
    /// The codec it implements.
    pub codec: Codec,
    /// The command, split into words.
    pub argv: Vec<String>,
    /// What the user declares it supports.
    pub declaration: Declaration,
    /// Whether it answers escaped questions (`encodex`/`decodex`, `-ex`/
    /// `-dx`: [`Program::set_escaped`]), so that every byte can be asked.
    escaped: AtomicBool,
}

impl Program {
    /// Parses `command` into words the way a POSIX shell would (quotes and
    /// backslashes, no expansion), for `scheme` (`exec` or `pipe`);
    /// `example` is a command shown when there is none.
    pub fn new(
        scheme: &'static str,
        command: &str,
        example: &'static str,
        declaration: Declaration,
    ) -> Result<Self, StartError> {
        let argv = shell_words::split(command).map_err(|error| StartError::Unsplittable {
            command: command.to_string(),
            error,
        })?;
        if argv.is_empty() {
            return Err(StartError::NoCommand { scheme, example });
        }
        Ok(Program {
            name: format!("{scheme}:{command}"),
            codec: Codec::Punycode,
            argv,
            declaration,
            escaped: AtomicBool::new(false),
        })
    }

    /// Makes it a program for `codec`: codecs without annotations never
    /// send flags.
    pub fn set_codec(&mut self, codec: Codec) {
        self.codec = codec;
        if !codec.has_annotations() {
            self.declaration.annotations = Some(false);
        }
        // A label is text, and its refusals have no RFC 3492 kind: unless
        // declared otherwise, Unicode scalar values and failures only.
        if matches!(codec, Codec::Label(_) | Codec::Domain(_)) {
            let declared = &mut self.declaration;
            declared.domain = declared.domain.or(Some(DomainDecl::Unicode));
            declared.errors = declared.errors.or(Some(ErrorsDecl::FailureOnly));
        }
    }

    /// Whether the encoded form crosses the channel as hexadecimal.
    pub fn hex_channel(&self) -> bool {
        self.codec == Codec::Utf8
    }

    /// Records whether it answers the escaped questions, which its
    /// probe tells ([`answers_escaped`]).
    pub fn set_escaped(&self, escaped: bool) {
        self.escaped.store(escaped, Ordering::Relaxed);
    }

    /// Whether encoding `input` is asked in the escaped form: the program
    /// answers escaped questions, and the answer may hold what its plain
    /// line cannot carry. For Punycode and a label that is a control code
    /// point of the input, which the encoded text holds too (section 5 of
    /// RFC 3492: every code point below 0x80 is basic). A domain name's
    /// answer is the whole name's text, which mapping makes from any code
    /// point (U+3000 and U+00A0 become a space, which an adapter's trimmed
    /// line loses at an end) and which a wrong implementation may give back
    /// unconverted, so a name is asked escaped unless it is printable ASCII
    /// without a space.
    pub fn escapes_encoding(&self, input: &[u32]) -> bool {
        if !self.escaped.load(Ordering::Relaxed) || self.hex_channel() {
            return false;
        }
        if self.codec.is_domain() {
            return input.iter().any(|&cp| !(0x21..0x7F).contains(&cp));
        }
        input.iter().any(|&cp| cp < 0x20 || cp == 0x7F)
    }

    /// Whether decoding `text` is asked in the escaped form: the program
    /// answers escaped questions, and `text` holds what its plain line
    /// cannot carry. For Punycode that is any byte outside printable
    /// ASCII; a label's plain line is UTF-8 text, so only a control
    /// character (or bytes that are not UTF-8) needs the escape, and a
    /// label such as `xn--が-` is asked as the text it is.
    pub fn escapes_decoding(&self, text: &[u8]) -> bool {
        if !self.escaped.load(Ordering::Relaxed) || self.hex_channel() {
            return false;
        }
        match self.codec {
            // A name crosses as tokens, whatever it holds.
            Codec::Domain(_) => false,
            Codec::Label(_) => {
                !std::str::from_utf8(text).is_ok_and(|text| !text.chars().any(char::is_control))
            }
            _ => text.iter().any(|b| !(0x20..0x7F).contains(b)),
        }
    }

    /// What it supports: everything RFC 3492 asks, with annotations, over
    /// the convention's channel (a printable-ASCII line, a line of text for
    /// labels, or hexadecimal bytes for UTF-8), with its declaration laid
    /// over it.
    pub fn capabilities(&self) -> Capabilities {
        let own = Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::U32,
            annotations: true,
            errors: ErrorDetail::Kinds,
            punycode_input: match (self.codec, self.escaped.load(Ordering::Relaxed)) {
                _ if self.hex_channel() => PunycodeInput::Bytes,
                (Codec::Domain(_), false) => PunycodeInput::NameLine,
                (Codec::Domain(_), true) => PunycodeInput::Name,
                (Codec::Label(_), false) => PunycodeInput::LabelLine,
                (Codec::Label(_), true) => PunycodeInput::LabelText,
                (_, false) => PunycodeInput::PrintableLine,
                (_, true) => PunycodeInput::Bytes,
            },
            max_encode_input: None,
            max_decode_input: None,
            bound_answers: Default::default(),
            directions: Directions::Both,
            deviations: &[],
            unicode_version: None,
            verdict_only: false,
        };
        self.declaration.apply(own)
    }

    /// What its failure message says ([`convention_error`]); for the
    /// `label` codec, whose refusals have no RFC 3492 kind, any message is
    /// a refusal in the program's own words (`error` alone, a bare one).
    pub fn refusal(&self, message: &str, kinds: bool) -> Option<EngineError> {
        if !matches!(self.codec, Codec::Label(_) | Codec::Domain(_)) {
            return convention_error(message, kinds);
        }
        Some(failed(message.strip_prefix("failed").unwrap_or(message)))
    }

    /// Whether its failures say their kind (not declared
    /// `--errors failure-only`).
    pub fn says_kinds(&self) -> bool {
        self.capabilities().errors == ErrorDetail::Kinds
    }

    /// The tokens that ask it to encode `input` ([`tokens_for`]).
    pub fn tokens(
        &self,
        input: &[u32],
        case_flags: Option<&[bool]>,
    ) -> Result<String, EngineError> {
        tokens_for(input, case_flags, self.capabilities().annotations)
    }

    /// Encoded text as it crosses the channel: as it is, as lowercase
    /// hexadecimal for UTF-8 and for an escaped question, or as the tokens
    /// of its code points for a domain name (which must be UTF-8 text).
    pub fn channel_text(&self, encoded: &[u8], escaped: bool) -> Result<Vec<u8>, EngineError> {
        if self.codec.is_domain() {
            let text = std::str::from_utf8(encoded).map_err(|_| {
                EngineError::Unsupported("a domain name to decode is UTF-8 text".into())
            })?;
            let code_points: Vec<u32> = text.chars().map(u32::from).collect();
            return Ok(tokens_for(&code_points, None, false)?.into_bytes());
        }
        Ok(if self.hex_channel() || escaped {
            hex(encoded)
        } else {
            encoded.to_vec()
        })
    }

    /// A decoded answer, its flags dropped when it has no annotations.
    pub fn decoded(&self, mut decoded: Decoded) -> Decoded {
        if !self.capabilities().annotations {
            decoded.flags = CaseFlags::unset(decoded.flags.len());
        }
        decoded
    }

    /// Starts it with `args` after its own words, its three standard
    /// streams piped, in a process group of its own ([`process::spawn`]:
    /// so that a hang is ended with everything it started, and an
    /// interrupted check ends it too).
    pub fn spawn(&self, args: &[&str]) -> Result<Child, EngineError> {
        process::spawn(
            Command::new(&self.argv[0])
                .args(&self.argv[1..])
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|e| EngineError::Broken(format!("cannot start {:?}: {e}", self.argv[0])))
    }
}

/// `bytes` as lowercase hexadecimal, two digits a byte.
pub(super) fn hex(bytes: &[u8]) -> Vec<u8> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = Vec::with_capacity(bytes.len() * 2);
    for &b in bytes {
        text.push(DIGITS[usize::from(b >> 4)]);
        text.push(DIGITS[usize::from(b & 0xF)]);
    }
    text
}

/// Whether a program answers escaped questions: the first of the probe's
/// questions ([`probe_questions`]) that it answers plainly, asked again in
/// the escaped form (`encode_as`, `decode_as`: the question, and whether
/// escaped), must get the same answer. A program written before the
/// escaped form refuses its verb, or reads its hexadecimal as text, and
/// answers otherwise.
fn answers_escaped(
    engine: &dyn Engine,
    encode_as: impl Fn(&[u32], bool) -> EncodeResult,
    decode_as: impl Fn(&[u8], bool) -> DecodeResult,
) -> bool {
    if engine.codec() == Codec::Utf8 {
        return false;
    }
    let ask_as = |question: &Request, escaped| match question {
        Request::Encode { code_points, .. } => encode_as(code_points, escaped).map(Answer::Encoded),
        Request::Decode(text) => decode_as(text, escaped).map(Answer::Decoded),
    };
    let (first, simple) = probe_questions(engine);
    let Some((question, plain)) = first
        .iter()
        .chain(&simple)
        .map(|q| (q, ask_as(q, false)))
        .find(|(_, answer)| answer.is_ok())
    else {
        return false;
    };
    ask_as(question, true).ok() == plain.ok()
}

/// A probe's answer, either way.
#[derive(PartialEq)]
enum Answer {
    Encoded(Vec<u8>),
    Decoded(Decoded),
}

/// The most a program may print on either stream before it counts as broken
/// (256 MiB: a decoding of 10^7 code points, printed one `u+XXXXXX` line
/// each, is about 100 MiB).
pub(super) const MAX_OUTPUT: u64 = 256 << 20;

/// What a failure message of the convention says (`invalid input`,
/// `arithmetic overflow`, `input or output is too large...`, `failed...`);
/// `None` for any other message. Without `kinds` (a program declared
/// `--errors failure-only`) every failure is one without a kind. What a
/// program says after `failed` (`failed: Illegal char found`) is kept,
/// bounded, to be shown ([`EngineError::Failed`]).
pub(super) fn convention_error(message: &str, kinds: bool) -> Option<EngineError> {
    let kind = |kind| Some(EngineError::Rejected(kinds.then_some(kind)));
    if message.contains("invalid input") {
        kind(ErrorKind::BadInput)
    } else if message.contains("arithmetic overflow") {
        kind(ErrorKind::Overflow)
    } else if message.contains("input or output is too large") {
        Some(EngineError::Limit(excerpt(message)))
    } else {
        message.strip_prefix("failed").map(failed)
    }
}

/// A failure in the program's words (what follows `failed`, without its
/// colon), kept bounded; a bare one has no words.
fn failed(words: &str) -> EngineError {
    let why = words.strip_prefix(':').unwrap_or(words).trim();
    if why.is_empty() {
        EngineError::Rejected(None)
    } else {
        EngineError::Failed(excerpt(why))
    }
}

/// The probe's questions: to encode `a` `é` (for the label codec, whose
/// questions are labels with a non-ASCII code point, `é` alone before it),
/// and to decode what the codec's reference encodes that to (`a-bga` for
/// Punycode), in the directions `engine` declares. The second list is
/// simpler still (`a` alone, and its encoding `a-`): a program that
/// answers one of those speaks the convention even when it fails the
/// first.
pub fn probe_questions(engine: &dyn Engine) -> (Vec<Request>, Vec<Request>) {
    let reference = crate::engines::reference_for(engine.codec());
    let directions = engine.capabilities().directions;
    let pair = |code_points: Vec<u32>| {
        let encoded = reference
            .as_ref()
            .and_then(|r| r.encode(&code_points, None).ok())
            .unwrap_or_else(|| b"a-".to_vec());
        let mut questions = Vec::new();
        if directions.encodes() {
            questions.push(Request::Encode {
                code_points,
                flags: None,
            });
        }
        if directions.decodes() {
            questions.push(Request::Decode(encoded));
        }
        questions
    };
    let simple = if matches!(engine.codec(), Codec::Label(_)) {
        vec![0xE9]
    } else {
        vec![0x61]
    };
    (pair(vec![0x61, 0xE9]), pair(simple))
}

/// Asks `engine` the probe's questions ([`probe_questions`]) to show that
/// it starts and answers in `convention`; the message says what went
/// wrong. Only a program that cannot be asked at all fails here (one that
/// answers every question outside the convention does not speak it): one
/// that answers some question in the convention (a result or a refusal)
/// but crashes, hangs, answers wrongly or outside the convention (an
/// encoding with a non-ASCII byte) on another is left for the check,
/// which asks the probe's questions first and reports what they show as a
/// cause with its reproducer. A program that refuses the probe and answers
/// nothing else either is taken not to follow the convention.
///
/// Then it asks whether the program answers escaped questions
/// ([`answers_escaped`], by `encode_as` and `decode_as`: the question, and
/// whether escaped), and records it in `program`.
pub(super) fn probe(
    engine: &dyn Engine,
    program: &Program,
    convention: &'static str,
    encode_as: impl Fn(&[u32], bool) -> EncodeResult,
    decode_as: impl Fn(&[u8], bool) -> DecodeResult,
) -> Result<(), StartError> {
    probe_plainly(engine, convention)?;
    program.set_escaped(answers_escaped(engine, encode_as, decode_as));
    Ok(())
}

/// The probe's questions, asked plainly ([`probe`]).
fn probe_plainly(engine: &dyn Engine, convention: &'static str) -> Result<(), StartError> {
    let name = || engine.name().to_string();
    let (first, simple) = probe_questions(engine);
    let reference = crate::engines::reference_for(engine.codec());
    // Whether `question` got the reference's answer (code points alike,
    // letters in any case): a program right on one question speaks the
    // convention, whatever it answers to another.
    let right = |question: &Request, answer: &Result<Answer, EngineError>| {
        let Some(reference) = &reference else {
            return false;
        };
        match (question, answer) {
            (Request::Encode { code_points, .. }, Ok(Answer::Encoded(got))) => reference
                .encode(code_points, None)
                .is_ok_and(|want| want.eq_ignore_ascii_case(got)),
            (Request::Decode(text), Ok(Answer::Decoded(got))) => reference
                .decode(text)
                .is_ok_and(|want| want.code_points == got.code_points),
            _ => false,
        }
    };
    let mut failure = None;
    let mut broken = None;
    let (mut answered, mut succeeded, mut any_right) = (false, false, false);
    let mut note = |question: &Request, answer: Result<Answer, EngineError>| {
        any_right |= right(question, &answer);
        let answer = answer.map(drop);
        answered |= in_convention(&answer);
        succeeded |= answer.is_ok();
        answer.err()
    };
    for question in &first {
        match note(question, ask(engine, question)) {
            Some(error @ EngineError::Broken(_)) => {
                broken.get_or_insert((question.clone(), error));
            }
            Some(error) => {
                failure.get_or_insert((question.clone(), error));
            }
            None => {}
        }
    }
    if failure.is_none() && broken.is_none() {
        return Ok(());
    }
    for question in &simple {
        if let Some(error @ EngineError::Broken(_)) = note(question, ask(engine, question)) {
            broken.get_or_insert((question.clone(), error));
        }
    }
    // An answer outside the convention, and not one answer right: it does
    // not speak it.
    let (question, error) = match (broken, failure) {
        (Some(broken), _) if !any_right => {
            answered = false;
            broken
        }
        (_, Some(failure)) => failure,
        (Some(broken), None) => broken,
        (None, None) => return Ok(()),
    };
    let asked = match &question {
        Request::Encode { code_points, .. } => {
            format!("to encode {}", CodePoints::with_flags(code_points, None))
        }
        Request::Decode(text) => format!("to decode {}", String::from_utf8_lossy(text)),
    };
    match error {
        EngineError::Rejected(_) | EngineError::Failed(_) if !succeeded => {
            let why = match &error {
                EngineError::Rejected(Some(kind)) => kind.name().to_string(),
                EngineError::Failed(why) => format!("failed, saying {why:?}"),
                _ => "no reason".to_string(),
            };
            Err(StartError::Refused {
                name: name(),
                question: asked,
                why,
                convention,
            })
        }
        _ if answered => Ok(()),
        error => Err(StartError::ProbeFailed {
            name: name(),
            verb: match question {
                Request::Encode { .. } => "encode",
                Request::Decode(_) => "decode",
            },
            error,
        }),
    }
}

/// One question of the probe, asked as the check would.
fn ask(engine: &dyn Engine, question: &Request) -> Result<Answer, EngineError> {
    match question {
        Request::Encode { code_points, .. } => {
            engine.encode(code_points, None).map(Answer::Encoded)
        }
        Request::Decode(text) => engine.decode(text).map(Answer::Decoded),
    }
}

/// Whether an answer is one of the convention's: a result, or a refusal
/// in its words.
fn in_convention(answer: &Result<(), EngineError>) -> bool {
    matches!(
        answer,
        Ok(()) | Err(EngineError::Rejected(_) | EngineError::Failed(_) | EngineError::Limit(_))
    )
}

/// The line of a dying program's standard error that says why, whole up
/// to [`crate::vocabulary::excerpt::EXCERPT_BYTES`] ([`excerpt()`]): a
/// sanitizer's `SUMMARY:` line, a Rust panic's first line with its
/// message, the last line of a Python traceback, a Java exception's line,
/// a Perl `die` (`MESSAGE at FILE line N.`), a Ruby uncaught exception
/// (`FILE:LINE:in 'METHOD': MESSAGE (CLASS)`); `None` when it does not
/// look like a crash. A message of the convention (`invalid input`,
/// `failed: ...`) is never one, even when it quotes a location.
pub fn crash_line(stderr: &str) -> Option<String> {
    whole_crash_line(stderr).map(|line| excerpt(&line))
}

/// [`crash_line`], whole.
fn whole_crash_line(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().map(str::trim_end).collect();
    let first = lines.first().copied().unwrap_or("");
    let convention = [
        "invalid input",
        "arithmetic overflow",
        "input or output is too large",
        "failed",
    ];
    if !convention.iter().any(|m| first.starts_with(m))
        && (perl_die(first) || ruby_exception(&lines))
    {
        return Some(first.to_string());
    }
    if let Some(summary) = lines.iter().find(|l| l.starts_with("SUMMARY:")) {
        return Some(summary.to_string());
    }
    if let Some(k) = lines.iter().position(|l| l.contains("panicked at")) {
        // Since Rust 1.73 the message is on the line after the location.
        let message = lines
            .get(k + 1)
            .filter(|m| !m.is_empty() && !m.starts_with("note:"));
        return Some(match message {
            Some(m) => format!("{} {m}", lines[k]),
            None => lines[k].to_string(),
        });
    }
    if lines
        .iter()
        .any(|l| l.starts_with("Traceback (most recent call last)"))
    {
        return lines
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.to_string());
    }
    if let Some(line) = lines.iter().find(|l| l.starts_with("Exception in thread")) {
        let cause = lines
            .iter()
            .rev()
            .find(|l| l.trim_start().starts_with("Caused by:"));
        return Some(match cause {
            Some(c) => format!("{line} ({})", c.trim()),
            None => line.to_string(),
        });
    }
    lines
        .iter()
        .find(|l| {
            l.contains("Segmentation fault")
                || l.contains("core dumped")
                || l.starts_with("==") && l.contains("ERROR: AddressSanitizer")
        })
        .map(|l| l.to_string())
}

/// Whether `line` is what Perl's `die` prints for a message without a
/// newline: `MESSAGE at FILE line N.`, or `MESSAGE at FILE line N, <FH>
/// line M.` (`chunk M` when `$/` is not a newline) while a file is read.
fn perl_die(line: &str) -> bool {
    let Some(body) = line.strip_suffix('.') else {
        return false;
    };
    // Without the optional ", <FH> line M" / ", <FH> chunk M".
    let body = match body.rsplit_once(", <") {
        Some((before, handle)) => {
            let read = handle
                .split_once("> line ")
                .or_else(|| handle.split_once("> chunk "));
            match read {
                Some((name, n)) if is_number(n) && !name.is_empty() && !name.contains(' ') => {
                    before
                }
                _ => return false,
            }
        }
        None => body,
    };
    let Some((message, location)) = body.rsplit_once(" at ") else {
        return false;
    };
    let Some((file, n)) = location.rsplit_once(" line ") else {
        return false;
    };
    !message.trim().is_empty() && !file.is_empty() && !file.contains(' ') && is_number(n)
}

/// Whether `lines` start the way Ruby reports an uncaught exception:
/// `FILE:LINE:in 'METHOD': MESSAGE (CLASS)` (a backquote before the
/// method before Ruby 3.4), then the backtrace, each line `\tfrom ...`.
fn ruby_exception(lines: &[&str]) -> bool {
    let Some(first) = lines.first() else {
        return false;
    };
    let Some((place, rest)) = first
        .split_once(":in `")
        .or_else(|| first.split_once(":in '"))
    else {
        return false;
    };
    // The file may hold a colon itself (`<internal:pack>`).
    let Some((file, n)) = place.rsplit_once(':') else {
        return false;
    };
    let Some((method, message)) = rest.split_once("': ") else {
        return false;
    };
    let class = message
        .strip_suffix(')')
        .and_then(|m| m.rsplit_once(" ("))
        .map(|(_, class)| class);
    let named = class.is_some_and(|c| {
        c.starts_with(|ch: char| ch.is_ascii_uppercase())
            && c.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == ':' || ch == '_')
    });
    let traced = lines.get(1).is_none_or(|l| l.starts_with("\tfrom "));
    !file.is_empty() && is_number(n) && !method.is_empty() && named && traced
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Parses one `u+XXXX`/`U+XXXX` token with 4 to 8 hexadecimal digits: the
/// code point and its flag.
pub(super) fn parse_token(token: &str) -> Result<(u32, bool), String> {
    let hex = token.get(2..).unwrap_or("");
    let good = (4..=8).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit());
    CodePoints::parse(token)
        .ok()
        .filter(|c| good && c.values.len() == 1)
        .map(|c| (c.values[0], c.flags[0]))
        .ok_or_else(|| format!("{} is not u+XXXX or U+XXXX", quoted(token.as_bytes())))
}

/// The `u+XXXX`/`U+XXXX` tokens that ask to encode `input`, separated by
/// single spaces.
///
/// The convention always carries flags. Without flags the RFC leaves ASCII
/// as it is and makes every digit lowercase: flags that say "uppercase"
/// exactly for uppercase ASCII letters give the same output from a program
/// that does flags, and nothing changes for one that ignores them. So they
/// are sent for a program declared without annotations too.
pub(super) fn tokens_for(
    input: &[u32],
    case_flags: Option<&[bool]>,
    annotations: bool,
) -> Result<String, EngineError> {
    let flags: Vec<bool> = match case_flags {
        Some(flags) if annotations => flags.to_vec(),
        Some(_) => {
            return Err(EngineError::Unsupported(
                "no annotation support declared".into(),
            ));
        }
        None => input
            .iter()
            .map(|&cp| u8::try_from(cp).is_ok_and(|b| b.is_ascii_uppercase()))
            .collect(),
    };
    Ok(CodePoints {
        values: input.to_vec(),
        flags,
    }
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Standard error of real adapters (adapters/perl, adapters/ruby),
    /// as they printed it.
    #[test]
    fn perl_and_ruby_deaths_are_crashes() {
        let crashes = [
            // Net::IDN::Punycode XS, decode c705263y.
            "Use of code point 0xFFFFFFFFC6FA4E95 is not allowed; the permissible max is 0x7FFFFFFFFFFFFFFF at adapters/perl/net_idn_punycode.pl line 68, <STDIN> chunk 1.\n",
            // Net::IDN::Punycode::PP, decode a-aaa-aaaaaaaaaaaa-uu.
            "Illegal division by zero at /usr/lib/x86_64-linux-gnu/perl5/5.36/Net/IDN/Punycode/PP.pm line 45, <STDIN> chunk 1.\n",
            "Died at prog.pl line 3.\n",
            // Addressable, decode ww902716a.
            "<internal:pack>:144:in `pack': pack(U): value out of range (RangeError)\n\tfrom /usr/share/rubygems-integration/all/gems/addressable-2.8.1/lib/addressable/idna/pure.rb:624:in `punycode_decode'\n\tfrom adapters/ruby/punycode_rb.rb:52:in `impl_decode'\n",
            // SimpleIDN, decode a-rc4g.
            "/usr/share/rubygems-integration/all/gems/simpleidn-0.1.1/lib/simpleidn.rb:125:in `chr': invalid codepoint 0xD800 in UTF-8 (RangeError)\n\tfrom /usr/share/rubygems-integration/all/gems/simpleidn-0.1.1/lib/simpleidn.rb:125:in `block in decode'\n",
            // Ruby 3.4 quotes the method with ' and names its class.
            "x.rb:1:in 'Integer#chr': 1114112 out of char range (RangeError)\n\tfrom x.rb:1:in '<main>'\n",
        ];
        for stderr in crashes {
            assert_eq!(
                crash_line(stderr).as_deref(),
                stderr.lines().next(),
                "{stderr:?}"
            );
        }
        let conventional = [
            "invalid input\n",
            "arithmetic overflow\n",
            "failed: incomplete encoded code point in decode_punycode\n",
            "failed: invalid code point\n",
            // A convention message that quotes a Perl location.
            "failed: invalid digit at /usr/share/perl5/Net/IDN/Punycode/PP.pm line 88, <STDIN> chunk 1.\n",
            "input or output is too large, recompile with larger limits\n",
            // Looks like a location, is not a die.
            "see the manual at page line\n",
            "value at x line 3 (approximately).\n",
            "a.rb:12:in `m': no class given\n",
        ];
        for stderr in conventional {
            assert_eq!(crash_line(stderr), None, "{stderr:?}");
        }
    }

    /// A name to encode is asked escaped unless it is printable ASCII
    /// without a space (its answer may hold a control, a space at an
    /// end, or what a wrong implementation gives back unconverted); a
    /// label only when it holds a control; nothing is, for a program that
    /// does not answer escaped questions.
    #[test]
    fn names_are_asked_escaped_unless_printable_ascii() {
        let program = |codec| {
            let mut program =
                Program::new("pipe", "true", "x", Declaration::default()).expect("a command");
            program.set_codec(codec);
            program.set_escaped(true);
            program
        };
        let domain = program(Codec::Domain(crate::label::LabelProfile::DEFAULT));
        let label = program(Codec::Label(crate::label::LabelProfile::DEFAULT));
        for (name, escaped) in [
            (&[0x61, 0x2E, 0x62][..], false),
            (&[0x61, 0x01, 0x62], true),
            (&[0x61, 0x7F], true),
            (&[0x61, 0x20], true),
            (&[0xFC], true),
            (&[0x61, 0x3000], true),
        ] {
            assert_eq!(domain.escapes_encoding(name), escaped, "{name:X?}");
            assert_eq!(
                label.escapes_encoding(name),
                name.iter().any(|&cp| cp < 0x20 || cp == 0x7F),
                "{name:X?}"
            );
        }
        domain.set_escaped(false);
        assert!(!domain.escapes_encoding(&[0x61, 0x01]));
        assert_eq!(
            domain.capabilities().punycode_input,
            crate::engines::PunycodeInput::NameLine
        );
    }

    #[test]
    fn a_failure_keeps_its_own_words_but_not_its_kind() {
        for kinds in [true, false] {
            assert_eq!(
                convention_error("failed: Illegal char found", kinds),
                Some(EngineError::Failed("Illegal char found".into()))
            );
            for bare in ["failed", "failed:", "failed:  "] {
                assert_eq!(
                    convention_error(bare, kinds),
                    Some(EngineError::Rejected(None))
                );
            }
        }
        let long = format!("failed: {}", "y".repeat(100_000));
        let Some(EngineError::Failed(why)) = convention_error(&long, false) else {
            panic!("a failure");
        };
        assert!(why.ends_with("y… (100,000 bytes in all)"), "{why}");
        let Some(EngineError::Limit(why)) =
            convention_error(&format!("input or output is too large{long}"), true)
        else {
            panic!("a limit");
        };
        assert!(why.len() < 400, "{why}");
    }
}
