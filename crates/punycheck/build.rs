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
//! convention that `exec:` implementations follow, and into a shared
//! library, `$OUT_DIR/librfc3492.so`, with Appendix C's own symbol names,
//! for the `so:` engine (loaded at run time, never linked).
//!
//! `csrc/amc_ace_z.c` is the sample code of draft-ietf-idn-amc-ace-z-01
//! Appendix C (AMC-ACE-Z 0.3.1), with the line breaks that the project's
//! copy of the draft lost restored and otherwise token for token as
//! published (a test compares the token streams). It is compiled the same
//! way, prefixed `punycheck_amc_ace_z_*`, and as its own test program,
//! `$OUT_DIR/amc-ace-z-wrapper`.

use std::env;
use std::path::PathBuf;

/// Under cargo-fuzz (`--cfg fuzzing`), the C reference is compiled by clang
/// with libFuzzer's coverage instrumentation, and with AddressSanitizer when
/// the Rust side has it (`cfg(sanitize = "address")`, cargo-fuzz's default),
/// so that the fuzzer sees C branches and C memory errors: cargo-fuzz itself
/// only sets RUSTFLAGS.
fn fuzzing_flags(build: &mut cc::Build) -> &mut cc::Build {
    println!("cargo:rerun-if-env-changed=CARGO_CFG_FUZZING");
    println!("cargo:rerun-if-env-changed=CARGO_CFG_SANITIZE");
    if env::var_os("CARGO_CFG_FUZZING").is_some() {
        build
            .compiler("clang")
            .flag("-fsanitize=fuzzer-no-link")
            .flag("-fno-omit-frame-pointer")
            .flag("-g");
        let sanitizers = env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
        if sanitizers.split(',').any(|s| s == "address") {
            build.flag("-fsanitize=address");
        }
    }
    build
}

fn rfc3492_library() {
    fuzzing_flags(&mut cc::Build::new())
        .file("csrc/punycode.c")
        // At -O2 whatever the build's profile: its encoder is the cost
        // probe's measure of the machine (src/harness/calibration.rs), which
        // a test build and a release build must take alike.
        .opt_level(2)
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

/// The draft's sample code, under the same rules as the RFC's: its two
/// public functions and its wrapper's `main` renamed with `-D`.
fn amc_ace_z_library() {
    fuzzing_flags(&mut cc::Build::new())
        .file("csrc/amc_ace_z.c")
        .define("amc_ace_z_encode", "punycheck_amc_ace_z_encode")
        .define("amc_ace_z_decode", "punycheck_amc_ace_z_decode")
        .define("main", "punycheck_amc_ace_z_main")
        .flag_if_supported("-std=c89")
        .warnings(true)
        .compile("amc_ace_z");
}

/// Compiles one C sample as it stands, with its own test wrapper's `main`,
/// into `$OUT_DIR/<program>`, and tells the crate where it is in `env`.
fn sample_wrapper(source: &str, program: &str, env: &str) {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out.join(program);
    let compiler = cc::Build::new().opt_level(2).get_compiler();
    let status = compiler
        .to_command()
        .args(["-std=c89", "-O2", "-o"])
        .arg(&path)
        .arg(source)
        .status()
        .expect("the C compiler runs");
    assert!(
        status.success(),
        "compiling the test wrapper of {source} failed"
    );
    println!("cargo:rustc-env={env}={}", path.display());
}

/// RFC 3492 Appendix C as a shared library, `$OUT_DIR/librfc3492.so`,
/// exporting `punycode_encode` and `punycode_decode` as published (the
/// wrapper's `main` renamed): a `so:` library that is right by definition,
/// for the `diff_so` fuzz target when no other library is named, and for
/// tests. It is loaded with `dlopen`, never linked. Only these flags reach
/// the compiler (no sanitizer runtime of its own that would clash with the
/// loading process's); under cargo-fuzz it is compiled by clang with the
/// fuzzer's coverage and, with the Rust side's AddressSanitizer, with
/// AddressSanitizer, both resolved in the fuzz target that loads it.
fn rfc3492_shared_library() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out.join("librfc3492.so");
    let mut command = if env::var_os("CARGO_CFG_FUZZING").is_some() {
        let mut clang = std::process::Command::new("clang");
        clang.args(["-fsanitize=fuzzer-no-link", "-g"]);
        let sanitizers = env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
        if sanitizers.split(',').any(|s| s == "address") {
            clang.arg("-fsanitize=address");
        }
        clang
    } else {
        let compiler = cc::Build::new().get_compiler();
        std::process::Command::new(compiler.path())
    };
    let status = command
        .args([
            "-std=c89",
            "-O2",
            "-shared",
            "-fPIC",
            "-Dmain=rfc3492_wrapper_main",
            "-o",
        ])
        .arg(&path)
        .arg("csrc/punycode.c")
        .status()
        .expect("the C compiler runs");
    assert!(
        status.success(),
        "compiling csrc/punycode.c as a shared library failed"
    );
    println!("cargo:rustc-env=PUNYCHECK_RFC3492_SO={}", path.display());
}

