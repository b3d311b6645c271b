//! ICU's uidna_nameToASCII and uidna_nameToUnicode against the domain
//! reference, as `check` judges it: ICU's listed deviations and Unicode
//! version applied, properties included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::domain::{self, NameInput};

fuzz_target!(|input: NameInput| {
    if let Err(e) = domain::diff_icu(&input) {
        panic!("{e}");
    }
});
