//! Any program that follows the command-line convention of the RFC 3492
//! Appendix C test wrapper, selected as `exec:COMMAND`.
//!
//! The convention: `COMMAND -e` reads whitespace-separated `u+XXXX`/`U+XXXX`
//! tokens on standard input (`U` sets the uppercase flag) and prints the
//! Punycode string and a newline; `COMMAND -d` reads one Punycode line and
//! prints one `u+XXXX`/`U+XXXX` line per code point. Failure is a non-zero
//! exit with the wrapper's message on standard error: `invalid input`,
//! `arithmetic overflow`, or `input or output is too large...` (the program's
//! own limit: counted, not failed, beyond a limit declared with
//! `--max-encode`/`--max-decode`). Only printable ASCII crosses the channel.
//!
//! For the other codecs the convention is the same, with the encoded form on
//! its line: LACE and AMC-ACE-Z text as it is, and UTF-8 (whose encoded form
//! is bytes, not text) as lowercase hexadecimal both ways. Programs for
//! codecs without annotations receive `u+` tokens only.
//!
//! A program that only says that it failed (no overflow/invalid
//! distinction) is declared with `--errors failure-only`, and may then say
//! `failed` (or any of the messages above) on standard error.
//!
//! One process runs per request, with a time limit. A program that does not
//! answer in time is asked once more with four times the limit before it
//! counts as hung ([`EngineError::Hung`]); one that dies on a signal or with
//! an uncaught exception, panic or sanitizer report is
//! [`EngineError::Crashed`], with the line that says why; one that prints
//! anything but the convention's output is [`EngineError::Broken`].
//! Whatever a message quotes of what it printed is bounded
//! ([`crate::vocabulary::excerpt`]).
//!
//! # Size
//!
//! Over 800 lines only with its unit tests (the code is under 680): the
//! convention's parsing and its crash lines (Perl, Ruby, Python, Java,
//! Rust, sanitizers), shared with `pipe:`, are tested here with the
//! standard error real programs printed.

use std::io::{self, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use super::process;
use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, Declaration, DecodeResult, Directions, EncodeResult, Engine,
    EngineError, ErrorDetail, PunycodeInput,
};
use crate::punycode::{CaseFlags, Decoded, ErrorKind};
use crate::vocabulary::{CodePoints, excerpt, parse_hex, quoted};

/// The most a program may print on either stream before it counts as broken
/// (256 MiB: a decoding of 10^7 code points, printed one `u+XXXXXX` line
/// each, is about 100 MiB).
pub const MAX_OUTPUT: u64 = 256 << 20;

/// How much longer the second try of a request that timed out may take.
const RETRY_FACTOR: u32 = 4;

/// An external program under test.
#[derive(Debug)]
pub struct Exec {
    name: String,
    codec: Codec,
    argv: Vec<String>,
    declaration: Declaration,
    timeout: Duration,
    deadline: Mutex<Option<Instant>>,
    jobs: Option<usize>,
}

/// How one run ended without an exit status.
enum Stopped {
    /// Not within the time it was given: with what it had printed on
    /// standard output by then, if anything.
    TimedOut(Option<Vec<u8>>),
    /// The run's deadline came first.
    Cancelled,
    /// Another failure, already an error.
    Error(EngineError),
}

