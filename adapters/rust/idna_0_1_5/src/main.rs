//! punycheck adapter for the Punycode module of the `idna` crate 0.1.5
//! (rust-url, 2018): `idna::punycode::encode(&[char]) -> Option<String>` and
//! `idna::punycode::decode(&str) -> Option<Vec<char>>`.
//!
//! Build: `CARGO_TARGET_DIR=/work/target-adapters cargo build --release --locked
//! --manifest-path adapters/rust/idna_0_1_5/Cargo.toml` (adapters/install.sh
//! does this and copies the binary to adapters/build/idna-0.1.5). A release
//! build: its `delta += 1; if delta == 0` overflow check relies on wrapping,
//! which a debug build turns into a panic.
//!
//! Supports encode and decode; no case flags (U+ is sent as u+, decoded code
//! points are printed u+); `char` holds Unicode scalar values only, so the
//! adapter refuses other tokens itself ("failed: adapter: ..."). Errors: `None`
//! for everything, so "failed: None". Modes: see ../../protocol.rs.

#[path = "../../protocol.rs"]
mod protocol;

use idna::punycode;

fn encode(cps: &[(u32, bool)]) -> Result<String, String> {
    punycode::encode(&protocol::chars(cps)?).ok_or_else(|| "failed: None".to_string())
}

fn decode(text: &[u8]) -> Result<Vec<(u32, bool)>, String> {
    // A str: the question's bytes read as Latin-1 (printable ASCII unless escaped).
    punycode::decode(&protocol::latin1(text))
        .map(|chars| chars.into_iter().map(|c| (c as u32, false)).collect())
        .ok_or_else(|| "failed: None".to_string())
}

fn main() {
    protocol::main(encode, decode)
}
