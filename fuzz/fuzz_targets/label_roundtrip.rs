//! The label reference under any profile: ToASCII then ToUnicode (and
//! back) round trips, and its properties.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::label::{self, LabelInput};

fuzz_target!(|input: LabelInput| {
    if let Err(e) = label::roundtrip(&input) {
        panic!("{e}");
    }
});
