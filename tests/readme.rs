//! The commands the README shows, run: every command line in a ```` ```sh ````
//! block of `README.md` or `docs/*.md` that runs punycheck must exit as the
//! README says.
//!
//! # The convention
//!
//! A command that runs punycheck (`punycheck ...`, `cargo run --release
//! [-- ...]`, `target/release/punycheck ...`, also after `VAR=value` words
//! or a `|`) ends with a comment that starts with its exit status:
//!
//! ```text
//! punycheck check --impl libidn2 --cases 5000   # exit 1: what it finds
//! punycheck list                                # exit 0
//! ```
//!
//! A command continued with `\` carries the comment on its last line. Any
//! other command line must be listed below: [`SETUP`] (run, and must exit
//! 0, for the commands after it) or [`NOT_RUN`] (with the reason). A line
//! that is neither fails the test, so every command the README shows is
//! run or accounted for.
//!
//! # How they are run
//!
//! The setup lines first, in the README's order; then the punycheck
//! commands, [`WORKERS`] at a time (they are independent of each other,
//! and most of the time of `cargo test` is spent here). Each through
//! `bash -c` (pipes and `<`
//! work as in a shell) with `set -o pipefail`, from the root of a working
//! copy of the project in a temporary directory ([`working_copy`]), so that
//! the files a command writes (`punycheck.xml`, `docs/bench.svg`, ...) do
//! not land in the checkout. The binary under test comes first on `PATH`,
//! so that the word `punycheck`, and `exec:punycheck rfc-wrapper`, run it;
//! `cargo run --release --` and `target/release/punycheck` are replaced by
//! `punycheck`. Each command is run as the README shows it, except the
//! few in [`STAND_INS`], which would take minutes; each runs with a
//! ceiling of [`CEILING`] against a hang, never as a measurement.
//!
//! Placeholders of the README are stood in for by files the test makes in
//! the working copy ([`make_stand_ins`]): `./my-punycode`, `mypuny.c` (and
//! so `libmypuny.so`, built by the README's own `cc` line), `./my-utf8` and
//! `names.txt`, each described there. A command that needs what this
//! machine or build lacks ([`missing`]) is skipped, visibly
//! (`common::skip`).

use crate::common;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use wait_timeout::ChildExt;

/// Command lines that are not punycheck but make what the next ones use:
/// run in the working copy, and must exit 0.
const SETUP: &[(&str, &str)] = &[(
    "cc ",
    "builds libmypuny.so for the so: lines after it, from the stand-in mypuny.c",
)];

/// Command lines that are not run, by how they start (after `VAR=value`
/// words), with the reason.
const NOT_RUN: &[(&str, &str)] = &[
    ("cargo test", "the test suite itself, this test among them"),
    (
        "cargo install",
        "installs into ~/.cargo/bin; what it builds is the binary under test",
    ),
    (
        "pip install",
        "installs the wheel from PyPI; .ci/packages installs the one built here",
    ),
    (
        "npm install",
        "installs the npm packages from the registry; .ci/packages installs the ones built here",
    ),
    (
        "pip wheel",
        "builds the wheel with cargo, minutes; .ci/packages builds it and runs a gate with it",
    ),
    (
        "npm/build",
        "builds the binary and packs the npm packages; .ci/packages runs it",
    ),
    (
        "bash .ci/packages",
        "builds, installs and checks the packages, minutes; .ci/run runs it",
    ),
    (
        "cargo bench",
        "criterion benchmarks, minutes long; clippy --all-targets in .ci/run builds them",
    ),
    (
        "cargo +nightly fuzz",
        "needs the nightly toolchain and libFuzzer; .ci/fuzz-smoke runs every target",
    ),
    (
        "cargo run --example",
        "an example program, not the punycheck binary (and a cargo build inside cargo test)",
    ),
    ("cd fuzz", "only for the cargo fuzz lines after it"),
    ("rustup ", "installs a toolchain"),
    ("apt-get ", "installs system packages (.ci/run does)"),
    (
        "bash adapters/install.sh",
        "installs the adapters' implementations (.ci/run does; tests/adapters.rs runs their gates)",
    ),
    (
        "clang ",
        "a sanitized build for the fuzzer (needs clang); .ci/fuzz-smoke builds tests/impls/planted.c so",
    ),
];

