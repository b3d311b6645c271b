//! The packages for users without Rust: the wheel (`pyproject.toml`) and
//! the npm packages (`npm/`). Their metadata agrees with the crates (one
//! version everywhere, the wheel built without the system libraries), each
//! npm platform package is named, fenced and built for its platform, and
//! the launcher of `npm/punycheck` runs the binary as if it were the
//! binary: arguments, exit status, signals both ways, and a clear error
//! where no binary fits. `.ci/packages` (run by `.ci/run`) builds the
//! wheel and the tarballs, installs them offline and runs gates with them.

use crate::common;

use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use common::BIN;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn toml_of(path: &str) -> toml::Table {
    read(path).parse().unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every `npm/*/package.json`: the directory's name and the JSON.
fn npm_packages() -> Vec<(String, Value)> {
    let mut packages: Vec<(String, Value)> = fs::read_dir(root().join("npm"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("package.json").is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let json = fs::read_to_string(p.join("package.json")).unwrap();
            let value = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("npm/{name}/package.json: {e}"));
            (name, value)
        })
        .collect();
    packages.sort_by(|a, b| a.0.cmp(&b.0));
    packages
}

fn launcher() -> Value {
    npm_packages()
        .into_iter()
        .find(|(dir, _)| dir == "punycheck")
        .expect("npm/punycheck/package.json")
        .1
}

