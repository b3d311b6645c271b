//! Bootstring with AMC-ACE-Z's parameters against the AMC-ACE-Z draft's C
//! code: raw bytes to decode when the first byte is even, structured code
//! points and flags to encode when it is odd.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::{FuzzRequest, amc};

fuzz_target!(|request: FuzzRequest| {
    if let Err(e) = amc::amc_diff_c(&request.0) {
        panic!("{e}");
    }
});
