//! punycheck adapter for the `punycode` crate 0.4.1 (mcarton/rust-punycode):
//! `punycode::encode(&str) -> Result<String, ()>` and
//! `punycode::decode(&str) -> Result<String, ()>`.
//!
//! Build: `CARGO_TARGET_DIR=/work/target-adapters cargo build --release --locked
//! --manifest-path adapters/rust/punycode_0_4_1/Cargo.toml` (adapters/install.sh
//! does this and copies the binary to adapters/build/punycode-0.4.1). A release
//! build, as users ship it: its unchecked `delta += 1` wraps there (a debug
//! build panics instead).
//!
//! Supports encode and decode; no case flags (U+ is sent as u+, decoded code
//! points are printed u+); `str` holds Unicode scalar values only, so the
//! adapter refuses other tokens itself ("failed: adapter: ..."). Errors: `Err(())`
//! for everything, so "failed: Err(())". Modes: see ../../protocol.rs.

#[path = "../../protocol.rs"]
mod protocol;

fn encode(cps: &[(u32, bool)]) -> Result<String, String> {
    let s: String = protocol::chars(cps)?.into_iter().collect();
    punycode::encode(&s).map_err(|()| "failed: Err(())".to_string())
}

fn decode(text: &[u8]) -> Result<Vec<(u32, bool)>, String> {
    // A str: the question's bytes read as Latin-1 (printable ASCII unless escaped).
    punycode::decode(&protocol::latin1(text))
        .map(|s| s.chars().map(|c| (c as u32, false)).collect())
        .map_err(|()| "failed: Err(())".to_string())
}

fn main() {
    protocol::main(encode, decode)
}
