//! The GitHub Action (`action.yml`): its metadata, read as YAML (python3's
//! PyYAML, which `.ci/run` makes sure of), has what GitHub needs and what
//! the docs promise, and its shell steps do what it says when run as the
//! runner runs them: install punycheck (the release's wheel with pip where
//! PyPI has one for the runner, else cargo install), run `check` on the
//! configuration with JUnit and SARIF reports, and end the job with
//! check's exit status. actionlint (in `.ci/run`) checks the
//! workflow that uses it (`.github/workflows/ci.yml`) against its inputs.
//!
//! The runner is imitated for the expressions the action uses and no
//! others: `${{ inputs.NAME }}`, `${{ github.action_path }}` and `${{
//! steps.ID.outputs.NAME }}`, in `env:` and `working-directory:` only (a
//! script with an expression in it is refused, as a script injection);
//! `$RUNNER_TEMP`, and `$GITHUB_PATH`, whose directories come first on the
//! PATH of the steps after. Steps with `uses:` (the uploads) are not run:
//! their `with:` values are evaluated, and the paths they upload must
//! exist. `cargo`, `python3` and the virtual environment's `python` are
//! stand-ins that record how they were called: PyPI is imitated with or
//! without a wheel for the runner, never asked.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use common::{BIN, python};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// action.yml as JSON, read by PyYAML.
fn action() -> Value {
    let out = Command::new("python3")
        .args([
            "-c",
            "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
            &format!("{ROOT}/action.yml"),
        ])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "action.yml does not load as YAML (or python3 lacks PyYAML: \
         apt-get install python3-yaml, or pip install pyyaml):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("PyYAML's JSON parses")
}

fn text<'a>(value: &'a Value, what: &str) -> &'a str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("{what}: not a string: {value}"))
}

#[test]
fn the_action_metadata_has_what_github_and_the_docs_need() {
    let action = action();
    assert!(!text(&action["name"], "name").is_empty());
    assert!(!text(&action["description"], "description").is_empty());
    let inputs = action["inputs"].as_object().expect("inputs");
    for (name, input) in inputs {
        assert!(
            !text(&input["description"], name).is_empty(),
            "input {name} has no description"
        );
    }
    assert_eq!(inputs["config"]["default"], "punycheck.toml");
    for name in [
        "version",
        "install",
        "junit",
        "sarif",
        "upload-junit",
        "upload-sarif",
    ] {
        assert!(inputs.contains_key(name), "no input {name}");
    }
    assert_eq!(
        action["outputs"]["status"]["value"],
        "${{ steps.check.outputs.status }}"
    );
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"].as_array().expect("steps");
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    assert!(
        uses.iter()
            .any(|u| u.starts_with("actions/upload-artifact@")),
        "{uses:?}"
    );
    assert!(
        uses.iter()
            .any(|u| u.starts_with("github/codeql-action/upload-sarif@")),
        "{uses:?}"
    );
    for step in steps {
        let name = text(&step["name"], "a step's name");
        match (step.get("run"), step.get("uses")) {
            (Some(run), None) => {
                assert_eq!(step["shell"], "bash", "{name}: a run step needs its shell");
                // Inputs reach scripts through env:, never pasted into them.
                assert!(
                    !text(run, name).contains("${{"),
                    "{name}: an expression inside the script"
                );
            }
            (None, Some(_)) => {}
            _ => panic!("{name}: needs exactly one of run and uses"),
        }
    }
}

/// Evaluates the expressions the action uses in `value`.
fn evaluate(
    value: &str,
    inputs: &BTreeMap<String, String>,
    outputs: &BTreeMap<String, BTreeMap<String, String>>,
) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("an expression ends") + start;
        let expression = rest[start + 3..end].trim();
        let parts: Vec<&str> = expression.split('.').collect();
        out.push_str(&match parts[..] {
            ["inputs", name] => inputs[name].clone(),
            ["github", "action_path"] => ROOT.to_string(),
            ["steps", id, "outputs", name] => outputs
                .get(id)
                .and_then(|o| o.get(name))
                .cloned()
                .unwrap_or_default(),
            _ => panic!("an expression the test does not imitate: {expression}"),
        });
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// What a run of the action did.
struct Run {
    /// The arguments `cargo` was called with, one call a line.
    cargo: String,
    /// The calls of `python3` and of pip in the virtual environment, one a
    /// line (`python3 ARGS`, `pip ARGS`), and `wheel` for each run of the
    /// punycheck that pip installed.
    python: String,
    /// Each step's outputs, by step id.
    outputs: BTreeMap<String, BTreeMap<String, String>>,
    /// The exit status of the last step run (the job's).
    status: i32,
    /// The values of the `with:` of each `uses:` step.
    uploads: Vec<BTreeMap<String, String>>,
}

/// Whether the imitated PyPI has a punycheck wheel for the runner.
#[derive(Clone, Copy, PartialEq)]
enum Pypi {
    HasAWheel,
    HasNoWheel,
}

