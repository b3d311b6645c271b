//! Every accepted Punycode string re-encodes to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = fuzz::uniqueness(data) {
        panic!("{e}");
    }
});
