//! The built-ins of the system libraries, libidn2 and ICU: a build with
//! their cargo features where the build script did not find a library
//! (pkg-config does not know it) leaves its built-in out, and the tests
//! that need it with it (`engines_sys.rs`, parts of `label.rs`,
//! `domain.rs` and the unit tests). This test says so in `cargo test`'s
//! output, and fails instead under `PUNYCHECK_ADAPTERS=all`, which CI
//! sets after installing both.

use std::io::Write;

use punycheck::codec::Codec;
use punycheck::engines::{left_out, missing_for};

#[test]
fn a_system_library_left_out_is_said_to_be_skipped() {
    let required = std::env::var("PUNYCHECK_ADAPTERS").is_ok_and(|v| v == "all");
    for name in ["libidn2", "icu"] {
        if !left_out(name) {
            continue;
        }
        let why = missing_for(Codec::Punycode)
            .into_iter()
            .find(|m| m.name == name)
            .map(|m| m.why)
            .expect("a built-in left out is missing");
        assert!(
            !required,
            "the built-in {name}: {why}; PUNYCHECK_ADAPTERS=all requires it"
        );
        // Not captured by libtest, so that it shows beside the passes.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED the tests of the built-in {name}: {why} (PUNYCHECK_ADAPTERS=all makes this a failure)"
        );
    }
}
