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

/// What `pkg-config` says of a package.
enum PkgConfig {
    /// It knows it: its include directories and its link flags.
    Found(Vec<PathBuf>, Vec<String>),
    /// It runs, and does not know it (no `.pc` file: the development
    /// package is not installed).
    Unknown,
    /// It does not run (not installed).
    Absent,
}

/// Asks `pkg-config` (or the program `PKG_CONFIG` names, as the
/// `pkg-config` crate does) about `package`.
fn pkg_config(package: &str) -> PkgConfig {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    let program = env::var_os("PKG_CONFIG").unwrap_or_else(|| "pkg-config".into());
    let run = |flag: &str| -> Result<Option<Vec<String>>, std::io::Error> {
        let out = std::process::Command::new(&program)
            .args([flag, package])
            .output()?;
        Ok(out.status.success().then(|| {
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .map(str::to_string)
                .collect()
        }))
    };
    let (cflags, libs) = match (run("--cflags"), run("--libs")) {
        (Ok(Some(cflags)), Ok(Some(libs))) => (cflags, libs),
        (Err(_), _) | (_, Err(_)) => return PkgConfig::Absent,
        _ => return PkgConfig::Unknown,
    };
    let includes = cflags
        .iter()
        .filter_map(|f| f.strip_prefix("-I"))
        .map(PathBuf::from)
        .collect();
    PkgConfig::Found(includes, libs)
}

/// Compiles a shim from `csrc/` against a system library and links the
/// library, with pkg-config's flags for `package`; where pkg-config is not
/// installed, with `-l<fallback_lib>` from the default paths when the shim
/// compiles there (the library's headers are installed). Returns why the
/// library is left out when it is: pkg-config does not know `package`, or
/// without pkg-config the shim does not compile.
fn system_shim(file: &str, name: &str, package: &str, fallback_lib: &str) -> Result<(), String> {
    println!("cargo:rerun-if-changed={file}");
    let (includes, libs, probing) = match pkg_config(package) {
        PkgConfig::Found(includes, libs) => (includes, libs, false),
        PkgConfig::Unknown => {
            return Err(format!("pkg-config does not find {package}"));
        }
        PkgConfig::Absent => (Vec::new(), vec![format!("-l{fallback_lib}")], true),
    };
    cc::Build::new()
        .file(file)
        .includes(&includes)
        .warnings(true)
        .extra_warnings(true)
        // Without pkg-config the compilation is the probe: its errors are
        // the reason given, not warnings of their own.
        .cargo_warnings(!probing)
        .try_compile(name)
        .map_err(|e| {
            format!(
                "pkg-config is not installed, and {file} does not compile without it ({})",
                e.to_string().lines().next().unwrap_or_default()
            )
        })?;
    // After the shim's archive, so that the linker resolves its references.
    for flag in libs {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        }
    }
    Ok(())
}

/// Builds the built-in of a system library when the library is there: the
/// cfg `cfg` for the Rust code that uses it; else a cargo warning saying
/// what is left out and why, and the reason in the environment variable
/// `reason_env` for `punycheck list`.
fn optional_system_library(
    built: Result<(), String>,
    what: &str,
    cfg: &str,
    reason_env: &str,
    install: &str,
) {
    match built {
        Ok(()) => println!("cargo:rustc-cfg={cfg}"),
        Err(why) => {
            println!(
                "cargo:warning=left out the built-in {what}: {why} (install {install}, or build with --no-default-features to leave it out without this warning); `punycheck list` names what this build lacks"
            );
            println!(
                "cargo:rustc-env={reason_env}=left out of this build, which has the cargo feature `{what}`: {why} (install {install})"
            );
        }
    }
}

/// libidn2's Punycode coder through `csrc/idn2_punycode_shim.c`, which binds
/// the versioned compatibility symbols `_idn2_punycode_*@IDN2_0.0.0` and
/// exports them as `punycheck_idn2_*` (Debian package libidn2-dev). Only
/// with the cargo feature `libidn2` (a default one).
fn libidn2() {
    let built = system_shim(
        "csrc/idn2_punycode_shim.c",
        "idn2_punycode_shim",
        "libidn2",
        "idn2",
    );
    optional_system_library(
        built,
        "libidn2",
        "punycheck_libidn2",
        "PUNYCHECK_LIBIDN2_LEFT_OUT",
        "libidn2-dev and pkg-config",
    );
}

/// ICU's Punycode coder through `csrc/icu_punycode_shim.c`, whose prototypes
/// ICU's own headers rename to the installed version's symbols
/// (`u_strToPunycode_72`, ...), exported as `punycheck_icu_*` (Debian
/// package libicu-dev). Only with the cargo feature `icu` (a default one).
fn icu() {
    let built = system_shim(
        "csrc/icu_punycode_shim.c",
        "icu_punycode_shim",
        "icu-uc",
        "icuuc",
    );
    optional_system_library(
        built,
        "icu",
        "punycheck_icu",
        "PUNYCHECK_ICU_LEFT_OUT",
        "libicu-dev and pkg-config",
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
    // build without them (`--no-default-features`) needs neither; one that
    // is not found is left out, with a warning, and its built-in with it
    // (the cfgs punycheck_libidn2 and punycheck_icu say which are built).
    println!("cargo::rustc-check-cfg=cfg(punycheck_libidn2)");
    println!("cargo::rustc-check-cfg=cfg(punycheck_icu)");
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
