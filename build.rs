//! Compiles the C references in `csrc/` with every global symbol prefixed.
//!
//! `csrc/punycode.c` is RFC 3492 Appendix C exactly as published (a test
//! re-extracts it from `vectors/rfc3492.txt`). It is never edited: its public
//! functions and its test wrapper's `main` are renamed with `-D` so that no
//! unprefixed symbol reaches the link, and the test
//! `c_reference::tests::no_unprefixed_symbols` checks the archive with `nm`.

fn main() {
    println!("cargo:rerun-if-changed=csrc/punycode.c");
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
