//! Any program that follows the command-line convention of the RFC 3492
//! Appendix C test wrapper, selected as `exec:COMMAND`.
//!
//! The convention: `COMMAND -e` reads whitespace-separated `u+XXXX`/`U+XXXX`
//! tokens on standard input (`U` sets the uppercase flag) and prints the
//! Punycode string and a newline; `COMMAND -d` reads one Punycode line and
//! prints one `u+XXXX`/`U+XXXX` line per code point. Failure is a non-zero
//! exit with the wrapper's message on standard error: `invalid input`,
//! `arithmetic overflow`, or `input or output is too large...` (the program's
//! own limit: skipped and counted, never failed). Only printable ASCII
//! crosses the channel.
//!
//! For the other codecs the convention is the same, with the encoded form on
//! its line: LACE and AMC-ACE-Z text as it is, and UTF-8 (whose encoded form
//! is bytes, not text) as lowercase hexadecimal both ways. Programs for
//! codecs without annotations receive `u+` tokens only.
//!
//! One process runs per request, with a time limit; a program that cannot
//! be started, hangs, dies on a signal, or prints anything but the
//! convention's output is reported as [`EngineError::Broken`] with what it
//! did.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use wait_timeout::ChildExt;

use super::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};
use crate::codec::Codec;
use crate::punycode::{CaseFlags, Decoded, ErrorKind};
use crate::vocabulary::{CodePoints, parse_hex};

/// The most a program may print on either stream before it counts as broken.
const MAX_OUTPUT: u64 = 4 << 20;

/// An external program under test.
#[derive(Clone, Debug)]
pub struct Exec {
    name: String,
    codec: Codec,
    argv: Vec<String>,
    annotations: bool,
    timeout: Duration,
}

/// What one run of the program did.
struct Run {
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Exec {
    /// Parses `command` into words the way a POSIX shell would (quotes and
    /// backslashes, no expansion). `annotations` declares whether the program
    /// does Appendix A case flags; `timeout` bounds each run.
    pub fn new(command: &str, annotations: bool, timeout: Duration) -> Result<Self, String> {
        let argv = shell_words::split(command)
            .map_err(|e| format!("cannot split the command {command:?}: {e}"))?;
        if argv.is_empty() {
            return Err("exec: needs a command, e.g. exec:./my-punycode".into());
        }
        Ok(Exec {
            name: format!("exec:{command}"),
            codec: Codec::Punycode,
            argv,
            annotations,
            timeout,
        })
    }

    /// The same program, implementing `codec` (Punycode unless this is
    /// called). Codecs without annotations never send flags.
    pub fn for_codec(mut self, codec: Codec) -> Self {
        self.codec = codec;
        if !codec.has_annotations() {
            self.annotations = false;
        }
        self
    }

    /// Whether the encoded form crosses the channel as hexadecimal.
    fn hex_channel(&self) -> bool {
        self.codec == Codec::Utf8
    }

    /// Runs the program twice with trivial requests (encode u+0061 u+00E9,
    /// decode `a-`) to show that it starts and answers in the convention
    /// both ways; the message says what went wrong. Wrong answers are left
    /// for the check to find and minimize: only a program that cannot be
    /// asked at all fails here.
    pub fn probe(&self) -> Result<(), String> {
        let refused = |what: &str, kind: Option<ErrorKind>| {
            format!(
                "{} refused the probe {what} ({}), which every Punycode implementation accepts: does it follow the RFC 3492 test wrapper's convention (-e/-d, u+XXXX tokens)?",
                self.name,
                kind.map_or("no reason", ErrorKind::name)
            )
        };
        match self.encode(&[0x61, 0xE9], None) {
            Ok(_) => {}
            Err(EngineError::Rejected(kind)) => return Err(refused("-e with u+0061 u+00E9", kind)),
            Err(e) => return Err(format!("{} does not work with -e: {e}", self.name)),
        }
        // What the codec's reference encodes u+0061 u+00E9 to ("a-sta" for
        // Punycode): every implementation decodes it.
        let probe = crate::engines::reference_for(self.codec)
            .and_then(|reference| reference.encode(&[0x61, 0xE9], None).ok())
            .unwrap_or_else(|| b"a-".to_vec());
        let shown = String::from_utf8_lossy(&probe).into_owned();
        match self.decode(&probe) {
            Ok(_) => Ok(()),
            Err(EngineError::Rejected(kind)) => Err(refused(&format!("-d with {shown}"), kind)),
            Err(e) => Err(format!("{} does not work with -d: {e}", self.name)),
        }
    }

    fn spawn(&self, mode: &str) -> Result<Child, EngineError> {
        Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .arg(mode)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so that a hang is ended with everything
            // it started.
            .process_group(0)
            .spawn()
            .map_err(|e| EngineError::Broken(format!("cannot start {:?}: {e}", self.argv[0])))
    }

    /// Runs `COMMAND mode` with `input` on standard input.
    fn run(&self, mode: &str, input: Vec<u8>) -> Result<Run, EngineError> {
        let mut child = self.spawn(mode)?;
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
        let status = match child.wait_timeout(self.timeout) {
            Ok(Some(status)) => status,
            Ok(None) => {
                kill_group(&mut child);
                return Err(EngineError::Broken(format!(
                    "no answer within {:.1} s (killed)",
                    self.timeout.as_secs_f64()
                )));
            }
            Err(e) => {
                kill_group(&mut child);
                return Err(EngineError::Broken(format!("cannot wait for it: {e}")));
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
            return Err(EngineError::Broken(
                "its output streams stayed open after it exited".into(),
            ));
        };
        if status.code().is_none() {
            return Err(EngineError::Broken(format!(
                "killed by signal {}",
                status.signal().unwrap_or(0)
            )));
        }
        Ok(Run {
            status: status.code(),
            stdout,
            stderr,
        })
    }

    /// Interprets a failing run by the wrapper's messages.
    fn failure(run: &Run) -> EngineError {
        let message = String::from_utf8_lossy(&run.stderr);
        let first = message.lines().next().unwrap_or("").trim();
        if first.contains("invalid input") {
            EngineError::Rejected(Some(ErrorKind::BadInput))
        } else if first.contains("arithmetic overflow") {
            EngineError::Rejected(Some(ErrorKind::Overflow))
        } else if first.contains("input or output is too large") {
            EngineError::Limit(first.to_string())
        } else {
            EngineError::Broken(format!(
                "exit status {} with an unrecognised message {:?}",
                run.status.unwrap_or(-1),
                truncate(&message, 120)
            ))
        }
    }
}

/// Reads a stream to its end (at most [`MAX_OUTPUT`] bytes) on a thread.
fn drain(mut stream: impl Read + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut stream).take(MAX_OUTPUT).read_to_end(&mut buf);
        let _ = send.send(buf);
    });
    receive
}

