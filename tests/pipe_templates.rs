//! The `pipe:` adapter templates of `adapters/templates/`, shown whole in
//! the README (Python) and docs/checking.md (JavaScript): each one speaks the protocol (every vector is asked and
//! answered, nothing is broken, crashed or hung), and every cause `check`
//! reports about the implementation behind it has a reproducer that
//! reproduces.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::BIN;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Each template: its runtime, its path, and the domain of the
/// implementation it wraps as it stands (CPython's str holds lone
/// surrogates; Node's module is declared Unicode scalars, as FINDINGS.md
/// section 2 does).
const TEMPLATES: [(&str, &str, &str); 2] = [
    (
        "python3",
        "adapters/templates/pipe_template.py",
        "unicode-with-surrogates",
    ),
    ("node", "adapters/templates/pipe_template.js", "unicode"),
];

/// Where each template is shown whole, as a user copies it.
const SHOWN_IN: [&str; 2] = ["README.md", "docs/checking.md"];

#[test]
fn the_docs_show_each_template_whole() {
    for ((_, path, _), page) in TEMPLATES.iter().zip(SHOWN_IN) {
        let text = std::fs::read_to_string(root().join(page)).unwrap();
        let template = std::fs::read_to_string(root().join(path)).unwrap();
        assert!(
            text.contains(&template),
            "{page} does not show {path} as it is"
        );
    }
}

#[test]
fn each_template_speaks_the_protocol_and_its_findings_reproduce() {
    for (runtime, path, domain) in TEMPLATES {
        let spec = format!("pipe:{runtime} {path}");
        let declared = [
            "--domain",
            domain,
            "--errors",
            "failure-only",
            "--no-annotations",
        ];
        let out = Command::new(BIN)
            .current_dir(root())
            .args(["check", "--impl", &spec, "--seed", "1", "--cases", "300"])
            .args(["--seconds", "900"])
            // The adapters' protocol is the subject, not the codecs' speed.
            .arg("--no-cost")
            .args(declared)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{spec}: {report}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let vectors = report
            .lines()
            .find_map(|l| l.strip_prefix("vectors: "))
            .unwrap_or_else(|| panic!("{spec}: no vector line in {report}"));
        // "N of N run": every vector was asked or declared not askable.
        let words: Vec<&str> = vectors.split_whitespace().take(3).collect();
        assert!(
            words.len() == 3 && words[1] == "of" && words[0] == words[2],
            "{spec}: {vectors}"
        );
        for kind in ["crash", "broken answer", "hang"] {
            assert!(
                !report.contains(&format!(": {kind} (")),
                "{spec} was found {kind}: {report}"
            );
        }
        common::assert_every_reproducer_exits_1(&spec, &report);
    }
}
