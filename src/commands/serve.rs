//! `punycheck serve --impl SPEC`: an implementation answering the `pipe:`
//! protocol on standard input and output, so that a program in another
//! language can ask punycheck's references (or any built-in) a question a
//! line: `encode TOKENS` or `decode TEXT` (or their escaped forms,
//! `encodex TOKENS` and `decodex HEX`), answered `ok RESULT` or `error
//! MESSAGE`, one line each, flushed ([`crate::commands`]'s docs of the
//! protocol are in docs/checking.md).

use std::io::{BufRead, Write};

use super::{Outcome, Status, Stop};
use crate::config::Implementation;
use punycheck::codec::Codec;
use punycheck::engines::{self, Engine, EngineError};
use punycheck::label::{self, LabelError, LabelRules};
use punycheck::vocabulary::CodePoints;

/// Answers the questions of `input` on `output` until the end of input.
pub fn run(
    codec: Codec,
    implementation: &Implementation,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Outcome {
    let engine = engines::from_spec(
        &implementation.spec_or_cleanroom(),
        &implementation.options(codec)?,
    )
    .map_err(|e| e.to_string())?;
    let closed = |_| Stop::Closed;
    for line in input.split(b'\n') {
        let mut line = line.map_err(|e| Stop::Setup(format!("cannot read standard input: {e}")))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let answer = answer(codec, engine.as_ref(), &line);
        output.write_all(answer.as_bytes()).map_err(closed)?;
        output.write_all(b"\n").map_err(closed)?;
        output.flush().map_err(closed)?;
    }
    Ok(Status::Conforming)
}

/// The answer line to one question line.
fn answer(codec: Codec, engine: &dyn Engine, line: &[u8]) -> String {
    let (verb, rest) = match line.iter().position(|&b| b == b' ') {
        Some(at) => (&line[..at], &line[at + 1..]),
        None => (line, &b""[..]),
    };
    // The escaped verbs (`encodex`, `decodex`) carry the encoded text in
    // hexadecimal, so that every byte crosses.
    let escaped = matches!(verb, b"encodex" | b"decodex");
    let unescaped;
    let rest = if verb == b"decodex" {
        match std::str::from_utf8(rest)
            .ok()
            .and_then(|text| punycheck::vocabulary::parse_hex(text).ok())
        {
            Some(bytes) => {
                unescaped = bytes;
                &unescaped[..]
            }
            None => return "error failed: not a question: decodex takes hexadecimal bytes".into(),
        }
    } else {
        rest
    };
    let result = match verb {
        b"encode" | b"encodex" => match std::str::from_utf8(rest)
            .map_err(|_| "the tokens are not UTF-8".to_string())
            .and_then(|text| CodePoints::parse(text).map_err(|e| e.to_string()))
        {
            Ok(cps) => {
                let flags = engine.capabilities().annotations.then_some(cps.flags);
                engine
                    .encode(&cps.values, flags.as_deref())
                    .map(|bytes| {
                        if escaped {
                            bytes.iter().map(|b| format!("{b:02x}")).collect()
                        } else {
                            String::from_utf8_lossy(&bytes).into_owned()
                        }
                    })
                    .map_err(|e| {
                        let why = codec.label_profile().and_then(|p| {
                            label::to_ascii(p, &cps.values).err().map(|e| (e, p.rules))
                        });
                        message(&e, why)
                    })
            }
            Err(e) => Err(format!("failed: not a question: {e}")),
        },
        b"decode" | b"decodex" => engine
            .decode(rest)
            .map(|decoded| CodePoints::from(decoded).to_string())
            .map_err(|e| {
                let why = codec
                    .label_profile()
                    .and_then(|p| label::to_unicode(p, rest).err().map(|e| (e, p.rules)));
                message(&e, why)
            }),
        _ => Err(
            "failed: not a question: the verb is none of encode, decode, encodex and decodex"
                .into(),
        ),
    };
    match result {
        Ok(text) if text.is_empty() => "ok".into(),
        Ok(text) => format!("ok {text}"),
        Err(message) => format!("error {message}"),
    }
}

/// A refusal in the protocol's words: a label's rule when the reference
/// names one (`why`), the RFC wrapper's messages for the kinds, `failed:
/// ...` for the rest.
fn message(error: &EngineError, why: Option<(LabelError, LabelRules)>) -> String {
    if let Some((why, rules)) = why {
        return format!("failed: {}", why.explained(rules));
    }
    match error {
        EngineError::Rejected(Some(kind)) => match kind {
            punycheck::punycode::ErrorKind::BadInput => "invalid input".into(),
            punycheck::punycode::ErrorKind::Overflow => "arithmetic overflow".into(),
            punycheck::punycode::ErrorKind::BigOutput => "input or output is too large".into(),
        },
        EngineError::Limit(why) => format!("input or output is too large: {why}"),
        other => format!("failed: {other}"),
    }
}
