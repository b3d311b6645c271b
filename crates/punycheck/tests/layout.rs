//! The workspace's layout, checked: the library depends on none of the
//! command line's crates, dependencies between modules run one way (in the
//! library, `crates/punycheck/src`, and in the command line, `src/`), and
//! no source file grows past about 800 lines without saying why.
//!
//! Modules are read as text. A module's dependencies are the `crate::...`
//! and `super::...` paths in its files outside their `#[cfg(test)]` module
//! (tests may look anywhere). Two modules that are siblings (the top-level
//! modules of `src/`, or the files of one folder) must not depend on each
//! other both ways, directly or through other siblings.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `src/harness/compare.rs` is
/// `["harness", "compare"]`, `src/engines/mod.rs` is `["engines"]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("below src/");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts
}

/// The file's text without its unit tests (from `#[cfg(test)]` followed by
/// `mod tests` to the end).
fn without_tests(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(k) => &text[..k],
        None => text,
    }
}

/// The module paths a file refers to, resolved from `module`.
fn references(module: &[String], text: &str) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    // Each `super` is the parent of the module the file is (for a `mod.rs`
    // too: its module is its folder).
    let base: Vec<String> = module.to_vec();
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let ident = |k: usize| {
        let end = code[k..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .map_or(code.len(), |e| k + e);
        code[k..end].to_string()
    };
    for (k, _) in code.match_indices("crate::") {
        if k > 0 && (bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_') {
            continue;
        }
        let path = ident(k + "crate::".len());
        let parts: Vec<String> = path
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        found.insert(parts);
    }
    for (k, _) in code.match_indices("super::") {
        if k > 0
            && (bytes[k - 1].is_ascii_alphanumeric()
                || bytes[k - 1] == b'_'
                || bytes[k - 1] == b':')
        {
            continue;
        }
        let mut path = base.clone();
        let mut rest = &code[k..];
        while let Some(r) = rest.strip_prefix("super::") {
            path.pop();
            rest = r;
        }
        let tail = ident(code.len() - rest.len());
        path.extend(
            tail.split("::")
                .filter(|p| !p.is_empty())
                .map(str::to_string),
        );
        found.insert(path);
    }
    found
}

/// The source folders of the workspace's two crates: the library's and
/// the command line's.
fn sources() -> [PathBuf; 2] {
    let library = Path::new(env!("CARGO_MANIFEST_DIR"));
    [library.join("src"), library.join("../../src")]
}

/// For every folder of `src`, the dependency graph between its child
/// modules.
fn sibling_graphs(src: &Path) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let module = module_of(src, file);
        let text = fs::read_to_string(file).expect("a source file is readable");
        for target in references(&module, without_tests(&text)) {
            // Keep the longest prefix of the path that is a module of ours.
            let Some(target) = (1..=target.len())
                .rev()
                .map(|n| target[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            // The first level at which the two paths part is where the edge is.
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == target.len() {
                continue; // a module and its own descendants or ancestors
            }
            graphs
                .entry(module[..common].to_vec())
                .or_default()
                .entry(module[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    graphs
}

/// Whether `to` is reachable from `from` in `graph`.
fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(node) = stack.pop() {
        if node == to {
            return true;
        }
        if seen.insert(node.clone()) {
            stack.extend(graph.get(&node).into_iter().flatten().cloned());
        }
    }
    false
}

#[test]
fn module_dependencies_run_one_way() {
    let [library, command_line] = sources();
    let mut cycles = Vec::new();
    for src in [&library, &command_line] {
        for (parent, graph) in &sibling_graphs(src) {
            for (from, targets) in graph {
                for to in targets {
                    if from < to && reaches(graph, to, from) {
                        let at = if parent.is_empty() {
                            "crate".to_string()
                        } else {
                            parent.join("::")
                        };
                        cycles.push(format!("{}: {at}: {from} <-> {to}", src.display()));
                    }
                }
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules that import each other: {cycles:#?}"
    );
    // The check sees the layering it is meant to guard, in both crates.
    let top = &sibling_graphs(&library)[&Vec::new()];
    assert!(top["harness"].contains("engines"), "{top:?}");
    assert!(top["engines"].contains("vocabulary"), "{top:?}");
    let top = &sibling_graphs(&command_line)[&Vec::new()];
    assert!(top["commands"].contains("config"), "{top:?}");
}

/// The command line's crates, which a crate that depends on the library
/// must not pay for.
const COMMAND_LINE_CRATES: [&str; 6] = [
    "clap",
    "indicatif",
    "plotters",
    "ctrlc",
    "quick-junit",
    "quick-xml",
];

/// The names of the crates in `package`'s tree of normal dependencies,
/// with `features` (cargo's own options); the tree's text beside them.
fn normal_tree(package: &str, features: &[&str]) -> (BTreeSet<String>, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(&cargo)
        .args(["tree", "--locked", "-p", package, "-e", "normal"])
        .args(["--prefix", "none", "--format", "{p}"])
        .args(features)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout).into_owned();
    let names = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    (names, tree)
}

#[test]
fn the_library_depends_on_no_command_line_crate() {
    // Every feature but `clap` (derives for a command line, which brings
    // its own).
    let others = ["--features", "libidn2,icu,ada,arbitrary"];
    for features in [&["--no-default-features"][..], &others] {
        let (names, tree) = normal_tree("punycheck", features);
        // The tree is read right: the library's own dependencies are in it.
        assert!(names.contains("idna") && names.contains("serde"), "{tree}");
        for name in COMMAND_LINE_CRATES {
            assert!(!names.contains(name), "{name} with {features:?}:\n{tree}");
        }
    }
    // And the command line does depend on them, so the names are right.
    let (names, tree) = normal_tree("punycheck-cli", &["--no-default-features"]);
    for name in COMMAND_LINE_CRATES {
        assert!(
            names.contains(name),
            "{name} not in the command line's tree:\n{tree}"
        );
    }
}

#[test]
fn a_cycle_is_seen() {
    let module = vec!["engines".to_string(), "exec".to_string()];
    let refs = references(
        &module,
        "use super::spec::X;\nuse crate::harness::compare::Request;",
    );
    assert!(refs.contains(&vec![
        "engines".to_string(),
        "spec".to_string(),
        "X".to_string()
    ]));
    assert!(refs.contains(&vec![
        "harness".to_string(),
        "compare".to_string(),
        "Request".to_string()
    ]));
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    graph.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(reaches(&graph, "c", "b"));
    graph.get_mut("c").unwrap().clear();
    assert!(!reaches(&graph, "c", "a"));
}

/// Files above this many lines say why in their module docs, under a
/// `# Size` heading.
const LONG: usize = 800;

#[test]
fn long_files_say_why() {
    let mut files = Vec::new();
    for src in sources() {
        rust_files(&src, &mut files);
    }
    let mut unexplained = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("a source file is readable");
        if text.lines().count() > LONG && !text.contains("//! # Size") {
            unexplained.push(format!(
                "{} ({} lines)",
                file.display(),
                text.lines().count()
            ));
        }
    }
    assert!(
        unexplained.is_empty(),
        "files over {LONG} lines without a `# Size` section: {unexplained:#?}"
    );
}
