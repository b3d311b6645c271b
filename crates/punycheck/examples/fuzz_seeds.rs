//! Writes the fuzz targets' seed corpora from the vector files.
//!
//! `cargo run -p punycheck --example fuzz_seeds` fills `fuzz/seeds/<target>/`
//! (the workspace's, wherever it is run from) with one
//! file per decoding vector: the Punycode bytes for `uniqueness`, and a 0
//! byte followed by them for `diff_c`, `diff_idna`, `diff_so`,
//! `diff_libidn2` and `diff_icu` (an even first byte
//! means "decode these bytes", see `punycheck::fuzz::FuzzRequest`). The
//! structured targets (`roundtrip`, `overflow`) build their inputs from any
//! bytes and start from none. `.ci/run` regenerates the seeds before the
//! smoke run, so they always follow the vectors.

use std::fs;
use std::path::Path;

use punycheck::codec::Codec;
use punycheck::harness::vectors::{self, Input};

fn main() {
    // These targets are Punycode's; the other codecs' targets have seeds
    // of their own under fuzz/seeds.
    let cases: Vec<_> = vectors::builtin()
        .expect("vectors parse")
        .into_iter()
        .filter(|c| c.codec == Codec::Punycode)
        .collect();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds"));
    let mut written = 0;
    for target in [
        "uniqueness",
        "diff_c",
        "diff_idna",
        "diff_so",
        "diff_libidn2",
        "diff_icu",
    ] {
        let dir = root.join(target);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("seed folder is writable");
        for case in &cases {
            let Input::Decode(bytes) = &case.input else {
                continue;
            };
            let mut data = Vec::new();
            if target != "uniqueness" {
                data.push(0);
            }
            data.extend_from_slice(bytes);
            fs::write(dir.join(&case.name), data).expect("seed is writable");
            written += 1;
        }
    }
    println!("{written} seeds written under {}", root.display());
}