/// README commands that would take minutes, each with the command run in
/// its place: the same options where they can be kept, at the smallest
/// sizes (`bench --quick --max-size 1000` times each built-in at 10^3, and
/// checks every answer first, as the full run does).
const STAND_INS: &[(&str, &str)] = &[
    ("punycheck bench", "punycheck bench --quick --max-size 1000"),
    (
        "punycheck bench --plot docs/bench.svg --json bench.json --markdown bench.md",
        "punycheck bench --plot docs/bench.svg --json bench.json --markdown bench.md --quick --max-size 1000",
    ),
    (
        "punycheck bench --max-size 100000 --seconds-per-case 60",
        "punycheck bench --quick --max-size 1000 --seconds-per-case 60",
    ),
];

/// How long one command may run before it is taken for a hang: a ceiling,
/// many times what the slowest takes on a loaded machine.
const CEILING: Duration = Duration::from_secs(600);

/// The project's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One command line of a ```` ```sh ```` block.
#[derive(Debug, PartialEq)]
struct Line {
    /// `README.md:110`: the file and the line the command starts on.
    at: String,
    /// The command, continuation lines joined, without its comment.
    command: String,
    /// Its comment, without the `#`, trimmed.
    comment: String,
}

/// What the test does with a line.
#[derive(Debug, PartialEq)]
enum Plan {
    /// Run it (after the rewrites) and expect this status.
    Punycheck(i32),
    /// Run it, expect 0.
    Setup,
    /// Leave it, for this reason.
    NotRun(&'static str),
}

/// The markdown files whose commands are checked: the README and `docs/`.
fn documents() -> Vec<(String, String)> {
    let mut files = vec!["README.md".to_string()];
    let mut docs: Vec<String> = fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|e| {
            e.expect("a directory entry")
                .file_name()
                .into_string()
                .unwrap()
        })
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
        .into_iter()
        .map(|f| {
            let text = fs::read_to_string(root().join(&f)).unwrap_or_else(|e| panic!("{f}: {e}"));
            (f, text)
        })
        .collect()
}

/// Where the comment of a shell line starts: the first `#` that begins a
/// word outside quotes.
fn comment_start(line: &str) -> Option<usize> {
    let (mut single, mut double, mut escaped) = (false, false, false);
    let mut previous = ' ';
    for (k, c) in line.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' && !single {
            escaped = true;
        } else if c == '\'' && !double {
            single = !single;
        } else if c == '"' && !single {
            double = !double;
        } else if c == '#' && !single && !double && previous.is_whitespace() {
            return Some(k);
        }
        previous = c;
    }
    None
}

