//! Writes the fuzz targets' seed corpora from the vector files.
//!
//! `cargo run -p punycheck --example fuzz_seeds` fills `fuzz/seeds/<target>/`
//! (the workspace's, wherever it is run from) for every target of
//! `punycheck::fuzz::seeds::GENERATED_TARGETS`, as that module describes:
//! one file per decoding vector for `uniqueness` and the differential
//! targets, one per encoding vector for `roundtrip`, and inputs at each
//! 32-bit limit for `overflow`. The other targets' seeds are written by hand
//! and left as they are.
//!
//! The seeds are committed: `.clusterfuzzlite/build.sh` zips them as they
//! are, and `crates/punycheck/tests/fuzz_seeds.rs` fails when they no longer
//! follow the vectors (run this example, then commit `fuzz/seeds/`).
//! `.ci/fuzz-smoke` runs it before its run.

use std::fs;
use std::path::Path;

use punycheck::fuzz::seeds::{self, GENERATED_TARGETS};
use punycheck::harness::vectors;

fn main() {
    let cases = vectors::builtin().expect("vectors parse");
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds"));
    for target in GENERATED_TARGETS {
        let dir = root.join(target);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("seed folder is writable");
    }
    let all = seeds::all(&cases);
    for seed in &all {
        fs::write(root.join(seed.target).join(&seed.name), &seed.bytes).expect("seed is writable");
    }
    println!("{} seeds written under {}", all.len(), root.display());
}
