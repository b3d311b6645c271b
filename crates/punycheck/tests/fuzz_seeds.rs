//! The committed seed corpora (`fuzz/seeds/`) follow the vectors: for every
//! target whose seeds are generated, the folder holds exactly the files
//! `punycheck::fuzz::seeds::all` makes, byte for byte.
//!
//! `.clusterfuzzlite/build.sh` zips the folders as they are committed (it
//! builds no host program to regenerate them), so this test is what keeps
//! ClusterFuzzLite's and OSS-Fuzz's seeds current. When it fails, run
//! `cargo run -p punycheck --example fuzz_seeds` and commit `fuzz/seeds/`.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use punycheck::fuzz::seeds::{self, GENERATED_TARGETS};
use punycheck::harness::vectors;

const SEEDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds");

/// The files of one seed folder, by name.
fn committed(target: &str) -> BTreeMap<String, Vec<u8>> {
    let dir = Path::new(SEEDS).join(target);
    let Ok(entries) = fs::read_dir(&dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| {
            let path = e.expect("a directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&path).expect("a seed file is readable"))
        })
        .collect()
}

#[test]
fn the_committed_seeds_follow_the_vectors() {
    let cases = vectors::builtin().unwrap();
    let all = seeds::all(&cases);
    let fix = "run `cargo run -p punycheck --example fuzz_seeds` and commit fuzz/seeds/";
    for target in GENERATED_TARGETS {
        let want: BTreeMap<String, Vec<u8>> = all
            .iter()
            .filter(|s| s.target == target)
            .map(|s| (s.name.clone(), s.bytes.clone()))
            .collect();
        assert!(!want.is_empty(), "{target}: no seeds generated");
        let have = committed(target);
        let missing: Vec<&String> = want.keys().filter(|k| !have.contains_key(*k)).collect();
        let extra: Vec<&String> = have.keys().filter(|k| !want.contains_key(*k)).collect();
        let changed: Vec<&String> = want
            .iter()
            .filter(|(k, v)| have.get(*k).is_some_and(|h| h != *v))
            .map(|(k, _)| k)
            .collect();
        assert!(
            missing.is_empty() && extra.is_empty() && changed.is_empty(),
            "fuzz/seeds/{target} does not follow the vectors ({fix}): \
             missing {missing:?}, not generated {extra:?}, different {changed:?}"
        );
    }
}

/// The hand-written seeds are there too: every target of `fuzz/` has a
/// seed folder, so ClusterFuzzLite and OSS-Fuzz start every target from
/// seeds (`.ci/clusterfuzzlite-build` checks each gets its zip).
#[test]
fn every_fuzz_target_has_seeds() {
    let targets = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/fuzz_targets"
    ));
    for entry in fs::read_dir(targets).unwrap() {
        let path = entry.unwrap().path();
        let target = path.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            !committed(&target).is_empty(),
            "fuzz/seeds/{target} is missing or empty"
        );
    }
}
