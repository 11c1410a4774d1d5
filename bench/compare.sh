#!/usr/bin/env bash
# Runs xq-bench and prints each benchmark's throughput next to a saved baseline, so a slowdown shows in one
# command.
#   bench/compare.sh [--build DIR] [--baseline FILE] [--filter REGEX] [--save]
# --save writes this run as the new baseline. Needs jq. Exit status 0 unless the run itself fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
baseline="$root/bench/baseline.json"
filter="."
save=0
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build="$2"; shift 2 ;;
        --baseline) baseline="$2"; shift 2 ;;
        --filter) filter="$2"; shift 2 ;;
        --save) save=1; shift ;;
        -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
        *) echo "compare.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
bin="$build/bin/xq-bench"
# A plain build leaves the benchmark tools out: built here, once the build directory is configured.
if [ -f "$build/CMakeCache.txt" ]; then cmake --build "$build" --target xq-bench >&2; fi
[ -x "$bin" ] || { echo "compare.sh: $bin not found; configure $build first (scripts/test.sh --quick)" >&2; exit 2; }
command -v jq >/dev/null || { echo "compare.sh: jq is required" >&2; exit 2; }

current=$(mktemp)
trap 'rm -f "$current"' EXIT
"$bin" --benchmark_filter="$filter" --benchmark_out="$current" --benchmark_out_format=json >/dev/null

if [ "$save" = 1 ]; then
    cp "$current" "$baseline"
    echo "saved baseline: $baseline"
fi
if [ ! -f "$baseline" ]; then
    echo "compare.sh: no baseline at $baseline (run with --save to create one)" >&2
    exit 2
fi

# Throughput (items per second) where a benchmark reports it, else 1/time; change is current vs baseline.
jq -r --slurpfile base "$baseline" '
  def rate: if .items_per_second then .items_per_second else (1e9 / .real_time) end;
  ($base[0].benchmarks | map({key: .name, value: rate}) | from_entries) as $b
  | .benchmarks[]
  | select(.run_type == "iteration")
  | [.name, ($b[.name] // null), rate]
  | @tsv' "$current" |
awk -F'\t' '
  function human(x) { if (x == "") return "-"; if (x >= 1e9) return sprintf("%.2fG", x/1e9);
                      if (x >= 1e6) return sprintf("%.2fM", x/1e6); if (x >= 1e3) return sprintf("%.1fk", x/1e3);
                      return sprintf("%.1f", x) }
  BEGIN { printf "%-34s %12s %12s %9s\n", "benchmark (items/s)", "baseline", "current", "change" }
  { base = $2; cur = $3;
    change = (base == "" || base == 0) ? "new" : sprintf("%+.1f%%", (cur - base) * 100 / base);
    flag = (base != "" && base > 0 && (cur - base) / base < -0.05) ? "  <-- slower" : "";
    printf "%-34s %12s %12s %9s%s\n", $1, human(base), human(cur), change, flag }'
