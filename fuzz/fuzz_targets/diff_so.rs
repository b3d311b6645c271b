//! Any C library with Appendix C's functions against the RFC's C code, in
//! this process: `PUNYCHECK_SO=PATH[:PREFIX][:lengths=size_t]` names it
//! (the RFC's code as a library when unset), `PUNYCHECK_SO_DECLARE` holds
//! its declaration as command-line options. Compile the library with
//! `-fsanitize=fuzzer-no-link,address` for coverage and AddressSanitizer;
//! the buffers end at guard pages either way (see docs/fuzzing.md). With
//! `PUNYCHECK_SO_SHOW=1` each question the library is asked (the property
//! checks' too) is printed first, as the `punycheck repro` command that
//! asks it: the last one before a crash is the question that crashed.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use punycheck::engines::Engine;
use punycheck::engines::so::InProcess;
use punycheck::fuzz::FuzzRequest;
use punycheck::fuzz::engines::{Shown, diff_engine, so_from_env};

static LIBRARY: OnceLock<(InProcess, String)> = OnceLock::new();
static SHOW: OnceLock<bool> = OnceLock::new();

fuzz_target!(
    init: {
        match so_from_env() {
            Ok(loaded) => {
                eprintln!("diff_so: fuzzing {}", loaded.1);
                let _ = LIBRARY.set(loaded);
                let _ = SHOW.set(std::env::var_os("PUNYCHECK_SO_SHOW").is_some());
            }
            Err(e) => {
                eprintln!("diff_so: {e}");
                std::process::exit(2);
            }
        }
    },
    |request: FuzzRequest| {
        let (engine, replay) = LIBRARY.get().expect("loaded in init");
        let shown = Shown {
            inner: engine,
            replay,
        };
        let engine: &dyn Engine = if SHOW.get() == Some(&true) {
            &shown
        } else {
            engine
        };
        if let Err(e) = diff_engine(engine, &request.0, true, replay) {
            panic!("{e}");
        }
    }
);
