//! The GitHub Action (`action.yml`): its metadata, read as YAML (python3's
//! PyYAML, which `.ci/run` makes sure of), has what GitHub needs and what
//! the docs promise, and its shell steps do what it says when run as the
//! runner runs them: install punycheck from the action's own checkout, run
//! `check` on the configuration with JUnit and SARIF reports, and end the
//! job with check's exit status. actionlint (in `.ci/run`) checks the
//! workflow that uses it (`.github/workflows/ci.yml`) against its inputs.
//!
//! The runner is imitated for the expressions the action uses and no
//! others: `${{ inputs.NAME }}`, `${{ github.action_path }}` and `${{
//! steps.ID.outputs.NAME }}`, in `env:` and `working-directory:` only (a
//! script with an expression in it is refused, as a script injection).
//! Steps with `uses:` (the uploads) are not run: their `with:` values are
//! evaluated, and the paths they upload must exist.

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
    for name in ["version", "junit", "sarif", "upload-junit", "upload-sarif"] {
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
    /// Each step's outputs, by step id.
    outputs: BTreeMap<String, BTreeMap<String, String>>,
    /// The exit status of the last step run (the job's).
    status: i32,
    /// The values of the `with:` of each `uses:` step.
    uploads: Vec<BTreeMap<String, String>>,
}

/// Runs the action's steps in `workspace` with `given` inputs (the others
/// at their defaults), `cargo` a stand-in that records its arguments and
/// `punycheck` the binary under test, stopping at the first failing step
/// as the runner does.
fn run_action(workspace: &Path, given: &[(&str, &str)]) -> Run {
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
    let cargo_log = workspace.join("cargo-calls");
    let cargo = bin.join("cargo");
    fs::write(
        &cargo,
        format!("#!/bin/sh\necho \"$*\" >> '{}'\n", cargo_log.display()),
    )
    .unwrap();
    fs::set_permissions(&cargo, fs::Permissions::from_mode(0o755)).unwrap();
    let link = bin.join("punycheck");
    let _ = fs::remove_file(&link);
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());

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
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("GITHUB_OUTPUT", &github_output);
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
        if status != 0 {
            break;
        }
    }
    Run {
        cargo: fs::read_to_string(&cargo_log).unwrap_or_default(),
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

/// A conforming implementation: the job passes, both reports are written
/// where the uploads look for them, and punycheck was installed from the
/// action's own checkout.
#[test]
fn a_conforming_gate_passes_with_both_reports() {
    let dir = workspace("pass");
    fs::write(
        dir.join("punycheck.toml"),
        "[implementation]\nspec = \"cleanroom\"\n\n[check]\nseed = 1\ncases = 200\nseconds = 600\n",
    )
    .unwrap();
    let run = run_action(&dir, &[]);
    assert_eq!(
        run.cargo.trim(),
        format!("install --locked --path {ROOT} --no-default-features")
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

/// A nonconforming implementation: check's status 1 fails the job, after
/// the reports are written (the uploads run on failure too), and the
/// version and arguments given reach cargo and check.
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
            ("version", "0.1.0"),
            ("args", "--fail-fast"),
        ],
    );
    assert_eq!(
        run.cargo.trim(),
        "install --locked punycheck-cli --version 0.1.0 --no-default-features"
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
