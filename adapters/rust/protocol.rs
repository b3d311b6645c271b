//! The two modes every punycheck adapter speaks, shared by the Rust adapters
//! (each includes this file with `#[path]`).
//!
//! * `ADAPTER -e` / `ADAPTER -d`: RFC 3492 Appendix C's wrapper convention.
//! * `ADAPTER` (no argument): the pipe protocol, one request a line
//!   (`encode TOKENS` / `decode TEXT`), one `ok RESULT` / `error MESSAGE` line
//!   a request, flushed after each.
//! * `ADAPTER -ex` / `ADAPTER -dx` and the pipe verbs `encodex TOKENS` /
//!   `decodex HEX`: the escaped forms, where the encoded text crosses as
//!   lowercase hexadecimal of its bytes, so that any byte can. `decode` gets
//!   the bytes as they are (an adapter whose API takes `&str` reads them with
//!   [`latin1`]); an `encode` result leaves as its UTF-8 bytes.
//!
//! The adapter supplies `encode` (code points and case flags to Punycode) and
//! `decode` (Punycode to code points and case flags); both return `Err` with
//! the message to print (`invalid input`, `arithmetic overflow`, `input or
//! output is too large`, or `failed: ...`).

use std::io::{self, BufRead, Read, Write};

pub type Encode = fn(&[(u32, bool)]) -> Result<String, String>;
pub type Decode = fn(&[u8]) -> Result<Vec<(u32, bool)>, String>;

fn parse(tokens: &str) -> Vec<(u32, bool)> {
    tokens
        .split_ascii_whitespace()
        .map(|tok| {
            let flag = match tok.get(..2) {
                Some("u+") => false,
                Some("U+") => true,
                _ => panic!("bad token {tok}"),
            };
            let cp = u32::from_str_radix(&tok[2..], 16).unwrap_or_else(|_| panic!("bad token {tok}"));
            (cp, flag)
        })
        .collect()
}

fn token(&(cp, flag): &(u32, bool)) -> String {
    format!("{}+{:04X}", if flag { "U" } else { "u" }, cp)
}

/// An escaped answer: the encoded text's bytes in lowercase hexadecimal.
fn to_hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

/// An escaped question: the bytes its hexadecimal spells.
fn from_hex(hex: &[u8]) -> Vec<u8> {
    let digit = |b: u8| (b as char).to_digit(16).unwrap_or_else(|| panic!("bad hex digit {b:#04x}"));
    hex.chunks(2)
        .map(|p| match p {
            [hi, lo] => (digit(*hi) * 16 + digit(*lo)) as u8,
            _ => panic!("odd number of hex digits"),
        })
        .collect()
}

/// Bytes as text, each byte the `char` of the same number (Latin-1): how a
/// `decodex` question reaches an API that takes `&str`.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

pub fn main(encode: Encode, decode: Decode) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [mode @ ("-e" | "-ex")] => {
            let mut input = String::new();
            io::stdin().read_to_string(&mut input).expect("stdin");
            match encode(&parse(&input)) {
                Ok(s) if *mode == "-ex" => writeln!(out, "{}", to_hex(&s)).expect("stdout"),
                Ok(s) => writeln!(out, "{s}").expect("stdout"),
                Err(msg) => {
                    eprintln!("{msg}");
                    std::process::exit(1);
                }
            }
        }
        [mode @ ("-d" | "-dx")] => {
            let mut input = Vec::new();
            io::stdin().read_to_end(&mut input).expect("stdin");
            let line = input.split(|&b| b == b'\n').next().unwrap_or(&[]);
            let line = if *mode == "-dx" { from_hex(line) } else { line.to_vec() };
            match decode(&line) {
                Ok(cps) => {
                    for cp in &cps {
                        writeln!(out, "{}", token(cp)).expect("stdout");
                    }
                }
                Err(msg) => {
                    eprintln!("{msg}");
                    std::process::exit(1);
                }
            }
        }
        [] => {
            let stdin = io::stdin();
            for line in stdin.lock().split(b'\n') {
                let line = line.expect("stdin");
                let (verb, rest) = match line.iter().position(|&b| b == b' ') {
                    Some(p) => (&line[..p], &line[p + 1..]),
                    None => (&line[..], &line[line.len()..]),
                };
                let tokens = |cps: Vec<(u32, bool)>| cps.iter().map(token).collect::<Vec<_>>().join(" ");
                let answer = match verb {
                    b"encode" => encode(&parse(std::str::from_utf8(rest).expect("ASCII tokens"))),
                    b"encodex" => encode(&parse(std::str::from_utf8(rest).expect("ASCII tokens"))).map(|s| to_hex(&s)),
                    b"decode" => decode(rest).map(tokens),
                    b"decodex" => decode(&from_hex(rest)).map(tokens),
                    _ => panic!("unknown request"),
                };
                match answer {
                    Ok(s) if s.is_empty() => writeln!(out, "ok"),
                    Ok(s) => writeln!(out, "ok {s}"),
                    Err(msg) => writeln!(out, "error {msg}"),
                }
                .and_then(|()| out.flush())
                .expect("stdout");
            }
        }
        _ => {
            eprintln!("usage: ADAPTER [-e|-d|-ex|-dx]");
            std::process::exit(2);
        }
    }
}

/// Code points as `char`s, or the adapter's own refusal for a value that a
/// `char` cannot hold (a surrogate or a value above U+10FFFF).
pub fn chars(cps: &[(u32, bool)]) -> Result<Vec<char>, String> {
    cps.iter()
        .map(|&(cp, _)| {
            char::from_u32(cp).ok_or_else(|| format!("failed: adapter: u+{cp:04X} is not a Rust char"))
        })
        .collect()
}
