//! The clean-room code against the RFC's C code: raw bytes to decode when
//! the first byte is even, structured code points to encode when it is odd.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::{self, FuzzRequest};

fuzz_target!(|request: FuzzRequest| {
    if let Err(e) = fuzz::diff_c(&request.0) {
        panic!("{e}");
    }
});
