//! Compiles the C references in `csrc/` with every global symbol prefixed.
//!
//! `csrc/punycode.c` is RFC 3492 Appendix C exactly as published (a test
//! re-extracts it from `vectors/rfc3492.txt`). It is never edited: its public
//! functions and its test wrapper's `main` are renamed with `-D` so that no
//! unprefixed symbol reaches the link, and the test
//! `c_reference::tests::no_unprefixed_symbols` checks the archive with `nm`.
//!
//! The same file is also compiled as it stands into the RFC's own test
//! program, `$OUT_DIR/rfc3492-wrapper`, which speaks the command-line
//! convention that `exec:` implementations follow.

use std::env;
use std::path::PathBuf;

fn rfc3492_library() {
    cc::Build::new()
        .file("csrc/punycode.c")
        .define("punycode_encode", "punycheck_rfc3492_encode")
        .define("punycode_decode", "punycheck_rfc3492_decode")
        // The test wrapper's main stays in the object under a prefixed name; it
        // is never called from Rust.
        .define("main", "punycheck_rfc3492_main")
        .flag_if_supported("-std=c89")
        .warnings(true)
        // The published code mixes char and punycode_uint in a conditional on
        // purpose (line 195); the warning says nothing about our build.
        .flag_if_supported("-Wno-sign-compare")
        .compile("rfc3492");
}

/// The RFC's test wrapper as a program: Appendix C with its own `main`.
fn rfc3492_wrapper() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let program = out.join("rfc3492-wrapper");
    let compiler = cc::Build::new().opt_level(2).get_compiler();
    let status = compiler
        .to_command()
        .args(["-std=c89", "-O2", "-o"])
        .arg(&program)
        .arg("csrc/punycode.c")
        .status()
        .expect("the C compiler runs");
    assert!(
        status.success(),
        "compiling the RFC 3492 test wrapper failed"
    );
    println!(
        "cargo:rustc-env=PUNYCHECK_RFC3492_WRAPPER={}",
        program.display()
    );
}

fn main() {
    println!("cargo:rerun-if-changed=csrc/punycode.c");
    rfc3492_library();
    rfc3492_wrapper();
}
