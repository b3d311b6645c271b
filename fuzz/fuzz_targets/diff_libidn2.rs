//! The system's libidn2 against the RFC's C code, its listed deviations
//! applied.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::FuzzRequest;
use punycheck::fuzz::engines::diff_libidn2;

fuzz_target!(|request: FuzzRequest| {
    if let Err(e) = diff_libidn2(&request.0) {
        panic!("{e}");
    }
});
