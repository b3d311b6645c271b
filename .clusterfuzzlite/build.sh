#!/bin/bash -eu
# Builds every cargo-fuzz target into $OUT the way OSS-Fuzz and
# ClusterFuzzLite expect it, each TARGET with:
#   TARGET.dict             the Punycode dictionary (fuzz/punycode.dict)
#   TARGET_seed_corpus.zip  its seeds (fuzz/seeds/TARGET), each file named
#                           by the SHA-1 of its content, as OSS-Fuzz names
#                           corpus files
#   TARGET.options          libFuzzer's max_len, for the targets that need
#                           one (see max_len below)
# and librfc3492.so, the library diff_so loads when PUNYCHECK_SO names none.
#
# ClusterFuzzLite runs it from .clusterfuzzlite/Dockerfile; OSS-Fuzz's
# projects/punycheck/build.sh (oss-fuzz/build.sh here) calls it. The base
# image sets SRC, OUT, WORK, SANITIZER and the compiler flags;
# .ci/clusterfuzzlite-build runs it the same way without Docker, and checks
# what it leaves in $OUT.
#
# The seeds are the committed ones: crates/punycheck/tests/fuzz_seeds.rs
# keeps them following the vectors, so no host program is built here.

# The toolchain: RUSTUP_TOOLCHAIN when it is set (the Dockerfile pins the
# nightly there, and rustup's cargo and rustc obey it), else rustup's
# default, which must then be a nightly (cargo fuzz needs -Z flags).
rustc_version="$(rustc --version)"
echo "build.sh: ${RUSTUP_TOOLCHAIN:-the default toolchain}: $rustc_version"
case "$rustc_version" in
    *nightly*) ;;
    *)
        echo "build.sh: cargo fuzz needs a nightly toolchain; set RUSTUP_TOOLCHAIN" \
            "(.clusterfuzzlite/Dockerfile pins one)" >&2
        exit 1
        ;;
esac

# libFuzzer's max_len, for the targets whose input libFuzzer's default
# (the longer of 4096 bytes and the longest file in the corpus) does not fit:
# - The Punycode targets that decode raw bytes: the vectors' buffer edges
#   sit at 4,096 bytes and 4,096 code points (seeds up to 4,379 bytes), and
#   the default falls back to 4096 once pruning drops the long seeds; 4608
#   keeps every edge reachable, from either side.
# - The structured targets read a bounded part of their input, and bytes
#   past it are mutations that change nothing: roundtrip at most 64 code
#   points (10 bytes each), overflow 8 bytes and a short tail, the LACE
#   targets 80 code points (5 bytes each) or a 36-octet label, the label
#   targets 64 pieces (at most 9 bytes each).
# The others keep the default: amc_diff_c and bootstring_punycode (seeds of
# 70 bytes at most), utf8_strict and utf8_rfc2279 (they read 4096 bytes),
# and the domain targets (a name of at most 320 code points, each piece or
# separator at most 11 bytes: under 4096 bytes whatever its shape).
max_len() {
    case "$1" in
        uniqueness | diff_c | diff_idna | diff_so | diff_libidn2 | diff_icu) echo 4608 ;;
        roundtrip) echo 1024 ;;
        overflow) echo 256 ;;
        lace_roundtrip | lace_uniqueness) echo 512 ;;
        label_diff_idna | label_roundtrip) echo 1024 ;;
        *) echo "" ;;
    esac
}

cd "$SRC/punycheck/fuzz"
# -O with debug assertions: optimized, and Rust's overflow checks on, as
# `cargo fuzz run` builds by default (so .ci/fuzz-smoke's build is this one).
cargo fuzz build -O --debug-assertions
release=target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
    cp "$release/$target" "$OUT/"
    cp punycode.dict "$OUT/$target.dict"
    length="$(max_len "$target")"
    if [ -n "$length" ]; then
        printf '[libfuzzer]\nmax_len = %s\n' "$length" > "$OUT/$target.options"
    fi
    if [ -d "seeds/$target" ]; then
        named="$WORK/seeds/$target"
        rm -rf "$named"
        mkdir -p "$named"
        for seed in "seeds/$target"/*; do
            sum="$(sha1sum < "$seed")"
            cp "$seed" "$named/${sum%% *}"
        done
        rm -f "$OUT/${target}_seed_corpus.zip"
        zip -q -j -X "$OUT/${target}_seed_corpus.zip" "$named"/*
    fi
done
# diff_so's library when none is named (PUNYCHECK_SO): the RFC's code, which
# the target looks for beside itself. build.rs built it, and baked its path
# into the target: copy that one (a target directory that has seen other
# flags holds other builds of it). Where none matches (the image's coverage
# build copies a plain cargo build into $release), the newest.
here="$(pwd -P)"
find "$release/build" -name librfc3492.so | while read -r so; do
    if grep -q -F "$here/$so" "$release/diff_so"; then
        cp "$so" "$OUT/"
    fi
done
if [ ! -f "$OUT/librfc3492.so" ]; then
    newest="$(find "$release/build" -name librfc3492.so -printf '%T@ %p\n' | sort -n | tail -n 1)"
    cp "${newest#* }" "$OUT/"
fi
