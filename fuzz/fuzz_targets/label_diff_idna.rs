//! The idna crate's UTS #46 on one label against the label reference, as
//! `check` judges it, properties included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::label::{self, LabelInput};

fuzz_target!(|input: LabelInput| {
    if let Err(e) = label::diff_idna(&input) {
        panic!("{e}");
    }
});
