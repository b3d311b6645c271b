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
//! answer in time is asked once more with the same limit before it
//! counts as hung ([`EngineError::Hung`]); one that dies on a signal or with
//! an uncaught exception, panic or sanitizer report is
//! [`EngineError::Crashed`], with the line that says why; one that prints
//! anything but the convention's output is [`EngineError::Broken`].
//! Whatever a message quotes of what it printed is bounded
//! ([`crate::vocabulary::excerpt`]).
//!
//! The convention's tokens, messages and crash lines, which `pipe:` speaks
//! too, are [`super::line`]'s.

use std::io::{self, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::Child;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::StartError;
use super::attempt::{Deadline, Missed, ask_twice, cores};
use super::line::{MAX_OUTPUT, Program, crash_line, parse_token, probe};
use super::process;
use super::starved;
use crate::codec::Codec;
use crate::engines::{Capabilities, Declaration, DecodeResult, EncodeResult, Engine, EngineError};
use crate::punycode::Decoded;
use crate::vocabulary::{parse_hex, quoted};

/// An external program under test.
#[derive(Debug)]
pub struct Exec {
    program: Program,
    timeout: Duration,
    deadline: Deadline,
    jobs: Option<usize>,
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
    pub fn new(
        command: &str,
        declaration: Declaration,
        timeout: Duration,
    ) -> Result<Self, StartError> {
        Ok(Exec {
            program: Program::new("exec", command, "./my-punycode", declaration)?,
            timeout,
            deadline: Deadline::default(),
            jobs: None,
        })
    }

    /// The same program, implementing `codec` (Punycode unless this is
    /// called). Codecs without annotations never send flags.
    pub fn for_codec(mut self, codec: Codec) -> Self {
        self.program.set_codec(codec);
        self
    }

    /// Asks the program trivial questions to show that it starts and
    /// answers in the convention, in the directions it declares.
    /// Then asks one of them escaped (`-ex`/`-dx`): a program that answers
    /// it as it answered plainly is asked every byte; one that does not
    /// (written before the escaped form) only printable ASCII.
    pub fn probe(&self) -> Result<(), StartError> {
        probe(
            self,
            &self.program,
            "the RFC 3492 test wrapper's convention (-e/-d, u+XXXX tokens)",
            |code_points, escaped| self.encode_as(code_points, None, escaped),
            |text, escaped| self.decode_as(text, escaped),
        )
    }

    /// The same program, run `jobs` at a time (by default twice the cores).
    pub fn with_jobs(mut self, jobs: Option<usize>) -> Self {
        self.jobs = jobs;
        self
    }

    /// Runs `COMMAND mode` with `input` on standard input; when it does not
    /// answer in time, once more with a longer limit.
    fn run(&self, mode: &str, input: &[u8]) -> Result<Run, EngineError> {
        ask_twice(self.timeout, &self.deadline, " (killed)", |allowed| {
            self.run_once(mode, input.to_vec(), allowed)
        })
    }

    /// One run of `COMMAND mode`, killed after `allowed`.
    /// A timeout says what it had printed on standard output by then, if
    /// anything.
    fn run_once(&self, mode: &str, input: Vec<u8>, allowed: Duration) -> Result<Run, Missed> {
        let started = Instant::now();
        let mut child = self.program.spawn(&[mode]).map_err(Missed::Failed)?;
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
        // Not answered within its limit but starved of the CPU (a busy
        // machine), it is waited for, up to the ceiling.
        let ceiling = starved::ceiling(started, allowed, self.deadline.get());
        let mut slice = allowed;
        let mut starving = None;
        let waited = loop {
            match process::wait_spent(&mut child, slice) {
                Ok(None) => {}
                other => break other,
            }
            let left = ceiling.saturating_duration_since(Instant::now());
            match starved::starved(child.id()).filter(|_| !left.is_zero()) {
                Some(share) => {
                    starving = Some(share);
                    slice = left.min(allowed);
                }
                None => break Ok(None),
            }
        };
        let status = match waited {
            Ok(Some((status, spent))) => {
                process::forget(&child);
                crate::engines::spent::record(spent);
                status
            }
            Ok(None) => {
                // What it spent until now, for a cost probe's question cut
                // by its time limit: at least that much.
                if let Some(before) = crate::engines::spent::Before::read(child.id(), false) {
                    before.record_since_start();
                }
                kill_group(&mut child);
                let printed = out_reader
                    .recv_timeout(Duration::from_secs(1))
                    .ok()
                    .flatten()
                    .filter(|out| !out.is_empty());
                let starved = starving.map_or(String::new(), |share| {
                    starved::note(share, started.elapsed())
                });
                return Err(Missed::TimedOut(match printed {
                    Some(out) => format!(
                        "; it had printed {} on standard output, and not exited{starved}",
                        quoted(&out)
                    ),
                    None => starved,
                }));
            }
            Err(e) => {
                kill_group(&mut child);
                return Err(Missed::Failed(EngineError::Broken(format!(
                    "cannot wait for it: {e}"
                ))));
            }
        };
        // Whatever it left running in its group was ended with it (forget);
        // the pipes close once their readers see it, which on a loaded
        // machine may take a while: they have the rest of the answer's
        // time limit (a second at least). Still open then (something that
        // left the group holds them), the answer is missed as a hang is,
        // and asked again with the longer limit.
        let _ = feeder.join();
        let until = started + allowed;
        let left = || {
            until
                .saturating_duration_since(Instant::now())
                .max(Duration::from_secs(1))
        };
        let (Ok(stdout), Ok(stderr)) = (
            out_reader.recv_timeout(left()),
            err_reader.recv_timeout(left()),
        ) else {
            return Err(Missed::TimedOut(
                "; it exited, but its output streams stayed open".into(),
            ));
        };
        let (Some(stdout), Some(stderr)) = (stdout, stderr) else {
            return Err(Missed::Failed(EngineError::Broken(format!(
                "it printed more than {} MiB, the most punycheck reads of one answer",
                MAX_OUTPUT >> 20
            ))));
        };
        if let Some(held) = process::over_memory(child.id()) {
            return Err(Missed::Failed(EngineError::Memory(
                process::memory_message(held),
            )));
        }
        if status.code().is_none() {
            let signal = status.signal().unwrap_or(0);
            let said = crash_line(&String::from_utf8_lossy(&stderr));
            return Err(Missed::Failed(EngineError::Crashed(match said {
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
        let kinds = self.program.says_kinds();
        let first = message.lines().next().unwrap_or("").trim();
        if let Some(line) = crash_line(&message) {
            EngineError::Crashed(format!("exit status {}: {line}", run.status.unwrap_or(-1)))
        } else if let Some(error) = self.program.refusal(first, kinds) {
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
        &self.program.name
    }

    fn codec(&self) -> Codec {
        self.program.codec
    }

    fn workers(&self) -> usize {
        // Process start-up is partly waiting on the kernel: a few more
        // processes than cores keeps the cores busy.
        self.jobs.unwrap_or_else(|| cores().map_or(2, |n| n * 2))
    }

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
    }

    fn capabilities(&self) -> Capabilities {
        self.program.capabilities()
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        self.encode_as(input, case_flags, self.program.escapes_encoding(input))
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        self.decode_as(input, self.program.escapes_decoding(input))
    }
}

impl Exec {
    /// Runs `COMMAND -e`, or `COMMAND -ex` when `escaped` (its output in
    /// hexadecimal).
    fn encode_as(&self, input: &[u32], case_flags: Option<&[bool]>, escaped: bool) -> EncodeResult {
        let mut tokens = self.program.tokens(input, case_flags)?;
        tokens.push('\n');
        let run = self.run(if escaped { "-ex" } else { "-e" }, tokens.as_bytes())?;
        if run.status != Some(0) {
            return Err(self.failure(&run));
        }
        let line = parse_punycode_line(&run.stdout).map_err(EngineError::Broken)?;
        if self.program.hex_channel() || escaped {
            let text = String::from_utf8_lossy(&line);
            return parse_hex(&text)
                .map_err(|e| EngineError::Broken(format!("output is not hexadecimal bytes: {e}")));
        }
        Ok(line)
    }

    /// Runs `COMMAND -d`, or `COMMAND -dx` when `escaped` (its input in
    /// hexadecimal).
    fn decode_as(&self, input: &[u8], escaped: bool) -> DecodeResult {
        let mut line = self.program.channel_text(input, escaped)?;
        line.push(b'\n');
        let run = self.run(if escaped { "-dx" } else { "-d" }, &line)?;
        if run.status != Some(0) {
            return Err(self.failure(&run));
        }
        let decoded = parse_code_point_lines(&run.stdout).map_err(EngineError::Broken)?;
        Ok(self.program.decoded(decoded))
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

    #[test]
    fn empty_and_unsplittable_commands_are_errors() {
        let none = Declaration::default;
        assert!(Exec::new("", none(), Duration::from_secs(1)).is_err());
        assert!(Exec::new("'unterminated", none(), Duration::from_secs(1)).is_err());
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
