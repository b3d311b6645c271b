//! The library's integration tests, as one test binary: one link of the
//! library instead of one per file, and the harness spreads every file's
//! tests over the cores at once. Each file is a module; a new file is one
//! more `mod` line here (`tests::every_file_is_a_module` checks).

mod amc_ace_z;
mod appendix_c;
mod bootstring;
mod declarations;
mod differential;
mod domain;
mod engines_sys;
mod fast_paths;
mod fuzz_oracles;
mod fuzz_seeds;
mod idna_test_v2;
mod label;
mod layout;
mod robustness;
mod runner;
mod rust_api;
mod system_libraries;
mod traces;
mod vectors;

mod tests {
    /// Every `.rs` file of `tests/` is a module of this binary: with
    /// `autotests = false`, a file left out would never run.
    #[test]
    fn every_file_is_a_module() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(module) = name.strip_suffix(".rs") else {
                continue;
            };
            assert!(
                module == "main" || main.contains(&format!("\nmod {module};\n")),
                "tests/{name} is not a module of tests/main.rs"
            );
        }
    }
}