/// Asks `pkg-config` about `package`: its include directories and its link
/// flags, or `None` when pkg-config or the package's `.pc` file is missing.
fn pkg_config(package: &str) -> Option<(Vec<PathBuf>, Vec<String>)> {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let run = |flag: &str| -> Option<Vec<String>> {
        let out = std::process::Command::new("pkg-config")
            .args([flag, package])
            .output()
            .ok()?;
        out.status.success().then(|| {
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .map(str::to_string)
                .collect()
        })
    };
    let cflags = run("--cflags")?;
    let libs = run("--libs")?;
    let includes = cflags
        .iter()
        .filter_map(|f| f.strip_prefix("-I"))
        .map(PathBuf::from)
        .collect();
    Some((includes, libs))
}

/// Compiles a shim from `csrc/` against a system library and links the
/// library: with pkg-config's flags for `package` when it knows it, else
/// with `-l<fallback_lib>` from the default paths.
fn system_shim(file: &str, name: &str, package: &str, fallback_lib: &str) {
    println!("cargo:rerun-if-changed={file}");
    let (includes, libs) =
        pkg_config(package).unwrap_or_else(|| (Vec::new(), vec![format!("-l{fallback_lib}")]));
    cc::Build::new()
        .file(file)
        .includes(&includes)
        .warnings(true)
        .extra_warnings(true)
        .compile(name);
    // After the shim's archive, so that the linker resolves its references.
    for flag in libs {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        }
    }
}

/// libidn2's Punycode coder through `csrc/idn2_punycode_shim.c`, which binds
/// the versioned compatibility symbols `_idn2_punycode_*@IDN2_0.0.0` and
/// exports them as `punycheck_idn2_*` (Debian package libidn2-dev). Only
/// with the cargo feature `libidn2` (a default one).
fn libidn2() {
    system_shim(
        "csrc/idn2_punycode_shim.c",
        "idn2_punycode_shim",
        "libidn2",
        "idn2",
    );
}

/// ICU's Punycode coder through `csrc/icu_punycode_shim.c`, whose prototypes
/// ICU's own headers rename to the installed version's symbols
/// (`u_strToPunycode_72`, ...), exported as `punycheck_icu_*` (Debian
/// package libicu-dev). Only with the cargo feature `icu` (a default one).
fn icu() {
    system_shim(
        "csrc/icu_punycode_shim.c",
        "icu_punycode_shim",
        "icu-uc",
        "icuuc",
    );
}

/// ada-url's Punycode through `csrc/ada_punycode_shim.cpp`, exported as
/// `punycheck_ada_*`. Only with the cargo feature `ada` (a default one), which
/// brings in the `ada-url` crate: it compiles ada's bundled `ada.cpp` into
/// the static library `ada` and links it, after this shim's archive, since
/// the crate depends on nothing of ours (`src/bench/ada.rs` names the crate so
/// that it is linked).
fn ada() {
    println!("cargo:rerun-if-changed=csrc/ada_punycode_shim.cpp");
    cc::Build::new()
        .cpp(true)
        .file("csrc/ada_punycode_shim.cpp")
        .std("c++17")
        .warnings(true)
        .compile("ada_punycode_shim");
}

fn main() {
    println!("cargo:rerun-if-changed=csrc/punycode.c");
    println!("cargo:rerun-if-changed=csrc/amc_ace_z.c");
    rfc3492_library();
    sample_wrapper(
        "csrc/punycode.c",
        "rfc3492-wrapper",
        "PUNYCHECK_RFC3492_WRAPPER",
    );
    rfc3492_shared_library();
    amc_ace_z_library();
    sample_wrapper(
        "csrc/amc_ace_z.c",
        "amc-ace-z-wrapper",
        "PUNYCHECK_AMC_ACE_Z_WRAPPER",
    );
    // Only the system libraries of enabled features are looked for, so a
    // build without them (`--no-default-features`) needs neither.
    if env::var_os("CARGO_FEATURE_LIBIDN2").is_some() {
        libidn2();
    }
    if env::var_os("CARGO_FEATURE_ICU").is_some() {
        icu();
    }
    if env::var_os("CARGO_FEATURE_ADA").is_some() {
        ada();
    }
}