/// Kills the child's whole process group and reaps the child.
fn kill_group(child: &mut Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group that
        // `process_group(0)` created for this child, whose id is the child's
        // pid; it touches no memory of ours. If the group is already gone the
        // call fails with ESRCH, which is fine.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((k, _)) => format!("{}...", &text[..k]),
        None => text.to_string(),
    }
}

/// Parses the decoder's output: one `u+XXXX`/`U+XXXX` line per code point,
/// with 4 to 8 hexadecimal digits.
fn parse_code_point_lines(stdout: &[u8]) -> Result<Decoded, String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "output is not text".to_string())?;
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(format!(
            "output does not end with a newline: {:?}",
            truncate(text, 80)
        ));
    }
    let mut decoded = Decoded::default();
    for line in text.lines() {
        let hex = line.get(2..).unwrap_or("");
        let good = (4..=8).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit());
        let parsed = CodePoints::parse(line)
            .ok()
            .filter(|c| good && c.values.len() == 1);
        let Some(cp) = parsed else {
            return Err(format!(
                "output line {:?} is not u+XXXX or U+XXXX",
                truncate(line, 40)
            ));
        };
        decoded.code_points.push(cp.values[0]);
        decoded.flags.push(cp.flags[0]);
    }
    Ok(decoded)
}

/// Checks the encoder's output: one line of printable ASCII.
fn parse_punycode_line(stdout: &[u8]) -> Result<Vec<u8>, String> {
    let Some(line) = stdout.strip_suffix(b"\n") else {
        return Err(format!(
            "output is not one line ending in a newline: {:?}",
            truncate(&String::from_utf8_lossy(stdout), 80)
        ));
    };
    if let Some(&bad) = line.iter().find(|&&b| !(0x20..0x7F).contains(&b)) {
        return Err(format!(
            "output contains byte {bad:#04X}, which is not printable ASCII: {:?}",
            truncate(&String::from_utf8_lossy(stdout), 80)
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
        std::thread::available_parallelism().map_or(2, |n| n.get() * 2)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            domain: CodePointDomain::U32,
            annotations: self.annotations,
            errors: ErrorDetail::Kinds,
            punycode_input: if self.hex_channel() {
                PunycodeInput::Bytes
            } else {
                PunycodeInput::PrintableLine
            },
            max_encode_input: None,
            max_decode_input: None,
            deviations: &[],
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        // The convention always carries flags. Without flags the RFC leaves
        // ASCII as it is and makes every digit lowercase: flags that say
        // "uppercase" exactly for uppercase ASCII letters give the same output.
        let flags: Vec<bool> = match case_flags {
            Some(flags) if self.annotations => flags.to_vec(),
            Some(_) => {
                return Err(EngineError::Unsupported(
                    "no annotation support declared".into(),
                ));
            }
            None if self.annotations => input
                .iter()
                .map(|&cp| u8::try_from(cp).is_ok_and(|b| b.is_ascii_uppercase()))
                .collect(),
            None => vec![false; input.len()],
        };
        let mut tokens = CodePoints {
            values: input.to_vec(),
            flags,
        }
        .to_string();
        tokens.push('\n');
        let run = self.run("-e", tokens.into_bytes())?;
        if run.status != Some(0) {
            return Err(Self::failure(&run));
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
            return Err(Self::failure(&run));
        }
        let mut decoded = parse_code_point_lines(&run.stdout).map_err(EngineError::Broken)?;
        if !self.annotations {
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

    #[test]
    fn empty_and_unsplittable_commands_are_errors() {
        assert!(Exec::new("", true, Duration::from_secs(1)).is_err());
        assert!(Exec::new("'unterminated", true, Duration::from_secs(1)).is_err());
    }
}
