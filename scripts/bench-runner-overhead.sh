#!/usr/bin/env bash
# How much CPU the match runner itself costs next to its engines: `xq match` with two games at once at
# nodes=5000, then the runner's own CPU time (getrusage RUSAGE_SELF) against its engines' (RUSAGE_CHILDREN,
# all reaped when the match ends), as `xq match --json` reports them. The goal is under 2%.
# It measures twice: with --affinity (each game and its engines pinned to a CPU of their own, the
# setting for a dedicated test machine; the exit status follows this one) and without.
#
# usage: scripts/bench-runner-overhead.sh [BIN_DIR] [GAMES]     (defaults: build/bin, 40)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/bin}
games=${2:-40}
engine=${XQ_ENGINE:-$bin/xq-engine}
for f in "$bin/xq" "$engine"; do
  [[ -x $f ]] || { echo "bench-runner-overhead: $f not found (build first, or pass BIN_DIR)" >&2; exit 2; }
done
json=$(mktemp)
trap 'rm -f "$json"' EXIT
value() { sed -n "s/^ *\"$1\": \\([-0-9.e+]*\\),\\{0,1\\}\$/\\1/p" "$json"; }
status=0
for mode in pinned unpinned; do
  flags=()
  [[ $mode == pinned ]] && flags=(--affinity)
  "$bin/xq" match --engine name=a cmd="$engine" --engine name=b cmd="$engine" \
    --each nodes=5000 --games "$games" --concurrency 2 "${flags[@]}" \
    --openings file="$root/data/openings/xq-balanced.epd" order=random seed=1 \
    --json "$json" > /dev/null
  runner=$(value runner_cpu_seconds)
  engines=$(value engines_cpu_seconds)
  played=$(value games)
  awk -v m="$mode" -v r="$runner" -v e="$engines" -v g="$played" 'BEGIN {
    printf "%s: games %d at nodes=5000, 2 at once\n", m, g
    printf "  runner CPU  %.3f s\n  engines CPU %.3f s\n", r, e
    printf "  runner overhead %.2f%% of engine CPU (goal < 2%%)\n", 100 * r / e
    exit (100 * r / e < 2) ? 0 : 1
  }' || { [[ $mode == pinned ]] && status=1; }
done
exit $status
