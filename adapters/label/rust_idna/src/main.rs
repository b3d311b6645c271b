//! punycheck `label` adapter for the Rust `idna` crate (rust-url), built once
//! per release with a cargo feature:
//!
//! * `--features idna-0-5`: idna 0.5.0, affected by RUSTSEC-2024-0421
//!   (CVE-2024-12224: "idna accepts Punycode labels that do not produce any
//!   non-ASCII when decoded"; affected: 0.5.0 and earlier, patched: >= 1.0.0).
//! * `--features idna-1-1`: idna 1.1.0, the fixed 1.x line (its Unicode data
//!   through idna_adapter 1.2.2 and ICU4X 2.x).
//!
//! Build (not part of the main workspace: own `[workspace]` and Cargo.lock):
//!
//! ```sh
//! cd adapters/label/rust_idna
//! cargo build --release --locked --features idna-0-5
//! cp target/release/punycheck-label-idna ../../build/label-idna-0.5.0
//! cargo build --release --locked --features idna-1-1
//! cp target/release/punycheck-label-idna ../../build/label-idna-1.1.0
//! ```
//!
//! (both builds write the same binary name: copy each before the next).
//! Spec: `pipe:adapters/build/label-idna-0.5.0 [url|strict]` (likewise 1.1.0).
//!
//! What is asked, one label as the whole domain (both releases offer the same
//! top-level functions, so mode `url` asks the same call of each):
//!
//! * mode `url` (default): `idna::domain_to_unicode(label)` and
//!   `idna::domain_to_ascii(label)`: UTS #46 Nontransitional with the URL
//!   Standard's flags, CheckHyphens=false, UseSTD3ASCIIRules=false,
//!   VerifyDnsLength=false, CheckBidi=true; CheckJoiners=true in 1.1.0, and
//!   not implemented in 0.5.0 (its uts46.rs: "V7: ContextJ rules ... TODO").
//! * mode `strict`: CheckHyphens=true, UseSTD3ASCIIRules=true,
//!   VerifyDnsLength=true (ToASCII only). 0.5.0:
//!   `Config::default().use_std3_ascii_rules(true).check_hyphens(true)
//!   .verify_dns_length(true)` then `.to_unicode` / `.to_ascii`; 1.1.0:
//!   `Uts46::new().to_unicode(bytes, AsciiDenyList::STD3, Hyphens::Check)` /
//!   `.to_ascii(bytes, AsciiDenyList::STD3, Hyphens::Check, DnsLength::Verify)`.
//!
//! Failure: ToUnicode returns `(String, Result<(), Errors>)` and ToASCII
//! `Result<String, Errors>`; every `Err` becomes `error <Errors as Debug>`
//! (0.5.0 names the error flags, 1.1.0's `Errors {}` says nothing more). A
//! panic inside the crate is not caught: it is its crash.
//!
//! Protocol (pipe:, one line in, one line out, flushed): `decode LABEL`
//! (LABEL: UTF-8 text after the first space) answers `ok u+XXXX ...`;
//! `encode u+XXXX ...` answers `ok xn--...`. The adapter itself answers
//! `error adapter: ...` for a line that is not a question it can put: a
//! label that is not UTF-8 (both releases take text here), a bad token, a
//! token that is not a Rust `char` (surrogate, above U+10FFFF), an A-label
//! result that is not printable ASCII (with UseSTD3ASCIIRules=false both
//! releases let ASCII controls such as U+000A through), an unknown verb. An
//! empty result is `ok` alone.
//!
//! Escaped verbs: `decodex HEX` is `decode` with the label given as
//! hexadecimal of its UTF-8 bytes (malformed hexadecimal: `error adapter:
//! ...`); `encodex TOKENS` is `encode` with the A-label's bytes answered as
//! lowercase hexadecimal, any byte, so without the printable check.

#[cfg(all(feature = "idna-0-5", feature = "idna-1-1"))]
compile_error!("enable exactly one of the features idna-0-5 and idna-1-1");
#[cfg(not(any(feature = "idna-0-5", feature = "idna-1-1")))]
compile_error!("enable one of the features idna-0-5 and idna-1-1");

use std::io::{self, BufRead, Write};

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Url,
    Strict,
}

#[cfg(feature = "idna-0-5")]
mod lib {
    use super::Mode;
    use idna05 as idna;

    pub const NAME: &str = "idna 0.5.0";

    fn config() -> idna::Config {
        idna::Config::default()
            .use_std3_ascii_rules(true)
            .check_hyphens(true)
            .verify_dns_length(true)
    }

    pub fn to_unicode(mode: Mode, label: &str) -> Result<String, String> {
        let (out, res) = match mode {
            Mode::Url => idna::domain_to_unicode(label),
            Mode::Strict => config().to_unicode(label),
        };
        res.map(|()| out).map_err(|e| format!("{e:?}"))
    }

    pub fn to_ascii(mode: Mode, label: &str) -> Result<String, String> {
        match mode {
            Mode::Url => idna::domain_to_ascii(label),
            Mode::Strict => config().to_ascii(label),
        }
        .map_err(|e| format!("{e:?}"))
    }
}

