//! `punycheck encode` and `punycheck decode`: one answer per input line,
//! written as soon as the line is read, so a person typing into a terminal
//! sees each answer at once and a program can hold a conversation.
//!
//! A built-in implementation runs inside this process and cannot be
//! stopped, so each of its answers is awaited in a worker thread for at
//! most `--timeout`: past it, the answer is abandoned, the line is reported
//! as hung, and the command ends (status 1) rather than running for
//! minutes. An `exec:` program has its own time limit.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use super::{Outcome, Output, Status, Stop, warn};
use crate::config::Implementation;
use punycheck::codec::Codec;
use punycheck::engines::{self, Engine, EngineError};
use punycheck::harness::vectors::CodePoints;
use punycheck::punycode::Decoded;
use punycheck::utf8;
use punycheck::vocabulary::Request;

/// Which way the lines go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Text (or `u+XXXX` tokens) to the encoded form.
    Encode,
    /// The encoded form to text (or `u+XXXX` tokens).
    Decode,
}

/// How `encode` or `decode` runs.
#[derive(Clone, Debug)]
pub struct LineSettings {
    /// The codec.
    pub codec: Codec,
    /// Encode or decode.
    pub direction: Direction,
    /// What is declared about it, and `--timeout`.
    pub implementation: Implementation,
    /// Lines are `u+XXXX`/`U+XXXX` tokens (encode input, decode output).
    pub codepoints: bool,
    /// How text is read (encode) or written (decode).
    pub mode: utf8::Mode,
}

/// An implementation whose answers are awaited for a bounded time.
struct Bounded {
    engine: Arc<dyn Engine>,
    /// `None` for a program with its own time limit.
    limit: Option<Duration>,
}

impl Bounded {
    fn call<T: Send + 'static>(
        &self,
        ask: impl FnOnce(&dyn Engine) -> Result<T, EngineError> + Send + 'static,
    ) -> Result<T, EngineError> {
        let Some(limit) = self.limit else {
            return ask(self.engine.as_ref());
        };
        let engine = Arc::clone(&self.engine);
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = send.send(ask(engine.as_ref()));
        });
        match receive.recv_timeout(limit) {
            Ok(answer) => answer,
            Err(mpsc::RecvTimeoutError::Timeout) => Err(EngineError::Hung(format!(
                "no answer within --timeout {} s; a built-in implementation cannot be stopped, so its answer was abandoned",
                limit.as_secs_f64()
            ))),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(EngineError::Crashed(
                "the implementation's thread ended without an answer".into(),
            )),
        }
    }
}

/// Whether `spec` names a program with its own time limit.
fn runs_outside(spec: &str) -> bool {
    spec.starts_with("exec:") || spec.starts_with("pipe:")
}

/// Answers `lines`, or every line of `input` when there are none, in turn,
/// each written and flushed before the next is read. Failed lines are
/// reported on standard error with their number, and an empty line is
/// written in their place.
pub fn run(
    settings: &LineSettings,
    lines: &[Vec<u8>],
    input: &mut dyn BufRead,
    out: &mut Output,
) -> Outcome {
    let engine: Arc<dyn Engine> = Arc::from(engines::from_spec(
        &settings.implementation.spec_or_cleanroom(settings.codec),
        &settings.implementation.options(settings.codec)?,
    )?);
    let bounded = Bounded {
        limit: (!runs_outside(&settings.implementation.spec_or_cleanroom(settings.codec)))
            .then(|| settings.implementation.timeout())
            .transpose()?,
        engine,
    };
    let mut ok = true;
    let mut answer = |n: usize, line: Vec<u8>, out: &mut Output| -> Result<bool, Stop> {
        let why = label_reason(settings, &line);
        let (result, hung) = match settings.direction {
            Direction::Encode => encode_line(settings, &bounded, &line),
            Direction::Decode => decode_line(settings, &bounded, line),
        };
        match result {
            Ok(bytes) => out.bytes(&bytes)?,
            Err(e) => {
                warn(&format!("line {n}: {e}{}", why.unwrap_or_default()));
                ok = false;
            }
        }
        out.line("")?;
        out.flush()?;
        Ok(!hung)
    };
    if !lines.is_empty() {
        for (k, line) in lines.iter().enumerate() {
            if !answer(k + 1, line.clone(), out)? {
                return Ok(Status::Nonconforming);
            }
        }
    } else {
        for (k, line) in input.split(b'\n').enumerate() {
            let mut line =
                line.map_err(|e| Stop::Setup(format!("cannot read standard input: {e}")))?;
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if !answer(k + 1, line, out)? {
                return Ok(Status::Nonconforming);
            }
        }
    }
    Ok(Status::of(ok))
}

/// For the `label` and `domain` codecs, why the reference refuses `line`, to show beside
/// an implementation's refusal (which says no more than that it failed).
fn label_reason(settings: &LineSettings, line: &[u8]) -> Option<String> {
    let profile = settings.codec.label_profile()?;
    let request = match settings.direction {
        Direction::Decode => Request::Decode(line.to_vec()),
        Direction::Encode => {
            let cps = if settings.codepoints {
                CodePoints::parse(std::str::from_utf8(line).ok()?)
                    .ok()?
                    .values
            } else {
                utf8::decode(line, settings.mode).ok()?
            };
            Request::Encode {
                code_points: cps,
                flags: None,
            }
        }
    };
    let refusal = punycheck::domain::refusal(settings.codec, &request)?;
    Some(format!(
        " (the reference: {})",
        refusal.explained(profile.rules)
    ))
}

/// One line's answer, and whether the implementation hung on it.
type Answer = (Result<Vec<u8>, String>, bool);

fn hung<T>(result: &Result<T, EngineError>) -> bool {
    matches!(result, Err(EngineError::Hung(_)))
}

fn encode_line(settings: &LineSettings, engine: &Bounded, line: &[u8]) -> Answer {
    let parsed = if settings.codepoints {
        std::str::from_utf8(line)
            .map_err(|_| "not UTF-8".to_string())
            .and_then(|text| CodePoints::parse(text).map_err(|e| e.to_string()))
    } else {
        utf8::decode(line, settings.mode)
            .map(|values| CodePoints {
                flags: vec![false; values.len()],
                values,
            })
            .map_err(|e| format!("not {} text: {e}", settings.mode.name()))
    };
    let cps = match parsed {
        Ok(cps) => cps,
        Err(e) => return (Err(e), false),
    };
    let annotations = engine.engine.capabilities().annotations;
    let flags = (settings.codepoints && annotations).then_some(cps.flags);
    let values = cps.values;
    let result = engine.call(move |e| e.encode(&values, flags.as_deref()));
    let stuck = hung(&result);
    (result.map_err(|e| e.to_string()), stuck)
}

fn decode_line(settings: &LineSettings, engine: &Bounded, line: Vec<u8>) -> Answer {
    let result = engine.call(move |e| e.decode(&line));
    let stuck = hung(&result);
    let shown = result.map_err(|e| e.to_string()).and_then(|d: Decoded| {
        if settings.codepoints {
            Ok(CodePoints::from(d).to_string().into_bytes())
        } else {
            utf8::encode(&d.code_points, settings.mode).map_err(|e| {
                format!("{e}; use --codepoints, or --utf8 rfc2279 for values up to 0x7FFFFFFF")
            })
        }
    });
    (shown, stuck)
}
