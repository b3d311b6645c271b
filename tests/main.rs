//! The command line's integration tests, as one test binary: one link of
//! the library instead of one per file, and the harness spreads every file's
//! tests over the cores at once. Each file is a module; a new file is one
//! more `mod` line here (`tests::every_file_is_a_module` checks). The cost
//! probe's tests stay a binary of their own (`tests/cost.rs`): they time the
//! machine, so they run alone.

mod common;

mod action;
mod adapters;
mod answers;
mod bench;
mod ci;
mod cli;
mod docs;
mod domain_planted;
mod entry_points;
mod export;
mod fuzz_replay;
mod gate_paths;
mod label_planted;
mod lace;
mod packages;
mod pipe_templates;
mod planted_bugs;
mod processes;
mod readme;
mod regression_gates;
mod reports;
mod sarif;
mod so;
mod survey;
mod sweep;
mod time_plan;
mod utf8;
mod uts46_parameters;
mod validators;

mod tests {
    /// Every `.rs` file of `tests/` is a module of this binary, or a test
    /// binary of its own in `Cargo.toml`: with `autotests = false`, a file
    /// left out would never run.
    #[test]
    fn every_file_is_a_module() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
        let manifest = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"),
        )
        .unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(module) = name.strip_suffix(".rs") else {
                continue;
            };
            if module == "main" {
                continue;
            }
            assert!(
                main.contains(&format!("\nmod {module};\n"))
                    || manifest.contains(&format!("path = \"tests/{name}\"")),
                "tests/{name} is neither a module of tests/main.rs nor a [[test]] of Cargo.toml"
            );
        }
    }
}
