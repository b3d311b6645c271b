//! LACE: every string the strict decoder accepts is the one the encoder
//! writes (section 3).
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::lace::{self, AceInput};

fuzz_target!(|data: &[u8]| {
    if let Err(e) = lace::uniqueness(&AceInput::from_bytes(data).0) {
        panic!("{e}");
    }
});
