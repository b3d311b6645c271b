//! ICU against the RFC's C code, its declared limits and listed deviation
//! applied.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::FuzzRequest;
use punycheck::fuzz::engines::diff_icu;

fuzz_target!(|request: FuzzRequest| {
    if let Err(e) = diff_icu(&request.0) {
        panic!("{e}");
    }
});
