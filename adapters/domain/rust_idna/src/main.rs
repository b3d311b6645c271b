//! punycheck `domain` adapter for the Rust `idna` crate 1.1.0 (rust-url) on
//! whole domain names, its Unicode data through idna_adapter 1.2.2 and ICU4X.
//!
//! Build (not part of the main workspace: own `[workspace]` and Cargo.lock;
//! `adapters/install.sh` does it):
//!
//! ```sh
//! cd adapters/domain/rust_idna
//! cargo build --release --locked
//! cp target/release/punycheck-domain-idna ../../build/domain-idna-1.1.0
//! ```
//!
//! Spec: `pipe:adapters/build/domain-idna-1.1.0 [url|strict]`.
//!
//! What is asked, the whole name at once:
//!
//! * mode `url` (default): `idna::domain_to_ascii_cow(name,
//!   AsciiDenyList::EMPTY)` (lib.rs: `Uts46::to_ascii` with
//!   `Hyphens::Allow, DnsLength::Ignore`; what `domain_to_ascii` calls) and
//!   `idna::domain_to_unicode(name)` (`Uts46::to_unicode` with
//!   `AsciiDenyList::EMPTY, Hyphens::Allow`): UTS #46 Nontransitional with
//!   CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength false, CheckBidi and
//!   CheckJoiners true: the URL Standard's switches, without the URL
//!   Standard's forbidden domain code points (the `url` crate passes
//!   `AsciiDenyList::URL`; `EMPTY` is UTS #46's own UseSTD3ASCIIRules=false).
//! * mode `strict`: `Uts46::new().to_ascii(name, AsciiDenyList::STD3,
//!   Hyphens::Check, DnsLength::Verify)` (what `domain_to_ascii_strict`
//!   calls) and `Uts46::new().to_unicode(name, AsciiDenyList::STD3,
//!   Hyphens::Check)`: every switch on.
//!
//! Failure: ToUnicode returns `(Cow<str>, Result<(), Errors>)` and ToASCII
//! `Result<Cow<str>, Errors>`; every `Err` becomes `error <Errors as Debug>`
//! (`Errors`, which says nothing more). A panic inside the crate is not
//! caught: it is its crash.
//!
//! Protocol (pipe:, one line in, one line out, flushed): `encode TOKENS`
//! answers `ok NAME` (ToASCII), `decode TOKENS` answers `ok TOKENS`
//! (ToUnicode), TOKENS being `u+XXXX` code points separated by spaces;
//! `encodex TOKENS` is `encode` answered `ok HEX`, the answer's bytes in
//! hexadecimal whatever they are (asked for a name that is not printable
//! ASCII: UseSTD3ASCIIRules=false lets ASCII controls through). The
//! adapter itself answers `error adapter: ...` for a bad token, a token that
//! is not a Rust `char` (a surrogate, above U+10FFFF), an answer to `encode`
//! (not `encodex`) that is not printable ASCII, an unknown verb. An empty
//! result is `ok` alone.

use std::io::{self, BufRead, Write};

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Url,
    Strict,
}

fn to_ascii(mode: Mode, name: &str) -> Result<String, String> {
    match mode {
        Mode::Url => idna::domain_to_ascii_cow(name.as_bytes(), AsciiDenyList::EMPTY),
        Mode::Strict => Uts46::new().to_ascii(
            name.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::Verify,
        ),
    }
    .map(|cow| cow.into_owned())
    .map_err(|e| format!("{e:?}"))
}

fn to_unicode(mode: Mode, name: &str) -> Result<String, String> {
    let (out, res) = match mode {
        Mode::Url => idna::domain_to_unicode(name),
        Mode::Strict => {
            let (cow, res) =
                Uts46::new().to_unicode(name.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
            (cow.into_owned(), res)
        }
    };
    res.map(|()| out).map_err(|e| format!("{e:?}"))
}

/// The name of a question, or the adapter's own refusal.
fn parse_tokens(text: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(text).map_err(|_| "adapter: bad token".to_string())?;
    let mut s = String::new();
    for tok in text.split_ascii_whitespace() {
        let hex = tok
            .strip_prefix("u+")
            .or_else(|| tok.strip_prefix("U+"))
            .filter(|h| !h.is_empty() && h.len() <= 8 && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| "adapter: bad token".to_string())?;
        let cp = u32::from_str_radix(hex, 16).expect("checked hex");
        let c = char::from_u32(cp)
            .ok_or_else(|| format!("adapter: cannot pass u+{cp:04X} (not a Rust char)"))?;
        s.push(c);
    }
    Ok(s)
}

fn printable_ascii(name: String) -> Result<String, String> {
    if name.bytes().all(|b| (0x20..=0x7E).contains(&b)) {
        Ok(name)
    } else {
        Err("adapter: the answer is not printable ASCII".to_string())
    }
}

fn tokens(name: &str) -> String {
    name.chars()
        .map(|c| format!("u+{:04X}", c as u32))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One answer line (without the newline) to one question line.
fn answer(mode: Mode, line: &[u8]) -> String {
    let (verb, rest) = match line.iter().position(|&b| b == b' ') {
        Some(p) => (&line[..p], &line[p + 1..]),
        None => (line, &line[line.len()..]),
    };
    let res = match verb {
        b"encode" => parse_tokens(rest)
            .and_then(|name| to_ascii(mode, &name))
            .and_then(printable_ascii),
        b"encodex" => parse_tokens(rest)
            .and_then(|name| to_ascii(mode, &name))
            .map(|out| out.bytes().map(|b| format!("{b:02x}")).collect()),
        b"decode" => parse_tokens(rest)
            .and_then(|name| to_unicode(mode, &name))
            .map(|u| tokens(&u)),
        _ => Err("adapter: unknown request".to_string()),
    };
    match res {
        Ok(s) if s.is_empty() => "ok".to_string(),
        Ok(s) => format!("ok {s}"),
        Err(msg) => format!("error {}", msg.replace(['\n', '\r'], " ")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] | ["url"] => Mode::Url,
        ["strict"] => Mode::Strict,
        ["--version"] => {
            println!("idna 1.1.0");
            return;
        }
        _ => {
            eprintln!("usage: punycheck-domain-idna [url|strict]   (idna 1.1.0)");
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