/// The command lines of the ```` ```sh ```` blocks of `text` (a file named
/// `file`).
fn sh_lines(file: &str, text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    let mut in_other = false;
    let mut pending: Option<(usize, String)> = None;
    for (k, raw) in text.lines().enumerate() {
        let number = k + 1;
        let trimmed = raw.trim_start();
        if let Some(language) = trimmed.strip_prefix("```") {
            if in_sh || in_other {
                assert!(
                    pending.is_none(),
                    "{file}:{number}: the block ends inside a continued command"
                );
                in_sh = false;
                in_other = false;
            } else if matches!(language.trim(), "sh" | "bash" | "shell") {
                in_sh = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_sh {
            continue;
        }
        let (code, comment) = match comment_start(raw) {
            Some(c) => (&raw[..c], raw[c + 1..].trim()),
            None => (raw, ""),
        };
        let code = code.trim();
        if let Some(head) = code.strip_suffix('\\').filter(|_| comment.is_empty()) {
            let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
            joined.push_str(head.trim());
            joined.push(' ');
            pending = Some((start, joined));
            continue;
        }
        let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
        joined.push_str(code);
        let command = joined.trim().to_string();
        if command.is_empty() {
            continue;
        }
        lines.push(Line {
            at: format!("{file}:{start}"),
            command,
            comment: comment.to_string(),
        });
    }
    lines
}

/// Whether `words` (one stage of a pipeline, `VAR=value` words dropped)
/// run punycheck.
fn runs_punycheck(words: &[&str]) -> bool {
    matches!(
        words,
        ["punycheck" | "target/release/punycheck", ..]
            | ["cargo", "run", "--release"]
            | ["cargo", "run", "--release", "--", ..]
    )
}

/// The words of `command` after its leading `VAR=value` words.
fn without_assignments(words: &[String]) -> Vec<&str> {
    words
        .iter()
        .map(String::as_str)
        .skip_while(|w| {
            w.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
        })
        .collect()
}

/// What to do with `line`, or why the README is wrong about it.
fn plan(line: &Line) -> Result<Plan, String> {
    let words = shell_words::split(&line.command).map_err(|e| {
        format!(
            "{}: `{}` is not a shell command: {e}",
            line.at, line.command
        )
    })?;
    let stages: Vec<Vec<String>> = words.split(|w| w == "|").map(<[String]>::to_vec).collect();
    if stages
        .iter()
        .any(|stage| runs_punycheck(&without_assignments(stage)))
    {
        let status = line
            .comment
            .strip_prefix("exit ")
            .and_then(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let after = &rest[digits.len()..];
                (after.is_empty() || after.starts_with(':') || after.starts_with(' '))
                    .then(|| digits.parse().ok())
                    .flatten()
            })
            .ok_or_else(|| {
                format!(
                    "{}: `{}` does not say its exit status: end it with `# exit N: ...`",
                    line.at, line.command
                )
            })?;
        return Ok(Plan::Punycheck(status));
    }
    let start = without_assignments(&words).join(" ");
    if SETUP.iter().any(|(prefix, _)| start.starts_with(prefix)) {
        return Ok(Plan::Setup);
    }
    NOT_RUN
        .iter()
        .find(|(prefix, _)| start.starts_with(prefix))
        .map(|(_, why)| Plan::NotRun(why))
        .ok_or_else(|| {
            format!(
                "{}: `{}` is neither a punycheck command nor listed in tests/readme.rs \
                 (SETUP or NOT_RUN)",
                line.at, line.command
            )
        })
}

/// Every command line of the README and `docs/`, with its plan; panics with
/// every line the README gets wrong.
fn planned() -> Vec<(Line, Plan)> {
    let mut errors = Vec::new();
    let mut all = Vec::new();
    for (file, text) in documents() {
        for line in sh_lines(&file, &text) {
            match plan(&line) {
                Ok(p) => all.push((line, p)),
                Err(e) => errors.push(e),
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    all
}

/// The command with `cargo run --release [--]` and
/// `target/release/punycheck` written `punycheck`.
fn rewritten(command: &str) -> String {
    let run = command
        .replace("cargo run --release --", "punycheck")
        .replace("target/release/punycheck", "punycheck");
    if run == "cargo run --release" {
        "punycheck".to_string()
    } else {
        run
    }
}

/// The command as run: [`rewritten`], then replaced by its stand-in if it
/// has one.
fn as_run(command: &str) -> String {
    let run = rewritten(command);
    STAND_INS
        .iter()
        .find(|(readme, _)| *readme == run)
        .map_or(run, |(_, stand_in)| (*stand_in).to_string())
}

/// Why `command` cannot run here, if it cannot: a built-in this build
/// lacks (cargo features `icu`, `libidn2`), or GNU libidn 1.x not installed
/// (the library of the `libidn` adapter; `.ci/run` installs it).
fn missing(command: &str, work: &Path) -> Option<(String, &'static str)> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let names_builtin = |name: &str| words.windows(2).any(|w| w[0] == "--impl" && w[1] == name);
    // A built-in left out of this build: without its cargo feature, or
    // with it where pkg-config did not find the system library.
    for lacking in punycheck::engines::missing_for(punycheck::codec::Codec::Punycode) {
        if names_builtin(lacking.name) {
            return Some((
                format!(
                    "this build lacks the built-in {}: {}",
                    lacking.name, lacking.why
                ),
                "the cargo feature and the system library of its name",
            ));
        }
    }
    if command.contains("so:libidn.so.12") {
        // Whether punycheck can load it: a question it answers as C does.
        let out = Command::new(common::BIN)
            .args([
                "repro",
                "--impl",
                "so:libidn.so.12:lengths=size_t",
                "--decode=a-",
            ])
            .current_dir(work)
            .output()
            .expect("punycheck runs");
        if out.status.code() == Some(2) {
            return Some((
                format!(
                    "GNU libidn 1.x cannot be loaded: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
                "apt-get install libidn12; bash adapters/install.sh installs it too",
            ));
        }
    }
    None
}

/// Copies the project into `to`, without what no README command reads and
/// what may be large: `.git`, `target/`, `fuzz/` (its commands are not
/// run), and the adapters' builds and npm packages.
fn copy_tree(from: &Path, to: &Path, relative: &Path) {
    const LEFT_OUT: &[&str] = &[
        ".git",
        "target",
        "fuzz",
        "adapters/build",
        "adapters/node/node_modules",
        "dist",
    ];
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = relative.join(entry.file_name());
        if LEFT_OUT.iter().any(|l| Path::new(l) == name) {
            continue;
        }
        let kind = entry.file_type().unwrap();
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target, &name);
        } else if kind.is_file() {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A fresh working copy of the project in a temporary directory.
fn working_copy(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-readme-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    copy_tree(root(), &dir, Path::new(""));
    dir
}

/// Makes the README's placeholders in the working copy `work`.
fn make_stand_ins(work: &Path) {
    // `./my-punycode`, "your program" under exec:: the RFC's own program
    // (Appendix C's wrapper, csrc/punycode.c) with its two 256 limits raised
    // to 4,096, which the README's line declares: a correct program whose
    // RFC algorithm (quadratic) stays far within the cost probe's budget up
    // to that size. C, so that a process a question stays fast.
    let rfc = fs::read_to_string(work.join("crates/punycheck/csrc/punycode.c")).unwrap();
    let raised = rfc
        .replacen("unicode_max_length = 256,", "unicode_max_length = 4096,", 1)
        .replacen("ace_max_length = 256\n", "ace_max_length = 4096\n", 1);
    assert_eq!(
        raised.matches("= 4096").count(),
        2,
        "csrc/punycode.c no longer declares its limits as this test expects"
    );
    fs::write(work.join("my-punycode.c"), raised).unwrap();
    let cc = Command::new("cc")
        .args(["-O2", "-o", "my-punycode", "my-punycode.c"])
        .current_dir(work)
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );

    // `mypuny.c`, "your library" under so:: tests/impls/planted.c as it is
    // (no bug planted: it answers as the C reference), plus the
    // `my_punycode_decode` that the `so:./libmypuny.so:my_ --decode-only`
    // line asks for. The README's `cc` line builds it.
    fs::write(
        work.join("mypuny.c"),
        "#include \"tests/impls/planted.c\"\n\
         int my_punycode_decode(length input_length, const char input[],\n\
         \x20                      length *output_length, code_point output[],\n\
         \x20                      unsigned char case_flags[])\n\
         {\n\
         \x20   return punycode_decode(input_length, input, output_length, output, case_flags);\n\
         }\n",
    )
    .unwrap();

    // `./my-utf8`, "your UTF-8" under exec:: the independent RFC 2279
    // codec tests/impls/rfc2279.py, started as common::python() starts it.
    let script = format!(
        "#!/bin/sh\nexec {} {} \"$@\"\n",
        common::python(),
        work.join("tests/impls/rfc2279.py").display()
    );
    let my_utf8 = work.join("my-utf8");
    fs::write(&my_utf8, script).unwrap();
    let chmod = Command::new("chmod")
        .args(["+x"])
        .arg(&my_utf8)
        .status()
        .unwrap();
    assert!(chmod.success());

    // `names.txt`, "a file of names" in RFC 2279 UTF-8: two ordinary names
    // and one with U+110000, above U+10FFFF (F4 90 80 80).
    fs::write(
        work.join("names.txt"),
        b"b\xc3\xbccher\nma\xc3\xb1ana\n\xf4\x90\x80\x80x\n",
    )
    .unwrap();
}

/// The last lines of a file, for a message.
fn tail(path: &Path, lines: usize) -> String {
    let text = String::from_utf8_lossy(&fs::read(path).unwrap_or_default()).into_owned();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Runs `command` in `work` with the binary under test first on `PATH`;
/// its exit status (`None` for a signal), and its output's tail.
fn run(command: &str, work: &Path, logs: &Path) -> (Option<i32>, String) {
    let bin_dir = Path::new(common::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (stdout, stderr) = (logs.join("stdout"), logs.join("stderr"));
    let mut child = std::os::unix::process::CommandExt::process_group(
        Command::new("bash")
            .args(["-c", &format!("set -o pipefail\n{command}")])
            .current_dir(work)
            .env("PATH", path)
            .stdin(Stdio::null())
            .stdout(fs::File::create(&stdout).unwrap())
            .stderr(fs::File::create(&stderr).unwrap()),
        0,
    )
    .spawn()
    .expect("bash starts");
    let status = match child.wait_timeout(CEILING).unwrap() {
        Some(status) => status,
        None => {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            let _ = child.wait();
            return (
                None,
                format!(
                    "did not end within the ceiling of {CEILING:?}\n{}",
                    tail(&stdout, 20)
                ),
            );
        }
    };
    let output = format!(
        "--- stdout, last lines:\n{}\n--- stderr, last lines:\n{}",
        tail(&stdout, 20),
        tail(&stderr, 20)
    );
    (status.code(), output)
}

/// Every punycheck command says its exit status, every other command line
/// is listed, and every listing and stand-in is still used.
#[test]
fn every_command_line_is_accounted_for() {
    let lines = planned();
    let checked = lines
        .iter()
        .filter(|(_, p)| matches!(p, Plan::Punycheck(_)))
        .count();
    assert!(checked >= 20, "only {checked} punycheck commands found");
    // Every stand-in and every listed command is still in the README.
    for (readme, _) in STAND_INS {
        assert!(
            lines.iter().any(|(l, _)| rewritten(&l.command) == *readme),
            "tests/readme.rs: the stand-in for `{readme}` stands in for no README command"
        );
    }
    for (prefix, _) in SETUP.iter().chain(NOT_RUN) {
        assert!(
            lines.iter().any(|(l, _)| without_assignments(
                &shell_words::split(&l.command).unwrap()
            )
            .join(" ")
            .starts_with(prefix)),
            "tests/readme.rs lists `{prefix}`, which no README command starts with"
        );
    }
}

/// How many commands run at once: the machine's two cores. The commands
/// are independent of each other (each writes only its own files in the
/// working copy), but for the setup lines, which run first, in order.
const WORKERS: usize = 2;

#[test]
fn every_readme_command_exits_as_the_readme_says() {
    let lines = planned();
    let work = working_copy("commands");
    let logs = work.with_extension("logs");
    fs::create_dir_all(&logs).unwrap();
    make_stand_ins(&work);
    let mut jobs = Vec::new();
    for (line, plan) in &lines {
        let expected = match plan {
            Plan::NotRun(_) => continue,
            Plan::Setup => 0,
            Plan::Punycheck(status) => *status,
        };
        let command = as_run(&line.command);
        if let Some((why, hint)) = missing(&command, &work) {
            common::skip(&format!("README command at {}", line.at), &why, hint);
            continue;
        }
        jobs.push((line, matches!(plan, Plan::Setup), command, expected));
    }
    // Each job's outcome, by its index in `jobs`.
    let outcome = |index: usize| {
        let (_, _, command, _) = &jobs[index];
        let logs = logs.join(index.to_string());
        fs::create_dir_all(&logs).unwrap();
        run(command, &work, &logs)
    };
    let results = std::sync::Mutex::new(vec![None; jobs.len()]);
    for (index, job) in jobs.iter().enumerate() {
        if job.1 {
            results.lock().unwrap()[index] = Some(outcome(index));
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if index >= jobs.len() {
                        break;
                    }
                    if !jobs[index].1 {
                        let result = outcome(index);
                        results.lock().unwrap()[index] = Some(result);
                    }
                }
            });
        }
    });
    let mut failures = String::new();
    for ((line, _, command, expected), result) in jobs.iter().zip(results.into_inner().unwrap()) {
        let (got, output) = result.expect("every job ran");
        if got != Some(*expected) {
            let _ = writeln!(
                failures,
                "{}: `{}`{}\n  the README says exit {expected}, it exited {}\n{output}\n",
                line.at,
                line.command,
                if *command == line.command {
                    String::new()
                } else {
                    format!(" (run as `{command}`)")
                },
                got.map_or("by a signal or past the ceiling".to_string(), |c| c
                    .to_string()),
            );
        }
    }
    let ran = jobs.len();
    let _ = fs::remove_dir_all(&work);
    let _ = fs::remove_dir_all(&logs);
    assert!(failures.is_empty(), "{failures}");
    assert!(ran >= 20, "only {ran} commands ran");
}

/// `cargo install` without `--locked` resolves the dependencies afresh and
/// may build versions never tested here.
#[test]
fn every_cargo_install_is_locked() {
    let mut installs = 0;
    for (file, text) in documents() {
        for line in sh_lines(&file, &text) {
            if line.command.starts_with("cargo install") {
                installs += 1;
                assert!(
                    line.command.split_whitespace().any(|w| w == "--locked"),
                    "{}: `{}` without --locked",
                    line.at,
                    line.command
                );
            }
        }
    }
    assert!(installs > 0, "no cargo install line found");
}

/// The README's gate in `punycheck.toml` is sized by `cases`, which the
/// README recommends for a verdict that does not depend on the machine's
/// load; `seconds` only as a ceiling.
#[test]
fn the_ci_gate_example_is_sized_by_cases() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("### A CI gate in one file")
        .nth(1)
        .expect("the README has its section \"A CI gate in one file\"");
    let block = section
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section shows a punycheck.toml");
    let config: toml::Table = block.parse().expect("the example is TOML");
    let check = config["check"].as_table().expect("a [check] table");
    assert!(
        check.get("cases").is_some_and(toml::Value::is_integer),
        "the gate has no `cases`:\n{block}"
    );
    if check.contains_key("seconds") {
        let line = block
            .lines()
            .find(|l| l.trim_start().starts_with("seconds"))
            .unwrap();
        assert!(
            line.contains("ceiling"),
            "`seconds` beside `cases` should say it is only a ceiling: {line}"
        );
    }
}

#[test]
fn lines_are_read_with_their_continuations_and_comments() {
    let text = "text\n```sh\npunycheck check --impl 'a # b' \\\n    --cases 5  # exit 1: why\n\
                # a comment alone\necho 'x' | punycheck rfc-wrapper -e   # exit 0\n```\n\
                ```toml\npunycheck = 1 # not a command\n```\n";
    let lines = sh_lines("T.md", text);
    assert_eq!(
        lines,
        [
            Line {
                at: "T.md:3".into(),
                command: "punycheck check --impl 'a # b' --cases 5".into(),
                comment: "exit 1: why".into(),
            },
            Line {
                at: "T.md:6".into(),
                command: "echo 'x' | punycheck rfc-wrapper -e".into(),
                comment: "exit 0".into(),
            },
        ]
    );
    assert_eq!(plan(&lines[0]), Ok(Plan::Punycheck(1)));
    assert_eq!(plan(&lines[1]), Ok(Plan::Punycheck(0)));
}

#[test]
fn a_command_without_its_status_or_unknown_is_refused() {
    let text = "```sh\ncargo run --release     # the matrix\n\
                PUNYCHECK_SO=x cargo +nightly fuzz run diff_so\nmake all\n\
                cargo run --release -- --codec lace   # exit 10\n```\n";
    let lines = sh_lines("T.md", text);
    let plans: Vec<_> = lines.iter().map(plan).collect();
    assert!(
        plans[0]
            .as_ref()
            .unwrap_err()
            .contains("does not say its exit status")
    );
    assert!(matches!(plans[1], Ok(Plan::NotRun(_))));
    assert!(
        plans[2]
            .as_ref()
            .unwrap_err()
            .contains("neither a punycheck command")
    );
    assert_eq!(plans[3], Ok(Plan::Punycheck(10)));
    assert_eq!(as_run(&lines[3].command), "punycheck --codec lace");
}
