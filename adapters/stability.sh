#!/usr/bin/env bash
# Runs every gate of adapters/gates/ four ways and says whether its verdict
# moved: quiet; beside two busy loops (one per core of the project's
# machines); with its CPU share halved (a cgroup's CPU quota of one core
# of two, or where no cgroup can be made, pinned to one core that a busy
# loop shares); and beside a build of punycheck itself (cargo build
# --release into a target folder of its own, its two crates cleaned and
# built again and again, as CI builds beside its jobs). The verdict is the
# exit status and the cause keys of the text report (new or known), which
# must be the same all four ways.
#
#   bash adapters/stability.sh [GATE...]   # default: every gate; a markdown table on stdout
#   bash adapters/stability.sh --plants    # issue 39's ten runs of two planted costs
#
# --plants: a near-budget and a quadratic planted implementation
# (tests/impls/planted_cost.py: 0.75 s and 300 s at 65,536 code points,
# CPU time) each checked ten times, five quiet and five beside two busy
# loops and a build; the verdict must be the same all ten times.
#
# Needs the adapters (bash adapters/install.sh) and a release build
# (cargo build --release); writes each run's report to $OUT (default a
# temporary folder). Root for the cgroup. Not part of cargo test: it takes
# about forty minutes (docs/checking.md records its runs).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PUNYCHECK:-target/release/punycheck}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
[[ -x $bin ]] || { echo "stability.sh: build $bin first (cargo build --release)" >&2; exit 2; }

