//! `punycheck vectors --export FILE`: the vectors as one JSON document in
//! the shape of Wycheproof's files. It validates against its schema
//! (`docs/vectors.schema.json`), holds every built-in vector once, and
//! every test in it, read back as another project would read it, is what
//! the codec's C reference answers.

use crate::common;

use common::punycheck;
use punycheck::codec::Codec;
use punycheck::harness::compare::reference_for;
use punycheck::harness::vectors;
use punycheck::label::LabelRules;
use punycheck::vocabulary::{Expected, Request};
use serde_json::Value;

/// The export's schema.
fn validator() -> jsonschema::Validator {
    common::schema_validator("docs/vectors.schema.json")
}

/// The export, written by the command line to a file.
fn exported() -> Value {
    let path = std::env::temp_dir().join(format!("punycheck-export-{}.json", std::process::id()));
    let out = punycheck(&["vectors", "--export", path.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    serde_json::from_str(&text).expect("the export is JSON")
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&text[k..k + 2], 16).unwrap())
        .collect()
}

fn numbers(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn the_export_validates_and_every_test_is_the_references_answer() {
    let doc = exported();
    common::assert_valid(&validator(), &doc);
    let builtin = vectors::builtin().unwrap();
    assert_eq!(doc["numberOfTests"], builtin.len());
    let mut seen = 0;
    for group in doc["testGroups"].as_array().unwrap() {
        let mut codec = Codec::from_name(group["codec"].as_str().unwrap()).unwrap();
        if let Codec::Label(profile) | Codec::Domain(profile) = &mut codec {
            profile.rules = LabelRules::from_name(group["labelRules"].as_str().unwrap()).unwrap();
            let switch = |key: &str| group[key].as_bool().unwrap();
            profile.switches.check_hyphens = switch("checkHyphens");
            profile.switches.use_std3_ascii_rules = switch("useStd3AsciiRules");
            profile.switches.verify_dns_length = switch("verifyDnsLength");
            // UTS #46's other four: written only where not the default.
            let or = |key: &str, default: bool| group[key].as_bool().unwrap_or(default);
            profile.switches.check_bidi = or("checkBidi", true);
            profile.switches.check_joiners = or("checkJoiners", true);
            profile.switches.transitional_processing = or("transitionalProcessing", false);
            profile.switches.ignore_invalid_punycode = or("ignoreInvalidPunycode", false);
        }
        for test in group["tests"].as_array().unwrap() {
            seen += 1;
            let flags = test.get("caseFlags").map(|f| {
                f.as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_bool().unwrap())
                    .collect::<Vec<bool>>()
            });
            let request = match group["direction"].as_str().unwrap() {
                "encode" => Request::Encode {
                    code_points: numbers(&test["codePoints"]),
                    flags: flags.clone(),
                },
                _ => Request::Decode(hex(test["inputHex"].as_str().unwrap())),
            };
            let name = test["name"].as_str().unwrap();
            let reference = reference_for(codec, &request)
                .unwrap_or_else(|| panic!("{name}: the reference answers"));
            match reference {
                Expected::Encoded(bytes) => {
                    assert_eq!(hex(test["outputHex"].as_str().unwrap()), bytes, "{name}");
                    if let Some(text) = test.get("output") {
                        assert_eq!(text.as_str().unwrap().as_bytes(), bytes, "{name}");
                    }
                }
                Expected::Decoded(cps) => {
                    assert_eq!(numbers(&test["outputCodePoints"]), cps.values, "{name}");
                    if let Some(flags) = &flags {
                        assert_eq!(flags, &cps.flags, "{name}");
                    }
                }
                Expected::Error(_) if codec.label_profile().is_some() => {
                    assert_eq!(test["error"], "refused", "{name}");
                    assert_eq!(test["result"], "invalid", "{name}");
                }
                Expected::Error(kind) => {
                    assert_eq!(test["error"], kind.name(), "{name}");
                    assert_eq!(test["result"], "invalid", "{name}");
                }
            }
        }
    }
    assert_eq!(seen, builtin.len());
}

