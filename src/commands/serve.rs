//! `punycheck serve --impl SPEC`: an implementation answering the `pipe:`
//! protocol on standard input and output, so that a program in another
//! language can ask punycheck's references (or any built-in) a question a
//! line: `encode TOKENS` or `decode TEXT` (or their escaped forms,
//! `encodex TOKENS` and `decodex HEX`; for the `domain` codec `decode
//! TOKENS`, the name's code points), answered `ok RESULT` or `error
//! MESSAGE`, one line each, flushed ([`crate::commands`]'s docs of the
//! protocol are in docs/checking.md).

use std::io::{BufRead, Write};

use super::{Outcome, Status, Stop};
use crate::config::Implementation;
use punycheck::codec::Codec;
use punycheck::domain::{self, Refusal};
use punycheck::engines::{self, Engine, EngineError};
use punycheck::vocabulary::{CodePoints, Request};

/// Answers the questions of `input` on `output` until the end of input.
pub fn run(
    codec: Codec,
    implementation: &Implementation,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Outcome {
    let engine = engines::from_spec(
        &implementation.spec_or_cleanroom(codec),
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
        b"encode" | b"encodex" => match tokens(rest) {
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
                        let request = Request::Encode {
                            code_points: cps.values.clone(),
                            flags: None,
                        };
                        message(&e, codec, domain::refusal(codec, &request))
                    })
            }
            Err(e) => Err(format!("failed: not a question: {e}")),
        },
        b"decode" | b"decodex" => match name_text(codec, rest) {
            Ok(text) => engine
                .decode(&text)
                .map(|decoded| CodePoints::from(decoded).to_string())
                .map_err(|e| {
                    let request = Request::Decode(text.clone());
                    message(&e, codec, domain::refusal(codec, &request))
                }),
            Err(why) => Err(why),
        },
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

/// The code points a question's tokens name.
fn tokens(rest: &[u8]) -> Result<CodePoints, String> {
    std::str::from_utf8(rest)
        .map_err(|_| "the tokens are not UTF-8".to_string())
        .and_then(|text| CodePoints::parse(text).map_err(|e| e.to_string()))
}

/// What a `decode` question asks to decode: its text as it is, or for the
/// `domain` codec the name whose code points its tokens are, as UTF-8.
fn name_text(codec: Codec, rest: &[u8]) -> Result<Vec<u8>, String> {
    if !codec.is_domain() {
        return Ok(rest.to_vec());
    }
    let cps = tokens(rest).map_err(|e| format!("failed: not a question: {e}"))?;
    cps.values
        .iter()
        .map(|&cp| char::from_u32(cp))
        .collect::<Option<String>>()
        .map(String::into_bytes)
        .ok_or_else(|| "failed: not a question: a code point is not a Unicode scalar value".into())
}

/// A refusal in the protocol's words: a label's or a name's rule when the
/// reference names one (`why`), the RFC wrapper's messages for the kinds,
/// `failed: ...` for the rest.
fn message(error: &EngineError, codec: Codec, why: Option<Refusal>) -> String {
    if let (Some(why), Some(profile)) = (why, codec.label_profile()) {
        return format!("failed: {}", why.explained(profile.rules));
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
