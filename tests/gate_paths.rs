//! A gate file with `root = "DIR"` is self-contained: its paths (`baseline`,
//! `files`, `json`) and the command of its `spec` are taken from DIR, itself
//! taken from the gate file's own folder, and the check runs there. So
//! `punycheck check --config GATE` gives the same verdict from any working
//! directory, its reproduce lines say where they run (`cd ROOT && ...`) and
//! reproduce from anywhere, paths given on the command line stay the working
//! directory's, and `punycheck survey` runs gates of two projects side by
//! side, each reading its own baseline. A root that is not a folder is a
//! setup error (exit status 2) that says where it was looked for.
//!
//! The implementation is the Python `pipe:` template of
//! `adapters/templates/`, copied into each project and named there by a
//! relative path, as a user's gate names its own adapter.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{self, BIN};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder under the target directory, its links resolved (as the
/// reproduce lines name a root).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gate-paths-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::canonicalize(&dir).unwrap()
}

/// A project at `project`: the Python template as `adapter/impl.py`, a
/// vector file `vectors/mine.toml`, and the gate `gate` (a path inside the
/// project) whose root is `root`, naming all of them from the root and its
/// baseline as `baseline`. Returns the gate's path.
fn project(project: &Path, gate: &str, root: &str, baseline: &str) -> PathBuf {
    for dir in ["adapter", "vectors"] {
        std::fs::create_dir_all(project.join(dir)).unwrap();
    }
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/templates/pipe_template.py"),
        project.join("adapter/impl.py"),
    )
    .unwrap();
    std::fs::write(
        project.join("vectors/mine.toml"),
        "codec = \"punycode\"\n\n[[case]]\nname = \"gate-paths-a-e-acute\"\nop = \"encode\"\n\
         input = \"u+0061 u+00E9\"\noutput = \"a-bga\"\n\
         provenance = \"RFC 3492's algorithm, as adapters/install.sh asks it\"\n",
    )
    .unwrap();
    let path = project.join(gate);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        format!(
            "# A gate of another project.\n\nroot = {root:?}\n\n[implementation]\n\
             spec = \"pipe:{} adapter/impl.py\"\ndomain = \"unicode-with-surrogates\"\n\
             errors = \"failure-only\"\nannotations = false\n\n[check]\nseed = 1\ncases = 150\n\
             seconds = 600\ncost = false\nbaseline = {baseline:?}\n\
             files = [\"vectors/mine.toml\"]\njson = \"report.json\"\n",
            common::python()
        ),
    )
    .unwrap();
    path
}

/// Runs `punycheck` with `args` in `dir`.
fn punycheck_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The `reproduce:` lines of a text report.
fn reproducers(report: &str) -> Vec<String> {
    report
        .lines()
        .filter_map(|l| l.split_once("reproduce: ").map(|(_, r)| r.to_string()))
        .collect()
}