/// What one run of the program did.
struct Run {
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Exec {
    /// Parses `command` into words the way a POSIX shell would (quotes and
    /// backslashes, no expansion). `declaration` says what the program
    /// supports (by default: everything RFC 3492 asks, with annotations);
    /// `timeout` bounds each run.
    pub fn new(command: &str, declaration: Declaration, timeout: Duration) -> Result<Self, String> {
        let argv = shell_words::split(command)
            .map_err(|e| format!("cannot split the command {command:?}: {e}"))?;
        if argv.is_empty() {
            return Err("exec: needs a command, e.g. exec:./my-punycode".into());
        }
        Ok(Exec {
            name: format!("exec:{command}"),
            codec: Codec::Punycode,
            argv,
            declaration,
            timeout,
            deadline: Mutex::new(None),
            jobs: None,
        })
    }

    /// The same program, implementing `codec` (Punycode unless this is
    /// called). Codecs without annotations never send flags.
    pub fn for_codec(mut self, codec: Codec) -> Self {
        self.codec = codec;
        if !codec.has_annotations() {
            self.declaration.annotations = Some(false);
        }
        self
    }

    /// Whether the encoded form crosses the channel as hexadecimal.
    fn hex_channel(&self) -> bool {
        self.codec == Codec::Utf8
    }

    /// Asks the program trivial questions to show that it starts and
    /// answers in the convention (see [`probe`]).
    pub fn probe(&self) -> Result<(), String> {
        probe(
            self,
            "the RFC 3492 test wrapper's convention (-e/-d, u+XXXX tokens)",
        )
    }

    /// The same program, run `jobs` at a time (by default twice the cores).
    pub fn with_jobs(mut self, jobs: Option<usize>) -> Self {
        self.jobs = jobs;
        self
    }

    fn spawn(&self, mode: &str) -> Result<Child, EngineError> {
        // In its own process group (recorded), so that a hang is ended with
        // everything it started, and an interrupted check ends it too.
        process::spawn(
            Command::new(&self.argv[0])
                .args(&self.argv[1..])
                .arg(mode)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|e| EngineError::Broken(format!("cannot start {:?}: {e}", self.argv[0])))
    }

    /// Runs `COMMAND mode` with `input` on standard input; when it does not
    /// answer in time, once more with a longer limit.
    fn run(&self, mode: &str, input: Vec<u8>) -> Result<Run, EngineError> {
        let deadline = *self.deadline.lock().unwrap_or_else(|e| e.into_inner());
        let mut limit = self.timeout;
        let mut printed = None;
        for attempt in 0..2 {
            let allowed = match deadline {
                Some(end) => limit.min(end.saturating_duration_since(Instant::now())),
                None => limit,
            };
            match self.run_once(mode, input.clone(), allowed) {
                Ok(run) => return Ok(run),
                Err(Stopped::Error(e)) => return Err(e),
                Err(Stopped::Cancelled) => return Err(EngineError::Cancelled),
                Err(Stopped::TimedOut(_)) if allowed < limit => return Err(EngineError::Cancelled),
                Err(Stopped::TimedOut(out)) => {
                    printed = out;
                    if attempt == 0 {
                        limit = self.timeout * RETRY_FACTOR;
                    }
                }
            }
        }
        let printed = match printed {
            Some(out) => format!(
                "; it had printed {} on standard output, and not exited",
                quoted(&out)
            ),
            None => String::new(),
        };
        Err(EngineError::Hung(format!(
            "no answer within {:.1} s, nor within {:.1} s when asked again (killed){printed}",
            self.timeout.as_secs_f64(),
            limit.as_secs_f64()
        )))
    }

    /// One run of `COMMAND mode`, killed after `allowed`.
    fn run_once(&self, mode: &str, input: Vec<u8>, allowed: Duration) -> Result<Run, Stopped> {
        if allowed.is_zero() {
            return Err(Stopped::Cancelled);
        }
        let mut child = self.spawn(mode).map_err(Stopped::Error)?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        // Feed and drain on threads so that a program that does not read, or
        // prints a lot, cannot block us; a write error only means it stopped
        // reading, which its exit status will tell.
        let feeder = thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out_reader = drain(stdout);
        let err_reader = drain(stderr);
        let status = match child.wait_timeout(allowed) {
            Ok(Some(status)) => status,
            Ok(None) => {
                kill_group(&mut child);
                let printed = out_reader
                    .recv_timeout(Duration::from_secs(1))
                    .ok()
                    .flatten()
                    .filter(|out| !out.is_empty());
                return Err(Stopped::TimedOut(printed));
            }
            Err(e) => {
                kill_group(&mut child);
                return Err(Stopped::Error(EngineError::Broken(format!(
                    "cannot wait for it: {e}"
                ))));
            }
        };
        // Whatever it left running in its group must not hold the pipes open.
        kill_group(&mut child);
        let _ = feeder.join();
        let grace = Duration::from_secs(1);
        let (Ok(stdout), Ok(stderr)) = (
            out_reader.recv_timeout(grace),
            err_reader.recv_timeout(grace),
        ) else {
            return Err(Stopped::Error(EngineError::Broken(
                "its output streams stayed open after it exited".into(),
            )));
        };
        let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
            return Err(Stopped::Error(EngineError::Broken(format!(
                "it printed more than {} MiB, the most punycheck reads of one answer",
                MAX_OUTPUT >> 20
            ))));
        };
        if status.code().is_none() {
            let signal = status.signal().unwrap_or(0);
            let said = crash_line(&String::from_utf8_lossy(&stderr));
            return Err(Stopped::Error(EngineError::Crashed(match said {
                Some(line) => format!("killed by signal {signal}: {line}"),
                None => format!("killed by signal {signal}"),
            })));
        }
        Ok(Run {
            status: status.code(),
            stdout,
            stderr,
        })
    }

