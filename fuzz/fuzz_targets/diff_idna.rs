//! The idna crate against the clean-room code, divergence classes applied.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::{self, FuzzRequest};

fuzz_target!(|request: FuzzRequest| {
    if let Err(e) = fuzz::diff_idna(&request.0) {
        panic!("{e}");
    }
});
