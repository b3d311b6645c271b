#!/bin/bash -eu
# Builds every cargo-fuzz target into $OUT with its dictionary and a seed
# corpus made from the vector files (the layout OSS-Fuzz and ClusterFuzzLite
# expect: TARGET, TARGET.dict, TARGET_seed_corpus.zip).
cd "$SRC/punycheck"
cargo run --quiet -p punycheck --example fuzz_seeds
cd fuzz
cargo fuzz build -O
for target in $(cargo fuzz list); do
    cp "target/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
    cp punycode.dict "$OUT/$target.dict"
    if [ -d "seeds/$target" ]; then
        (cd "seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
done
# diff_so's library when none is named (PUNYCHECK_SO): the RFC's code,
# which the target looks for beside itself.
cp "$(find target/x86_64-unknown-linux-gnu/release/build -name librfc3492.so | head -n 1)" "$OUT/"