    /// Interprets a failing run by the wrapper's messages.
    fn failure(&self, run: &Run) -> EngineError {
        let message = String::from_utf8_lossy(&run.stderr);
        let kinds = self.capabilities().errors == ErrorDetail::Kinds;
        let first = message.lines().next().unwrap_or("").trim();
        if let Some(line) = crash_line(&message) {
            EngineError::Crashed(format!("exit status {}: {line}", run.status.unwrap_or(-1)))
        } else if let Some(error) = convention_error(first, kinds) {
            error
        } else {
            EngineError::Broken(format!(
                "exit status {} with a message outside the convention: {}",
                run.status.unwrap_or(-1),
                quoted(message.trim_end().as_bytes())
            ))
        }
    }
}

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
    } else if let Some(rest) = message.strip_prefix("failed") {
        let why = rest.strip_prefix(':').unwrap_or(rest).trim();
        Some(if why.is_empty() {
            EngineError::Rejected(None)
        } else {
            EngineError::Failed(excerpt(why))
        })
    } else {
        None
    }
}

/// Asks `engine` trivial questions (encode u+0061 u+00E9, decode what the
/// codec's reference encodes that to, `a-bga` for Punycode), only in the
/// directions it declares, to show that it starts and answers in
/// `convention`; the message says what went wrong. Wrong answers are left
/// for the check to find and minimize: only a program that cannot be asked
/// at all fails here.
pub(super) fn probe(engine: &dyn Engine, convention: &str) -> Result<(), String> {
    let name = engine.name();
    let refused = |what: &str, error: &EngineError| {
        let why = match error {
            EngineError::Rejected(Some(kind)) => kind.name().to_string(),
            EngineError::Failed(why) => format!("failed, saying {why:?}"),
            _ => "no reason".to_string(),
        };
        format!(
            "{name} refused the probe {what} ({why}), which every implementation accepts: does it follow {convention}?"
        )
    };
    let directions = engine.capabilities().directions;
    if directions.encodes() {
        match engine.encode(&[0x61, 0xE9], None) {
            Ok(_) => {}
            Err(e @ (EngineError::Rejected(_) | EngineError::Failed(_))) => {
                return Err(refused("to encode u+0061 u+00E9", &e));
            }
            Err(e) => return Err(format!("{name} cannot encode: {e}")),
        }
    }
    if !directions.decodes() {
        return Ok(());
    }
    let probe = crate::engines::reference_for(engine.codec())
        .and_then(|reference| reference.encode(&[0x61, 0xE9], None).ok())
        .unwrap_or_else(|| b"a-".to_vec());
    let shown = String::from_utf8_lossy(&probe).into_owned();
    match engine.decode(&probe) {
        Ok(_) => Ok(()),
        Err(e @ (EngineError::Rejected(_) | EngineError::Failed(_))) => {
            Err(refused(&format!("to decode {shown}"), &e))
        }
        Err(e) => Err(format!("{name} cannot decode: {e}")),
    }
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

/// Reads a stream to its end on a thread: its bytes, or `None` when it
/// printed more than [`MAX_OUTPUT`] (the rest is read and dropped, so that
/// the program is never blocked on a full pipe).
fn drain(mut stream: impl Read + Send + 'static) -> mpsc::Receiver<Option<Vec<u8>>> {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut stream).take(MAX_OUTPUT + 1).read_to_end(&mut buf);
        if buf.len() as u64 > MAX_OUTPUT {
            let _ = io::copy(&mut stream, &mut io::sink());
            let _ = send.send(None);
        } else {
            let _ = send.send(Some(buf));
        }
    });
    receive
}

/// Kills the child's whole process group and reaps the child.
fn kill_group(child: &mut Child) {
    process::end(child);
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

/// Parses the decoder's output: one `u+XXXX`/`U+XXXX` line per code point,
/// with 4 to 8 hexadecimal digits.
fn parse_code_point_lines(stdout: &[u8]) -> Result<Decoded, String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "output is not text".to_string())?;
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(format!(
            "output does not end with a newline: {}",
            quoted(text.as_bytes())
        ));
    }
    let mut decoded = Decoded::default();
    for line in text.lines() {
        let (cp, flag) = parse_token(line).map_err(|e| format!("output line {e}"))?;
        decoded.code_points.push(cp);
        decoded.flags.push(flag);
    }
    Ok(decoded)
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

/// What a program under test (`exec:` or `pipe:`) supports: everything
/// RFC 3492 asks, with annotations, over the convention's channel (a
/// printable-ASCII line, or hexadecimal bytes for UTF-8), with
/// `declaration` laid over it.
pub(super) fn program_capabilities(declaration: &Declaration, hex_channel: bool) -> Capabilities {
    let own = Capabilities {
        domain: CodePointDomain::U32,
        annotations: true,
        errors: ErrorDetail::Kinds,
        punycode_input: if hex_channel {
            PunycodeInput::Bytes
        } else {
            PunycodeInput::PrintableLine
        },
        max_encode_input: None,
        max_decode_input: None,
        bound_answers: Default::default(),
        directions: Directions::Both,
        deviations: &[],
    };
    declaration.apply(own)
}