/// Runs a reproduce line as a user pastes it into a shell in `dir`, with
/// the binary under test as `punycheck`.
fn paste(line: &str, dir: &Path) -> Output {
    let bin = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .args(["-c", line])
        .env("PATH", path)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_gate_with_a_root_runs_the_same_from_any_directory() {
    let top = scratch("any");
    let root = top.join("project");
    let gate = project(
        &root,
        "ci/gates/gate.toml",
        "../..",
        "ci/gates/gate.baseline.toml",
    );
    let elsewhere = top.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    // Recorded from elsewhere: the baseline written is named on the command
    // line, so it is the working directory's.
    let recorded = punycheck_in(
        &elsewhere,
        &[
            "check",
            "--config",
            "../project/ci/gates/gate.toml",
            "--write-baseline",
            "../project/ci/gates/gate.baseline.toml",
        ],
    );
    let report = text(&recorded.stdout);
    assert_eq!(
        recorded.status.code(),
        Some(1),
        "{report}{}",
        text(&recorded.stderr)
    );
    assert!(root.join("ci/gates/gate.baseline.toml").is_file());
    // The file's JSON report is the root's, and its vector file was read.
    assert!(!elsewhere.join("report.json").exists());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    let vectors = json["vectors"]["results"].as_array().unwrap();
    assert!(
        vectors
            .iter()
            .any(|v| v["name"] == "gate-paths-a-e-acute" && v["status"] == "pass"),
        "{vectors:?}"
    );
    // Each reproduce line goes to the root first, and reproduces from
    // anywhere: from elsewhere, and from the file system's root.
    let lines = reproducers(&report);
    assert!(!lines.is_empty(), "{report}");
    let cd = format!("cd {} && punycheck repro ", root.display());
    for line in &lines {
        assert!(line.starts_with(&cd), "{line}");
    }
    for dir in [elsewhere.as_path(), Path::new("/")] {
        let again = paste(&lines[0], dir);
        assert_eq!(
            again.status.code(),
            Some(1),
            "`{}` from {}: {}{}",
            lines[0],
            dir.display(),
            text(&again.stdout),
            text(&again.stderr)
        );
    }
    for line in &json["repro_commands"].as_array().unwrap()[..] {
        assert!(line.as_str().unwrap().starts_with(&cd), "{line}");
    }
    // The gate, from elsewhere and from its folder, passes on its baseline.
    for (dir, config) in [
        (elsewhere.as_path(), "../project/ci/gates/gate.toml"),
        (gate.parent().unwrap(), "gate.toml"),
    ] {
        let run = punycheck_in(dir, &["check", "--config", config]);
        let report = text(&run.stdout);
        assert_eq!(run.status.code(), Some(0), "{report}{}", text(&run.stderr));
        assert!(
            common::verdict(&report).starts_with("PASSES ON ITS BASELINE: "),
            "{report}"
        );
    }
    // From the root itself, nothing moves: the lines are as they always were.
    let run = punycheck_in(&root, &["check", "--config", "ci/gates/gate.toml"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stdout));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    for line in json["repro_commands"].as_array().unwrap() {
        assert!(
            line.as_str().unwrap().starts_with("punycheck repro "),
            "{line}"
        );
    }
    let _ = std::fs::remove_dir_all(&top);
}

#[test]
fn a_root_that_is_not_a_folder_is_a_setup_error() {
    let top = scratch("missing");
    let gate = project(&top, "gate.toml", "../nowhere", "gate.baseline.toml");
    let run = punycheck_in(&top, &["check", "--config", gate.to_str().unwrap()]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the root of") && err.contains("\"../nowhere\"") && !err.contains("panick"),
        "{err}"
    );
    // A root that names a file is no better.
    std::fs::write(top.join("file"), "").unwrap();
    let gate = project(&top, "gate.toml", "file", "gate.baseline.toml");
    let run = punycheck_in(&top, &["check", "--config", gate.to_str().unwrap()]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("is not a folder"), "{err}");
    let _ = std::fs::remove_dir_all(&top);
}

#[test]
fn a_survey_runs_gates_of_two_projects_side_by_side() {
    let top = scratch("survey");
    let gates = [
        ("a", "gates/one.toml", ".."),
        ("b", "ci/gates/two.toml", "../.."),
    ];
    let elsewhere = top.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut named = Vec::new();
    for (name, gate, root) in gates {
        let baseline = format!("{gate}.baseline");
        let path = project(&top.join(name), gate, root, &baseline);
        // Each baseline recorded, and each cause noted, as a project does.
        let recorded = punycheck_in(
            &top,
            &[
                "check",
                "--config",
                path.to_str().unwrap(),
                "--write-baseline",
                top.join(name).join(&baseline).to_str().unwrap(),
            ],
        );
        assert_eq!(
            recorded.status.code(),
            Some(1),
            "{}",
            text(&recorded.stdout)
        );
        let file = top.join(name).join(&baseline);
        let noted = std::fs::read_to_string(&file).unwrap().replace(
            "[[cause]]\n",
            &format!("[[cause]]\nnote = \"noted in project {name}\"\n"),
        );
        std::fs::write(&file, noted).unwrap();
        named.push(format!("../{name}/{gate}"));
    }
    let run = Command::new(BIN)
        .arg("survey")
        .args(&named)
        .args(["--out", "out"])
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}{}",
        text(&run.stdout),
        text(&run.stderr)
    );
    let survey: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(elsewhere.join("out/survey.json")).unwrap())
            .unwrap();
    let surveyed = survey["gates"].as_array().unwrap();
    assert_eq!(surveyed.len(), 2);
    for (gate, (name, _, _)) in surveyed.iter().zip(gates) {
        assert_eq!(gate["exit"], 0, "{gate}");
        // Its baseline was read from its own root: every cause it shows is
        // known, with the note its project wrote.
        let causes: Vec<&serde_json::Value> = gate["causes"]
            .as_array()
            .unwrap()
            .iter()
            .chain(gate["still_there"].as_array().unwrap())
            .collect();
        assert!(!causes.is_empty(), "{gate}");
        let note = format!("noted in project {name}");
        for cause in causes {
            assert_eq!(cause["note"], note.as_str(), "{cause}");
            // A recorded cause without a recorded reproducer has none.
            if let Some(reproduce) = cause["reproduce"].as_str() {
                let root = top.join(name);
                assert!(
                    reproduce.starts_with(&format!("cd {} && ", root.display())),
                    "{reproduce}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&top);
}
