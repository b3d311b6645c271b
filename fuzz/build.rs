//! `diff_so` loads a C library at run time that may be compiled with
//! `-fsanitize=fuzzer-no-link,address`: its coverage and sanitizer hooks
//! (`__sanitizer_cov_*`, `__asan_*`) must resolve to the fuzzer and
//! AddressSanitizer linked into the target, so the target exports its
//! symbols (`-rdynamic`). The other targets link nothing at run time.

fn main() {
    println!("cargo:rustc-link-arg-bin=diff_so=-rdynamic");
}
