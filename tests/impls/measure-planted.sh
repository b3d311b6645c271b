#!/usr/bin/env bash
# Measures what `check` reports for each planted bug of pyny.py, and how
# fast, for the table of docs/findings.md: one 30-second check per bug through pipe:,
# with --fail-fast, seed 1. The Unicode-limit bugs are measured a second
# time in pyny's --unicode mode, declared --domain unicode (an
# implementation that takes only Unicode scalar values).
# Usage: tests/impls/measure-planted.sh [PUNYCHECK]   (default target/release/punycheck)
set -euo pipefail
cd "$(dirname "$0")/../.."
punycheck="${1:-target/release/punycheck}"
pyny=tests/impls/pyny.py
unicode_bugs="signed-encoder int26 weight-strict trailing-zero buffer-256 buffer-512-overrun buffer-512-silent"

row() {  # row BUG MODE ARGS...
    local bug="$1" mode="$2"; shift 2
    local start end out status
    start=$(date +%s.%N)
    status=0
    out=$("$punycheck" check --impl "pipe:python3 $pyny --pipe $mode--bug $bug" "$@" \
        --seed 1 --seconds 30 --fail-fast 2>/dev/null) || status=$?
    end=$(date +%s.%N)
    local first
    first=$(printf '%s\n' "$out" | grep -m1 -E '^  1\. ' | sed 's/^  1\. //; s/|/\\|/g' || true)
    printf '| `%s` | %s | %s | %.1f | %s |\n' "$bug" "${mode:+unicode}" "$status" \
        "$(echo "$end - $start" | bc)" "${first:-none}"
}

echo '| planted bug (`--bug`) | mode | exit | seconds | first cause reported |'
echo '|---|---|---|---|---|'
for bug in $(python3 "$pyny" --help | sed -n '/^Planted bugs/,$p' | grep -oE '^  [a-z][a-z0-9-]+ ' | tr -d ' '); do
    row "$bug" ""
done
for bug in $unicode_bugs; do
    # The 512-entry arrays say "too large" beyond 512 (beyond 513 for
    # buffer-512-silent): declared.
    declared=(--domain unicode)
    case "$bug" in buffer-512-*) declared+=(--max-encode 512) ;; esac
    row "$bug" "--unicode " "${declared[@]}"
done