#[cfg(feature = "idna-1-1")]
mod lib {
    use super::Mode;
    use idna11 as idna;
    use idna11::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

    pub const NAME: &str = "idna 1.1.0";

    pub fn to_unicode(mode: Mode, label: &str) -> Result<String, String> {
        let (out, res) = match mode {
            Mode::Url => idna::domain_to_unicode(label),
            Mode::Strict => {
                let (cow, res) =
                    Uts46::new().to_unicode(label.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
                (cow.into_owned(), res)
            }
        };
        res.map(|()| out).map_err(|e| format!("{e:?}"))
    }

    pub fn to_ascii(mode: Mode, label: &str) -> Result<String, String> {
        match mode {
            Mode::Url => idna::domain_to_ascii(label),
            Mode::Strict => Uts46::new()
                .to_ascii(
                    label.as_bytes(),
                    AsciiDenyList::STD3,
                    Hyphens::Check,
                    DnsLength::Verify,
                )
                .map(|cow| cow.into_owned()),
        }
        .map_err(|e| format!("{e:?}"))
    }
}

/// The U-label of an `encode` question, or the adapter's own refusal.
fn parse_tokens(text: &[u8]) -> Result<String, String> {
    let text =
        std::str::from_utf8(text).map_err(|_| "adapter: tokens are not UTF-8".to_string())?;
    let mut s = String::new();
    for tok in text.split_ascii_whitespace() {
        let hex = tok
            .strip_prefix("u+")
            .or_else(|| tok.strip_prefix("U+"))
            .filter(|h| !h.is_empty() && h.len() <= 8 && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| format!("adapter: bad token \"{}\"", truncate(tok).escape_default()))?;
        let cp = u32::from_str_radix(hex, 16).expect("checked hex");
        let c = char::from_u32(cp)
            .ok_or_else(|| format!("adapter: cannot pass u+{cp:04X} (not a Rust char)"))?;
        s.push(c);
    }
    Ok(s)
}

/// The A-label as the answer line can carry it: printable ASCII only
/// (UseSTD3ASCIIRules=false lets ASCII controls through to the result).
fn printable_ascii(alabel: String) -> Result<String, String> {
    match alabel.chars().find(|c| !(' '..='~').contains(c)) {
        None => Ok(alabel),
        Some(c) => Err(format!(
            "adapter: cannot pass the answer \"{}\": u+{:04X} is not printable ASCII",
            truncate(&alabel).escape_default(),
            c as u32
        )),
    }
}

/// The bytes of an escaped question (`decodex HEX`).
fn from_hex(hex: &[u8]) -> Result<Vec<u8>, String> {
    let digit = |b: u8| (b as char).to_digit(16);
    hex.chunks(2)
        .map(|p| match p {
            [hi, lo] => Some((digit(*hi)? * 16 + digit(*lo)?) as u8),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| "adapter: bad hexadecimal".to_string())
}

/// An escaped answer: the A-label's bytes in lowercase hexadecimal.
fn to_hex(alabel: String) -> String {
    alabel.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The answer to `decode LABEL` (the label's bytes).
fn decode(mode: Mode, label: &[u8]) -> Result<String, String> {
    match std::str::from_utf8(label) {
        Err(_) => Err("adapter: label is not UTF-8".to_string()),
        Ok(label) => lib::to_unicode(mode, label).map(|u| {
            u.chars()
                .map(|c| format!("u+{:04X}", c as u32))
                .collect::<Vec<_>>()
                .join(" ")
        }),
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}

/// One answer line (without the newline) to one question line.
fn answer(mode: Mode, line: &[u8]) -> String {
    let (verb, rest) = match line.iter().position(|&b| b == b' ') {
        Some(p) => (&line[..p], &line[p + 1..]),
        None => (line, &line[line.len()..]),
    };
    let res = match verb {
        b"decode" => decode(mode, rest),
        b"decodex" => from_hex(rest).and_then(|label| decode(mode, &label)),
        b"encode" => parse_tokens(rest)
            .and_then(|ulabel| lib::to_ascii(mode, &ulabel))
            .and_then(printable_ascii),
        b"encodex" => parse_tokens(rest)
            .and_then(|ulabel| lib::to_ascii(mode, &ulabel))
            .map(to_hex),
        _ => Err("adapter: unknown request".to_string()),
    };
    match res {
        Ok(s) if s.is_empty() => "ok".to_string(),
        Ok(s) => format!("ok {s}"),
        // One line of printable words.
        Err(msg) => format!("error {}", msg.replace(['\n', '\r'], " ")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | ["url"] => Mode::Url,
        ["strict"] => Mode::Strict,
        ["--version"] => {
            println!("{}", lib::NAME);
            return;
        }
        _ => {
            eprintln!("usage: punycheck-label-idna [url|strict]   ({})", lib::NAME);
            std::process::exit(2);
        }
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().split(b'\n') {
        let line = line.expect("stdin");
        writeln!(out, "{}", answer(mode, &line))
            .and_then(|()| out.flush())
            .expect("stdout");
    }
}