gates=("$@")
if ((${#gates[@]} == 0)); then
  for g in adapters/gates/*.toml; do
    [[ $g == *.baseline.toml ]] || gates+=("$(basename "$g" .toml)")
  done
fi

busy=()
start_busy() { # start_busy N [CPU]: N busy loops, pinned to CPU when given
  local k
  for ((k = 0; k < $1; k++)); do
    if [[ -n ${2:-} ]]; then taskset -c "$2" sh -c 'while :; do :; done' &
    else sh -c 'while :; do :; done' &
    fi
    busy+=($!)
  done
}
stop_busy() {
  local pid
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  busy=()
}
build_pid=""
start_build() { # a build of punycheck beside the check, again and again
  local dir="$out/build-target"
  # In a session (and process group) of its own, ended as one: cargo and
  # its compilers with it.
  setsid sh -c 'while :; do
      cargo build --release --locked --quiet --target-dir "$1" >/dev/null 2>&1 || exit 1
      cargo clean --release --quiet -p punycheck -p punycheck-cli --target-dir "$1" 2>/dev/null
    done' sh "$dir" &
  build_pid=$!
}
stop_build() {
  [[ -n $build_pid ]] || return 0
  kill -TERM -- "-$build_pid" 2>/dev/null || true
  wait "$build_pid" 2>/dev/null || true
  build_pid=""
}
trap 'stop_busy; stop_build' EXIT
trap 'stop_busy; stop_build; exit 130' INT TERM

# A cgroup with a quota of one core in every period: v2 (cpu.max) or v1
# (cpu.cfs_quota_us); empty when none can be made.
cgroup=""
if [[ -w /sys/fs/cgroup/cgroup.subtree_control ]] && mkdir -p /sys/fs/cgroup/punycheck-half 2>/dev/null \
    && echo "100000 100000" > /sys/fs/cgroup/punycheck-half/cpu.max 2>/dev/null; then
  cgroup=/sys/fs/cgroup/punycheck-half
elif mkdir -p /sys/fs/cgroup/cpu/punycheck-half 2>/dev/null \
    && echo 100000 > /sys/fs/cgroup/cpu/punycheck-half/cpu.cfs_period_us \
    && echo 100000 > /sys/fs/cgroup/cpu/punycheck-half/cpu.cfs_quota_us; then
  cgroup=/sys/fs/cgroup/cpu/punycheck-half
fi

verdict() { # verdict REPORT STATUS: the exit status and the causes' keys, sorted
  printf 'exit %s; ' "$2"
  { grep -E '^  [0-9]+\. ' "$1" || true; } | sed -E 's/^  [0-9]+\. //' | sort | tr '\n' '|'
}

run() { # run GATE WAY: one check of GATE; prints its verdict
  local gate=$1 way=$2 report="$out/$1.$2.txt" status=0
  case $way in
    quiet) "$bin" check --config "adapters/gates/$gate.toml" > "$report" 2>&1 || status=$? ;;
    busy)
      start_busy 2
      "$bin" check --config "adapters/gates/$gate.toml" > "$report" 2>&1 || status=$?
      stop_busy ;;
    halved)
      if [[ -n $cgroup ]]; then
        sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$cgroup" \
          "$bin" check --config "adapters/gates/$gate.toml" > "$report" 2>&1 || status=$?
      else
        start_busy 1 0
        taskset -c 0 "$bin" check --config "adapters/gates/$gate.toml" > "$report" 2>&1 || status=$?
        stop_busy
      fi ;;
    build)
      start_build
      "$bin" check --config "adapters/gates/$gate.toml" > "$report" 2>&1 || status=$?
      stop_build ;;
  esac
  verdict "$report" "$status"
}

if [[ ${gates[0]:-} == --plants ]]; then
  echo "| planted cost | quiet (5 runs) | two busy loops and a build (5 runs) | same |"
  echo "|---|---|---|---|"
  moved=0
  for seconds in 0.75 300; do
    spec="pipe:python3 tests/impls/planted_cost.py $bin quadratic $seconds"
    declare -a said=()
    for k in 1 2 3 4 5 6 7 8 9 10; do
      report="$out/plant-$seconds.$k.txt" status=0
      ((k <= 5)) || { start_busy 2; start_build; }
      "$bin" check --impl "$spec" --cases 20 --seed 1 --seconds 600 > "$report" 2>&1 || status=$?
      ((k <= 5)) || { stop_busy; stop_build; }
      said+=("$(verdict "$report" "$status")")
    done
    same=yes
    for v in "${said[@]}"; do [[ $v == "${said[0]}" ]] || { same=NO; moved=1; }; done
    tally() { printf '%s\n' "$@" | sed -E 's/;.*//' | sort | uniq -c | sed -E 's/^ *([0-9]+) (.*)/\2 x\1/' | paste -sd, -; }
    echo "| quadratic, ${seconds} s at 65,536 | $(tally "${said[@]:0:5}") | $(tally "${said[@]:5:5}") | $same |"
    if [[ $same == NO ]]; then printf '  %s\n' "${said[@]}" >&2; fi
    unset said
  done
  echo "reports in $out" >&2
  exit $moved
fi

how=${cgroup:+a cgroup quota of one core}
echo "| gate | quiet | two busy loops | CPU share halved (${how:-one core shared with a busy loop}) | beside a build | same |"
echo "|---|---|---|---|---|---|"
moved=0
for gate in "${gates[@]}"; do
  declare -A seen=()
  for way in quiet busy halved build; do seen[$way]=$(run "$gate" "$way"); done
  same=yes
  [[ ${seen[quiet]} == "${seen[busy]}" && ${seen[quiet]} == "${seen[halved]}" \
      && ${seen[quiet]} == "${seen[build]}" ]] || { same=NO; moved=1; }
  short() { sed -E 's/;.*//' <<<"$1"; }
  causes=$(tr -cd '|' <<<"${seen[quiet]}" | wc -c)
  plural=s; ((causes == 1)) && plural=
  echo "| $gate | $(short "${seen[quiet]}"), $causes cause$plural | $(short "${seen[busy]}") | $(short "${seen[halved]}") | $(short "${seen[build]}") | $same |"
  if [[ $same == NO ]]; then
    for way in quiet busy halved build; do echo "  $way: ${seen[$way]}" >&2; done
  fi
  unset seen
done
echo "reports in $out" >&2
exit $moved
