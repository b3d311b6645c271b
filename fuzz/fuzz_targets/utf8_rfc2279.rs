//! RFC 2279 UTF-8: decoding is unique (no overlong form passes) and errors
//! sit at the longest valid prefix; code points up to 0x7FFFFFFF round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::utf8;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = utf8::rfc2279_roundtrip(data) {
        panic!("{e}");
    }
});
