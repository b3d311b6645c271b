//! The domain reference under any profile: ToASCII then ToUnicode (and
//! back) round trips, and equivalent spellings answer alike.
#![no_main]

use libfuzzer_sys::fuzz_target;
use punycheck::fuzz::domain::{self, NameInput};

fuzz_target!(|input: NameInput| {
    if let Err(e) = domain::properties(&input) {
        panic!("{e}");
    }
});