/// `python3` as the action calls it: `-m venv DIR` makes `DIR/bin/python`
/// (a copy of [`VENV_PYTHON`]); anything else fails.
const PYTHON3: &str = r#"#!/bin/sh
echo "python3 $*" >> 'LOG'
[ "$1" = -m ] && [ "$2" = venv ] || exit 1
mkdir -p "$3/bin" && cp 'VENV_PYTHON' "$3/bin/python"
"#;

/// The virtual environment's `python`: `-m pip install ...` installs a
/// `punycheck` beside it that says `wheel` and runs the binary under test,
/// if PyPI has a wheel; fails as pip does if not.
const VENV_PYTHON: &str = r#"#!/bin/sh
echo "pip $*" >> 'LOG'
[ 'WHEEL' = yes ] || { echo "ERROR: No matching distribution found" >&2; exit 1; }
printf '#!/bin/sh\necho wheel >> %s\nexec %s "$@"\n' 'LOG' 'BIN' > "$(dirname "$0")/punycheck"
chmod +x "$(dirname "$0")/punycheck"
"#;

/// Runs the action's steps in `workspace` with `given` inputs (the others
/// at their defaults), `cargo` a stand-in that records its arguments,
/// `python3` one that imitates PyPI as `pypi` says, and `punycheck` the
/// binary under test, stopping at the first failing step as the runner
/// does.
fn run_action(workspace: &Path, given: &[(&str, &str)], pypi: Pypi) -> Run {
    let action = action();
    let mut inputs: BTreeMap<String, String> = action["inputs"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v["default"].as_str().unwrap_or("").to_string()))
        .collect();
    for (k, v) in given {
        assert!(inputs.contains_key(*k), "no input {k}");
        inputs.insert(k.to_string(), v.to_string());
    }
    let bin = workspace.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let executable = |name: &str, text: String| {
        let path = bin.join(name);
        fs::write(&path, text).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    let cargo_log = workspace.join("cargo-calls");
    executable(
        "cargo",
        format!("#!/bin/sh\necho \"$*\" >> '{}'\n", cargo_log.display()),
    );
    let python_log = workspace.join("python-calls");
    let wheel = if pypi == Pypi::HasAWheel { "yes" } else { "no" };
    let venv_python = executable(
        "venv-python",
        VENV_PYTHON
            .replace("LOG", &python_log.display().to_string())
            .replace("WHEEL", wheel)
            .replace("BIN", BIN),
    );
    executable(
        "python3",
        PYTHON3
            .replace("LOG", &python_log.display().to_string())
            .replace("VENV_PYTHON", &venv_python.display().to_string()),
    );
    let link = bin.join("punycheck");
    let _ = fs::remove_file(&link);
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let mut path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let runner_temp = workspace.join("runner-temp");
    fs::create_dir_all(&runner_temp).unwrap();

    let mut outputs: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut uploads = Vec::new();
    let mut status = 0;
    for step in action["runs"]["steps"].as_array().unwrap() {
        if let Some(with) = step["with"].as_object() {
            uploads.push(
                with.iter()
                    .map(|(k, v)| {
                        let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                        (k.clone(), evaluate(&v, &inputs, &outputs))
                    })
                    .collect(),
            );
        }
        let Some(script) = step["run"].as_str() else {
            continue;
        };
        assert!(step.get("if").is_none(), "a run step's if: is not imitated");
        let dir = step["working-directory"]
            .as_str()
            .map_or(workspace.to_path_buf(), |d| {
                workspace.join(evaluate(d, &inputs, &outputs))
            });
        let github_output = workspace.join("github-output");
        fs::write(&github_output, "").unwrap();
        let github_path = workspace.join("github-path");
        fs::write(&github_path, "").unwrap();
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("RUNNER_TEMP", &runner_temp)
            .env("GITHUB_OUTPUT", &github_output)
            .env("GITHUB_PATH", &github_path);
        for (k, v) in step["env"].as_object().into_iter().flatten() {
            command.env(k, evaluate(text(v, k), &inputs, &outputs));
        }
        let out = command.output().expect("bash runs");
        status = out.status.code().expect("the step exits");
        if let Some(id) = step["id"].as_str() {
            let written = fs::read_to_string(&github_output).unwrap();
            outputs.insert(
                id.to_string(),
                written
                    .lines()
                    .filter_map(|l| l.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            );
        }
        for dir in fs::read_to_string(&github_path).unwrap().lines() {
            path = format!("{dir}:{path}");
        }
        if status != 0 {
            break;
        }
    }
    Run {
        cargo: fs::read_to_string(&cargo_log).unwrap_or_default(),
        python: fs::read_to_string(&python_log).unwrap_or_default(),
        outputs,
        status,
        uploads,
    }
}

fn workspace(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-action-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The version of the action's own checkout, as pyproject.toml gives it.
fn checkout_version() -> String {
    let pyproject: toml::Table = fs::read_to_string(format!("{ROOT}/pyproject.toml"))
        .unwrap()
        .parse()
        .unwrap();
    pyproject["project"]["version"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A conforming implementation, with the defaults: punycheck is the
/// wheel of the checkout's version, from pip in a virtual environment of
/// its own (nothing built); the job passes, and both reports are written
/// where the uploads look for them.
#[test]
fn a_conforming_gate_passes_with_both_reports() {
    let dir = workspace("pass");
    fs::write(
        dir.join("punycheck.toml"),
        "[implementation]\nspec = \"cleanroom\"\n\n[check]\nseed = 1\ncases = 200\nseconds = 600\n",
    )
    .unwrap();
    let run = run_action(&dir, &[], Pypi::HasAWheel);
    assert_eq!(run.cargo, "", "nothing is built");
    let venv = dir.join("runner-temp/punycheck-venv");
    assert_eq!(
        run.python,
        format!(
            "python3 -m venv {}\n\
             pip -m pip install --quiet --disable-pip-version-check --only-binary=:all: punycheck=={}\n\
             wheel\n",
            venv.display(),
            checkout_version()
        ),
        "the wheel's punycheck ran the check"
    );
    assert_eq!(run.outputs["check"]["status"], "0");
    assert_eq!(run.status, 0);
    let junit = &run.outputs["check"]["junit"];
    let sarif = &run.outputs["check"]["sarif"];
    assert_eq!(Path::new(junit), dir.join("punycheck-junit.xml"));
    let junit_text = fs::read_to_string(junit).unwrap();
    assert!(junit_text.contains("<testsuite"), "{junit_text}");
    let sarif_json: Value = serde_json::from_str(&fs::read_to_string(sarif).unwrap()).unwrap();
    assert_eq!(sarif_json["version"], "2.1.0");
    // The uploads are given the reports' paths.
    assert!(run.uploads.iter().any(|w| w.get("path") == Some(junit)));
    assert!(
        run.uploads
            .iter()
            .any(|w| w.get("sarif_file") == Some(sarif))
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A nonconforming implementation, on a runner PyPI has no wheel for: the
/// release given is built with cargo instead; check's status 1 fails the
/// job, after the reports are written (the uploads run on failure too),
/// and the version and arguments given reach pip, cargo and check.
#[test]
fn a_nonconforming_gate_fails_the_job_with_checks_status() {
    let dir = workspace("fail");
    let pyny = format!("{ROOT}/tests/impls/pyny.py");
    fs::create_dir_all(dir.join("gate")).unwrap();
    fs::write(
        dir.join("gate/gate.toml"),
        format!(
            "[implementation]\nspec = \"pipe:{} {pyny} --pipe --bug digit-offset\"\n\n\
             [check]\nseed = 1\ncases = 60\nseconds = 600\ncost = false\n",
            python()
        ),
    )
    .unwrap();
    let run = run_action(
        &dir,
        &[
            ("config", "gate.toml"),
            ("working-directory", "gate"),
            ("version", "0.0.9"),
            ("args", "--fail-fast"),
        ],
        Pypi::HasNoWheel,
    );
    assert!(
        run.python
            .ends_with("--only-binary=:all: punycheck==0.0.9\n"),
        "{}",
        run.python
    );
    assert_eq!(
        run.cargo.trim(),
        "install --locked punycheck-cli --version 0.0.9 --no-default-features"
    );
    assert_eq!(run.outputs["check"]["status"], "1");
    assert_eq!(
        run.status, 1,
        "the last step ends the job with check's status"
    );
    let junit = fs::read_to_string(&run.outputs["check"]["junit"]).unwrap();
    assert!(junit.contains("<failure"), "{junit}");
    assert!(Path::new(&run.outputs["check"]["sarif"]).starts_with(dir.join("gate")));
    let _ = fs::remove_dir_all(&dir);
}

/// `install: source` builds the action's own checkout and asks PyPI
/// nothing; `install: wheel` fails where there is no wheel, building
/// nothing; any other value is refused.
#[test]
fn install_source_builds_the_checkout_and_install_wheel_never_builds() {
    let dirs = [
        workspace("install"),
        workspace("install-wheel"),
        workspace("install-wrong"),
    ];
    let dir = &dirs[0];
    fs::write(
        dir.join("punycheck.toml"),
        "[implementation]\nspec = \"cleanroom\"\n\n[check]\nseed = 1\ncases = 50\nseconds = 600\ncost = false\n",
    )
    .unwrap();
    let run = run_action(dir, &[("install", "source")], Pypi::HasAWheel);
    assert_eq!(
        run.cargo.trim(),
        format!("install --locked --path {ROOT} --no-default-features")
    );
    assert_eq!(run.python, "");
    assert_eq!(run.status, 0);

    let run = run_action(&dirs[1], &[("install", "wheel")], Pypi::HasNoWheel);
    assert_eq!(run.cargo, "");
    assert_eq!(run.status, 1);
    assert!(!run.outputs.contains_key("check"), "check did not run");

    let run = run_action(&dirs[2], &[("install", "binary")], Pypi::HasAWheel);
    assert_eq!(
        (run.cargo.as_str(), run.python.as_str(), run.status),
        ("", "", 2)
    );
    for dir in dirs {
        let _ = fs::remove_dir_all(dir);
    }
}
