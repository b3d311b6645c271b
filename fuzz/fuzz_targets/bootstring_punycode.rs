//! Bootstring with Punycode's parameters against the dedicated Punycode
//! codec, errors compared down to their reason and position: raw bytes to
//! decode when the first byte is even, structured code points and flags to
//! encode when it is odd.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::{FuzzRequest, amc};

fuzz_target!(|request: FuzzRequest| {
    if let Err(e) = amc::bootstring_punycode(&request.0) {
        panic!("{e}");
    }
});
