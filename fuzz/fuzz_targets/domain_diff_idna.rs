//! The idna crate's UTS #46 on whole domain names against the domain
//! reference, as `check` judges it, properties included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::domain::{self, NameInput};

fuzz_target!(|input: NameInput| {
    if let Err(e) = domain::diff_idna(&input) {
        panic!("{e}");
    }
});
