//! LACE: the encoder follows the rules of section 2.2, and what it writes
//! decodes back to its input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::lace::{self, LaceCodePoints};

fuzz_target!(|data: &[u8]| {
    if let Err(e) = lace::roundtrip(&LaceCodePoints::from_bytes(data).0) {
        panic!("{e}");
    }
});
