//! Inputs at the 32-bit limits: the same answers and error kinds as C.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::{self, OverflowInput};

fuzz_target!(|input: OverflowInput| {
    if let Err(e) = fuzz::overflow(&input) {
        panic!("{e}");
    }
});
