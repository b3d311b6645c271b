//! UTF-8 strict mode decodes exactly like std::str::from_utf8 (values,
//! valid_up_to, error_len), and RFC 2279 mode accepts all of it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::utf8;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = utf8::strict_matches_std(data) {
        panic!("{e}");
    }
});