/// Checks the encoder's output: one line of printable ASCII.
fn parse_punycode_line(stdout: &[u8]) -> Result<Vec<u8>, String> {
    let Some(line) = stdout.strip_suffix(b"\n") else {
        return Err(format!(
            "output is not one line ending in a newline: {}",
            quoted(stdout)
        ));
    };
    if let Some(&bad) = line.iter().find(|&&b| !(0x20..0x7F).contains(&b)) {
        return Err(format!(
            "output contains byte {bad:#04X}, which is not printable ASCII: {}",
            quoted(stdout)
        ));
    }
    Ok(line.to_vec())
}

impl Engine for Exec {
    fn name(&self) -> &str {
        &self.name
    }

    fn codec(&self) -> Codec {
        self.codec
    }

    fn workers(&self) -> usize {
        // Process start-up is partly waiting on the kernel: a few more
        // processes than cores keeps the cores busy.
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get() * 2))
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
    }

    fn capabilities(&self) -> Capabilities {
        program_capabilities(&self.declaration, self.hex_channel())
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        let mut tokens = tokens_for(input, case_flags, self.capabilities().annotations)?;
        tokens.push('\n');
        let run = self.run("-e", tokens.into_bytes())?;
        if run.status != Some(0) {
            return Err(self.failure(&run));
        }
        let line = parse_punycode_line(&run.stdout).map_err(EngineError::Broken)?;
        if self.hex_channel() {
            let text = String::from_utf8_lossy(&line);
            return parse_hex(&text)
                .map_err(|e| EngineError::Broken(format!("output is not hexadecimal bytes: {e}")));
        }
        Ok(line)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        let mut line = if self.hex_channel() {
            input
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
                .into_bytes()
        } else {
            input.to_vec()
        };
        line.push(b'\n');
        let run = self.run("-d", line)?;
        if run.status != Some(0) {
            return Err(self.failure(&run));
        }
        let mut decoded = parse_code_point_lines(&run.stdout).map_err(EngineError::Broken)?;
        if !self.capabilities().annotations {
            decoded.flags = CaseFlags::unset(decoded.flags.len());
        }
        Ok(decoded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_parsing_rejects_garbage() {
        assert!(parse_code_point_lines(b"u+0061\nU+00E9\n").is_ok());
        assert!(parse_code_point_lines(b"").unwrap().code_points.is_empty());
        for bad in [
            &b"u+61\n"[..],
            b"x+0061\n",
            b"u+0061",
            b"u+00000000061\n",
            b"u+0061 \n",
            b"\xff\n",
        ] {
            assert!(parse_code_point_lines(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_punycode_line(b"a-b\n").unwrap(), b"a-b");
        assert_eq!(parse_punycode_line(b"\n").unwrap(), b"");
        for bad in [&b"a-b"[..], b"a\nb\n", b"a\x01\n", b"\xc3\xa9\n"] {
            assert!(parse_punycode_line(bad).is_err(), "{bad:?}");
        }
    }

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

    #[test]
    fn empty_and_unsplittable_commands_are_errors() {
        let none = Declaration::default;
        assert!(Exec::new("", none(), Duration::from_secs(1)).is_err());
        assert!(Exec::new("'unterminated", none(), Duration::from_secs(1)).is_err());
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

    #[test]
    fn quoted_output_and_crash_lines_are_bounded() {
        let huge = "z".repeat(10_000_000);
        let line = format!("{huge}\x01\n");
        let e = parse_punycode_line(line.as_bytes()).unwrap_err();
        assert!(
            e.len() < 500 && e.ends_with("(10,000,002 bytes in all)"),
            "{e}"
        );
        let e = parse_code_point_lines(format!("{huge}\n").as_bytes()).unwrap_err();
        assert!(
            e.len() < 500 && e.contains("(10,000,000 bytes in all)"),
            "{e}"
        );
        let panic = format!("thread 'main' panicked at src/lib.rs:1:1:\n{huge}\n");
        let said = crash_line(&panic).unwrap();
        assert!(
            said.len() < 500 && said.ends_with("(10,000,042 bytes in all)"),
            "{said}"
        );
    }

    /// A hang says what the program had printed (a second is ample for
    /// `sh` to print before it sleeps, and the second try has four).
    #[test]
    fn a_hang_says_what_it_had_printed() {
        let exec = Exec::new(
            "sh -c 'printf a-; exec sleep 60' sh",
            Declaration::default(),
            Duration::from_secs(1),
        )
        .unwrap();
        let hung = exec.decode(b"a");
        assert!(
            matches!(&hung, Err(EngineError::Hung(m))
                if m.ends_with("; it had printed \"a-\" on standard output, and not exited")),
            "{hung:?}"
        );
    }
}
