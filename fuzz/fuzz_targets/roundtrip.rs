//! decode(encode(x)) == x, with and without Appendix A flags.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::{self, CodePointInput};

fuzz_target!(|input: CodePointInput| {
    if let Err(e) = fuzz::roundtrip(&input) {
        panic!("{e}");
    }
});