#[test]
fn the_version_is_one_in_cargo_toml_pyproject_toml_and_every_package_json() {
    let cargo = toml_of("Cargo.toml");
    let version = cargo["workspace"]["package"]["version"]
        .as_str()
        .expect("[workspace.package] version");
    let mut seen = vec![(
        "Cargo.toml [dependencies] punycheck".to_string(),
        cargo["dependencies"]["punycheck"]["version"].to_string(),
    )];
    seen.push((
        "pyproject.toml".to_string(),
        toml_of("pyproject.toml")["project"]["version"].to_string(),
    ));
    for (dir, package) in npm_packages() {
        seen.push((
            format!("npm/{dir}/package.json"),
            package["version"].to_string(),
        ));
    }
    for (name, spec) in launcher()["optionalDependencies"].as_object().unwrap() {
        seen.push((
            format!("npm/punycheck/package.json optionalDependencies {name}"),
            spec.to_string(),
        ));
    }
    let quoted = format!("\"{version}\"");
    let wrong: Vec<String> = seen
        .iter()
        .filter(|(_, v)| *v != quoted)
        .map(|(what, v)| format!("{what}: {v}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "Cargo.toml's version is {version}, but:\n{}",
        wrong.join("\n")
    );
    assert!(seen.len() > 5, "{seen:?}");
}

/// The wheel is the command line, as a binary, without the features that
/// need system libraries or a C++ compiler.
#[test]
fn the_wheel_is_the_binary_without_libidn2_icu_or_ada() {
    let pyproject = toml_of("pyproject.toml");
    assert_eq!(
        pyproject["build-system"]["build-backend"].as_str(),
        Some("maturin")
    );
    let maturin = &pyproject["tool"]["maturin"];
    assert_eq!(maturin["bindings"].as_str(), Some("bin"));
    assert_eq!(maturin["manifest-path"].as_str(), Some("Cargo.toml"));
    assert_eq!(maturin["no-default-features"].as_bool(), Some(true));
    assert!(maturin.get("features").is_none(), "{maturin}");
    assert_eq!(maturin["locked"].as_bool(), Some(true));
    let cargo = toml_of("Cargo.toml");
    let defaults: BTreeSet<&str> = cargo["features"]["default"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(defaults, BTreeSet::from(["libidn2", "icu", "ada"]));
}

/// Each platform package: `@punycheck/OS-CPU[-LIBC|-msvc]`, with npm's
/// `os`, `cpu` and `libc` fields saying the same, its binary under bin/,
/// named in the launcher's optionalDependencies, built by npm/build for a
/// Rust target, and built by the release workflow.
#[test]
fn each_platform_package_is_named_fenced_listed_and_built_for_its_platform() {
    let build = read("npm/build");
    let release = read(".github/workflows/release.yml");
    let optional: BTreeSet<String> = launcher()["optionalDependencies"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let mut platforms = BTreeSet::new();
    for (dir, package) in npm_packages() {
        if dir == "punycheck" {
            continue;
        }
        let name = format!("@punycheck/{dir}");
        assert_eq!(package["name"], name.as_str(), "npm/{dir}");
        let parts: Vec<&str> = dir.split('-').collect();
        let (os, cpu, libc) = match parts[..] {
            [os @ "linux", cpu, "gnu"] => (os, cpu, Some("glibc")),
            [os @ "linux", cpu, "musl"] => (os, cpu, Some("musl")),
            [os @ "win32", cpu, "msvc"] => (os, cpu, None),
            [os @ "darwin", cpu] => (os, cpu, None),
            _ => panic!("npm/{dir}: not a platform the launcher names (OS-CPU[-gnu|-musl|-msvc])"),
        };
        assert_eq!(package["os"], serde_json::json!([os]), "npm/{dir}");
        assert_eq!(package["cpu"], serde_json::json!([cpu]), "npm/{dir}");
        match libc {
            Some(libc) => assert_eq!(package["libc"], serde_json::json!([libc]), "npm/{dir}"),
            None => assert!(package.get("libc").is_none(), "npm/{dir}"),
        }
        assert_eq!(package["files"], serde_json::json!(["bin/"]), "npm/{dir}");
        assert!(
            package.get("scripts").is_none(),
            "npm/{dir}: no install script"
        );
        assert!(
            optional.contains(&name),
            "{name} is not an optional dependency of punycheck"
        );
        assert!(
            build.contains(&format!(") platform={dir}")),
            "npm/build builds no target into npm/{dir}"
        );
        assert!(
            release.contains(&format!("npm: {dir}")),
            ".github/workflows/release.yml does not build npm/{dir}"
        );
        platforms.insert(name);
    }
    assert_eq!(
        optional, platforms,
        "optionalDependencies without a package in npm/"
    );
    let launcher = launcher();
    assert!(
        launcher.get("scripts").is_none(),
        "npm/punycheck: no install script"
    );
    assert_eq!(launcher["bin"]["punycheck"], "bin/punycheck.js");
}

/// `node`, or why this test cannot run (adapters/install.sh installs it).
fn node() -> Option<&'static str> {
    if Command::new("node").arg("--version").output().is_ok() {
        return Some("node");
    }
    common::skip(
        "the npm launcher",
        "node is not installed",
        "bash adapters/install.sh installs it",
    );
    None
}

/// A temporary directory of this test's own.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-npm-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A shell script at `dir/name`, executable.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The launcher, copied alone into `dir` (no platform package beside it),
/// as npm installs it.
fn launcher_in(dir: &Path) -> PathBuf {
    let package = dir.join("node_modules/punycheck");
    fs::create_dir_all(package.join("bin")).unwrap();
    for file in ["package.json", "bin/punycheck.js"] {
        fs::copy(root().join("npm/punycheck").join(file), package.join(file)).unwrap();
    }
    package.join("bin/punycheck.js")
}

/// Runs the launcher with `binary` as PUNYCHECK_BINARY (none: unset).
fn launch(node: &str, binary: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(node);
    command
        .arg(root().join("npm/punycheck/bin/punycheck.js"))
        .args(args)
        .env_remove("PUNYCHECK_BINARY");
    if let Some(binary) = binary {
        command.env("PUNYCHECK_BINARY", binary);
    }
    command.output().expect("node runs")
}

#[test]
fn the_launcher_passes_arguments_output_and_exit_status_through() {
    let Some(node) = node() else { return };
    let out = launch(
        node,
        Some(Path::new(BIN)),
        &["encode", "--impl", "rfc-c", "bücher"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "bcher-kva\n");
    // A usage error: the binary's 2 and its message.
    let out = launch(node, Some(Path::new(BIN)), &["check", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-such-flag"));
    let dir = temp("status");
    for status in [1, 3, 130] {
        let stand_in = script(&dir, "exits", &format!("echo \"$@\"; exit {status}"));
        let out = launch(node, Some(&stand_in), &["a b", "c"]);
        assert_eq!(out.status.code(), Some(status));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "a b c\n");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// A binary killed by a signal ends the launcher by the same signal, so a
/// shell or CI runner sees what it would have seen of the binary.
#[test]
fn a_binary_ended_by_a_signal_ends_the_launcher_by_it() {
    let Some(node) = node() else { return };
    let dir = temp("killed");
    for (signal, number) in [("TERM", libc::SIGTERM), ("KILL", libc::SIGKILL)] {
        let stand_in = script(&dir, "killed", &format!("kill -{signal} $$"));
        let out = launch(node, Some(&stand_in), &[]);
        assert_eq!(out.status.signal(), Some(number), "{out:?}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// SIGTERM or SIGINT sent to the launcher alone (as a CI runner's cancel
/// or `kill PID` does) reaches the binary, and the launcher ends with the
/// binary's status.
#[test]
fn a_signal_sent_to_the_launcher_reaches_the_binary() {
    let Some(node) = node() else { return };
    let dir = temp("forward");
    for (signal, number) in [("TERM", libc::SIGTERM), ("INT", libc::SIGINT)] {
        // The stand-in says it is ready once its trap is set, then waits,
        // 300 s at most: a signal that never comes fails the test, never
        // hangs it.
        let stand_in = script(
            &dir,
            "waits",
            &format!(
                "trap 'echo got {signal}; exit 7' {signal}\necho ready\n\
                 i=0; while [ $i -lt 300 ]; do sleep 1; i=$((i + 1)); done\n\
                 echo no {signal} came; exit 9"
            ),
        );
        let mut child = Command::new(node)
            .arg(root().join("npm/punycheck/bin/punycheck.js"))
            .env("PUNYCHECK_BINARY", &stand_in)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, "ready\n");
        // SAFETY: kill(2) on the pid of a child this test started and has
        // not yet waited for.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, number) }, 0);
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, format!("got {signal}\n"));
        assert_eq!(child.wait().unwrap().code(), Some(7));
    }
    let _ = fs::remove_dir_all(&dir);
}

/// On a platform no package is built for, the launcher says so, names the
/// other ways to install punycheck, and exits 2 (punycheck's setup error).
#[test]
fn on_a_platform_without_a_package_the_launcher_says_what_to_do() {
    let Some(node) = node() else { return };
    let dir = temp("platform");
    let launcher = launcher_in(&dir);
    let pretend = dir.join("mips.js");
    fs::write(
        &pretend,
        "Object.defineProperty(process, 'arch', { value: 'mips' });\n",
    )
    .unwrap();
    let out = Command::new(node)
        .arg("--require")
        .arg(&pretend)
        .arg(&launcher)
        .arg("--help")
        .env_remove("PUNYCHECK_BINARY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    for said in [
        "no punycheck",
        "binary is built for this platform",
        "mips",
        "@punycheck/linux-x64-gnu",
        "pip install punycheck",
        "cargo install --locked punycheck-cli",
        "PUNYCHECK_BINARY",
    ] {
        assert!(stderr.contains(said), "{said:?} not in:\n{stderr}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// On a platform that has a package, but without it installed (optional
/// dependencies omitted), the launcher names the package and how to get it.
#[test]
fn without_its_platform_package_the_launcher_says_how_to_install_it() {
    let Some(node) = node() else { return };
    if !cfg!(all(
        target_os = "linux",
        target_arch = "x86_64",
        target_env = "gnu"
    )) {
        return;
    }
    let dir = temp("missing");
    let launcher = launcher_in(&dir);
    let out = Command::new(node)
        .arg(&launcher)
        .arg("--help")
        .env_remove("PUNYCHECK_BINARY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for said in [
        "@punycheck/linux-x64-gnu, the package with this platform's punycheck binary, is not installed",
        "--omit=optional",
        "npm install --save-dev punycheck@",
        "pip install punycheck",
    ] {
        assert!(stderr.contains(said), "{said:?} not in:\n{stderr}");
    }
    // A binary that is there but cannot be run is said too.
    let out = Command::new(node)
        .arg(&launcher)
        .env("PUNYCHECK_BINARY", dir.join("no-such-binary"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot run"),
        "{out:?}"
    );
    let _ = fs::remove_dir_all(&dir);
}
