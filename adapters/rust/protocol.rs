//! The two modes every punycheck adapter speaks, shared by the Rust adapters
//! (each includes this file with `#[path]`).
//!
//! * `ADAPTER -e` / `ADAPTER -d`: RFC 3492 Appendix C's wrapper convention.
//! * `ADAPTER` (no argument): the pipe protocol, one request a line
//!   (`encode TOKENS` / `decode TEXT`), one `ok RESULT` / `error MESSAGE` line
//!   a request, flushed after each.
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

pub fn main(encode: Encode, decode: Decode) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["-e"] => {
            let mut input = String::new();
            io::stdin().read_to_string(&mut input).expect("stdin");
            match encode(&parse(&input)) {
                Ok(s) => writeln!(out, "{s}").expect("stdout"),
                Err(msg) => {
                    eprintln!("{msg}");
                    std::process::exit(1);
                }
            }
        }
        ["-d"] => {
            let mut input = Vec::new();
            io::stdin().read_to_end(&mut input).expect("stdin");
            let line = input.split(|&b| b == b'\n').next().unwrap_or(&[]);
            match decode(line) {
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
                let answer = match verb {
                    b"encode" => encode(&parse(std::str::from_utf8(rest).expect("ASCII tokens"))),
                    b"decode" => decode(rest).map(|cps| cps.iter().map(token).collect::<Vec<_>>().join(" ")),
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
            eprintln!("usage: ADAPTER [-e|-d]");
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
