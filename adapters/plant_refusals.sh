#!/usr/bin/env bash
# Issue 46's check of every gate whose baseline records a refusal of valid
# input: a planted refusal of every question holding a `q`
# (tests/impls/plant_in_front.py refuse-letter:q:DIRECTION), in front of
# the gate's own adapter, in each direction alone, must fail the gate on
# its baseline with a new cause named by its minimized witness. Prints a
# markdown table: the gate, the direction, the exit status, and the
# planted cause's witness (`NEW: ...` beside a known refusal of that
# direction, or a new cause where the baseline records none).
#
#   bash adapters/plant_refusals.sh [GATE...]   # default: every such gate
#
# Needs the adapters (bash adapters/install.sh) and a release build
# (cargo build --release); writes each run's report to $OUT (default a
# temporary folder). Not part of cargo test, which plants the same in
# front of CPython's gates (tests/adapters.rs); docs/checking.md records
# a run of it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PUNYCHECK:-target/release/punycheck}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
[[ -x $bin ]] || { echo "plant_refusals.sh: build $bin first (cargo build --release)" >&2; exit 2; }

gates=("$@")
if ((${#gates[@]} == 0)); then
  for b in adapters/gates/*.baseline.toml; do
    grep -q '^kind = "rejects-valid"' "$b" && gates+=("$(basename "$b" .baseline.toml)")
  done
fi

echo "| gate | planted in | exit | the planted cause |"
echo "|---|---|---:|---|"
for gate in "${gates[@]}"; do
  config=adapters/gates/$gate.toml
  spec=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["implementation"]["spec"])' "$config")
  command=${spec#pipe:}
  for direction in decode encode; do
    report=$out/$gate.$direction.txt
    status=0
    "$bin" check --config "$config" \
      --impl "pipe:python3 tests/impls/plant_in_front.py refuse-letter:q:$direction $command" \
      >"$report" 2>&1 || status=$?
    # The planted cause: its NEW line when it is beside a known one, else
    # its minimized input.
    cause=$(awk '/^  [0-9]+\. /{block=$0; next} /planted: refuses q/{print block; exit}' "$report")
    new=$(grep -B3 'planted: refuses q' "$report" | grep -m1 -o 'NEW: .*' || true)
    input=$(grep -B2 'planted: refuses q' "$report" | grep -m1 -o 'input: [^(]*' || true)
    what=${new:-${cause:+new: ${input}}}
    echo "| $gate | $direction | $status | ${what:-no cause of the plant} |"
  done
done