/// The schema can refuse: a test without a result, and a valid test with
/// an error, do not validate.
#[test]
fn the_schema_refuses_what_is_not_a_test() {
    let mut doc = exported();
    let test = &mut doc["testGroups"][0]["tests"][0];
    test.as_object_mut().unwrap().remove("result");
    assert!(validator().iter_errors(&doc).next().is_some());
    let mut doc = exported();
    doc["testGroups"][0]["tests"][0]["error"] = "overflow".into();
    assert!(validator().iter_errors(&doc).next().is_some());
}

/// `-` writes it to standard output, and a path that cannot be written is
/// a clear error.
#[test]
fn the_export_goes_to_standard_output_or_says_why_it_cannot_be_written() {
    let out = punycheck(&["vectors", "--export", "-"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema"], "punycheck_vectors_schema_v1.json");
    let out = punycheck(&["vectors", "--export", "/nonexistent/dir/v.json"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write /nonexistent/dir/v.json"),
        "{stderr}"
    );
}

/// The README's Python test, run as a project would run it: against a
/// correct implementation (pyny, `tests/impls/pyny.py`) it passes, and
/// against the same with a planted bug it fails.
#[test]
fn the_readme_python_test_runs_the_vectors() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## The vectors as data")
        .nth(1)
        .expect("the README has the section");
    let snippet = section
        .split("```python\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the section has a Python test");
    let dir = std::env::temp_dir().join(format!("punycheck-export-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let vectors = dir.join("punycheck-vectors.json");
    let out = punycheck(&["vectors", "--export", vectors.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    std::fs::write(dir.join("test_vectors.py"), snippet).unwrap();
    for (bug, passes) in [("None", true), ("\"bias-damp\"", false)] {
        // The project's implementation: pyny, behind the two functions the
        // test imports, refusing with ValueError; without annotations (the
        // flags keep the case of basic letters, as a plain encoder does).
        let module = format!(
            "import sys\n\
             sys.path.insert(0, {impls:?})\n\
             import pyny\n\
             _p = pyny.Punycode({bug})\n\
             def encode(code_points):\n\
             \x20   try:\n\
             \x20       return bytes(_p.encode(code_points, [65 <= c <= 90 for c in code_points])).decode('ascii')\n\
             \x20   except pyny.Failure as e:\n\
             \x20       raise ValueError(e.message)\n\
             def decode(text):\n\
             \x20   try:\n\
             \x20       return _p.decode(text.encode('latin-1'))[0]\n\
             \x20   except pyny.Failure as e:\n\
             \x20       raise ValueError(e.message)\n",
            impls = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls"),
        );
        std::fs::write(dir.join("my_punycode.py"), module).unwrap();
        let run = common::python_command()
            .arg("test_vectors.py")
            .current_dir(&dir)
            .env("PYTHONPATH", &dir)
            .output()
            .expect("python3 runs");
        assert_eq!(
            run.status.success(),
            passes,
            "pyny with bug {bug}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The counts the README and the docs state are the project's: the
/// vectors `vectors --export` writes, and the gates in `adapters/gates/`.
#[test]
fn the_counts_the_docs_state_are_true() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let builtin = vectors::builtin().unwrap().len();
    assert!(
        readme.contains(&format!("writes all {builtin} vectors")),
        "README.md does not say the export writes {builtin} vectors"
    );
    let gates = std::fs::read_dir(root.join("adapters/gates"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".toml") && !name.ends_with(".baseline.toml")
        })
        .count();
    let checking = std::fs::read_to_string(root.join("docs/checking.md")).unwrap();
    assert!(
        checking.contains(&format!("`adapters/gates/` holds {gates} such gates")),
        "docs/checking.md does not say adapters/gates/ holds {gates} gates"
    );
}
