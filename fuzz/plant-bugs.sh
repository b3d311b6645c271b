#!/bin/bash
# Measures which fuzz target finds each of a few deliberate bugs, and how
# fast. Every bug is planted, one at a time, into src/punycode.rs of a
# scratch worktree of HEAD (outside this tree, never committed).
#
# Usage: fuzz/plant-bugs.sh [--no-seeds] [SECONDS_PER_TARGET]   (default 300)
# Prints: bug, target, seconds to the first crash (or "not found"), input.
set -u
cd "$(dirname "$0")/.."
seeded=1
if [ "${1:-}" = "--no-seeds" ]; then seeded=0; shift; fi
limit="${1:-300}"
scratch="$(mktemp -d)/punycheck"
git worktree add -q --detach "$scratch" HEAD
trap 'git worktree remove --force "$scratch"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/tmp/punycheck-plant-target}"
cd "$scratch"
cargo run --quiet --example fuzz_seeds >/dev/null 2>&1
orig="$(cat src/punycode.rs)"

plant() { # name, text to replace, replacement
    local name=$1 old=$2 new=$3
    printf '%s\n' "$orig" > src/punycode.rs
    OLD="$old" NEW="$new" python3 -c '
import os; p="src/punycode.rs"; s=open(p).read()
assert os.environ["OLD"] in s, os.environ["OLD"]
open(p, "w").write(s.replace(os.environ["OLD"], os.environ["NEW"], 1))'
    if ! (cd fuzz && cargo +nightly fuzz build -O >/dev/null 2>&1); then
        printf '%s\tbuild failed\n' "$name"
        return
    fi
    for target in diff_c overflow roundtrip uniqueness; do
        rm -rf "fuzz/artifacts/$target" fuzz/plant-corpus
        mkdir -p fuzz/plant-corpus
        local extra=()
        if [ "$seeded" = 1 ]; then
            [ -d "fuzz/seeds/$target" ] && extra+=("seeds/$target")
            extra+=(-- -dict=punycode.dict)
        else
            extra+=(--)
        fi
        local start end
        start=$(date +%s.%N)
        (cd fuzz && timeout $((limit + 60)) cargo +nightly fuzz run -O "$target" plant-corpus \
            "${extra[@]}" -max_total_time="$limit" -max_len=512 >/tmp/plant-run.log 2>&1)
        end=$(date +%s.%N)
        if ls "fuzz/artifacts/$target"/crash-* >/dev/null 2>&1; then
            printf '%s\t%s\t%.1f\t%s\n' "$name" "$target" "$(echo "$end - $start" | bc)" \
                "$(grep -m1 -A1 'panicked at' /tmp/plant-run.log | tail -1 | cut -c1-100)"
            return
        fi
        printf '%s\t%s\tnot found in %s s\n' "$name" "$target" "$limit"
    done
}

plant damp-701 'pub const DAMP: u32 = 700;' 'pub const DAMP: u32 = 701;'
plant threshold 'k >= bias + T_MAX {' 'k >= bias + T_MAX - 1 {'
plant no-digit-overflow-check '            i = digit
                .checked_mul(w)
                .and_then(|add| i.checked_add(add))' '            i = Some(i.wrapping_add(digit.wrapping_mul(w)))'
plant no-increment-overflow-check '                delta = delta.checked_add(1).ok_or(Error::Overflow {' \
    '                delta = Some(delta.wrapping_add(1)).ok_or(Error::Overflow {'
plant first-delimiter '.rposition(|&c| c == DELIMITER).unwrap_or(0);' '.position(|&c| c == DELIMITER).unwrap_or(0);'
plant underscore-digit "        b'0'..=b'9' => Some(u32::from(c - b'0') + 26)," "        b'0'..=b'9' => Some(u32::from(c - b'0') + 26),
        b'_' => Some(0),"
plant flag-lost '            .insert(i as usize, input[pos - 1].is_ascii_uppercase());' '            .insert(i as usize, false);'
