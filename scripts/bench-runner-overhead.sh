#!/usr/bin/env bash
# How much CPU the match runner itself costs next to its engines: `xq match` with two games at once at
# nodes=5000, then the runner's own CPU time (getrusage RUSAGE_SELF) against its engines' (RUSAGE_CHILDREN,
# all reaped when the match ends), as `xq match --json` reports them. The goal is under 1% unpinned;
# the exit status fails above 2% pinned. It also prints what a move costs the runner: microseconds of CPU
# (start-up, book reading included) and wake-ups (`runner_wakeups`, the context switches getrusage counts).
# It measures twice: with --affinity (each game and its engines pinned to a CPU of their own, the
# setting for a dedicated test machine; the exit status follows this one) and without.
#
# After each game, the same engines, book and node limit under xq-runner-floor (bench/runner_floor.cpp): a
# client of the same design that does nothing but send the position and `go` and wait for `bestmove` (no
# rules, clocks, info lines or adjudication), with games as long as the match's on average. Its row, "floor",
# is the least a runner costs on this machine at this engine speed; the gap to it is what xq match's own
# work per move costs.
#
# Both games, one after the other, and a table of the two side by side: Xiangqi with xq-engine from
# data/openings/xq-balanced.epd, chess with Debian's Stockfish (`XQ_CHESS_ENGINE`) from
# data/openings/chess-balanced.epd. The same engines at the same node limit can be run under other
# runners (fastchess, cutechess) to compare their overhead with ours.
#
# usage: scripts/bench-runner-overhead.sh [--game xiangqi|chess|both] [BIN_DIR] [GAMES]
#        (defaults: both, build/bin, 40)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
which=both
if [[ ${1:-} == --game ]]; then which=${2:?--game needs xiangqi, chess or both}; shift 2; fi
case $which in xiangqi|chess|both) ;; *) echo "bench-runner-overhead: --game xiangqi, chess or both, not '$which'" >&2; exit 2 ;; esac
bin=${1:-$root/build/bin}
games=${2:-40}
xq_engine=${XQ_ENGINE:-$bin/xq-engine}
chess_engine=${XQ_CHESS_ENGINE:-/usr/games/stockfish}
gamesToRun=(xiangqi chess)
[[ $which == both ]] || gamesToRun=("$which")
# A plain build leaves the benchmark tools out: the floor's client is built here when BIN_DIR is a
# configured build's bin/.
if [[ -f $bin/../CMakeCache.txt ]]; then cmake --build "$bin/.." --target xq-runner-floor >&2; fi
for f in "$bin/xq"; do
  [[ -x $f ]] || { echo "bench-runner-overhead: $f not found (build first, or pass BIN_DIR)" >&2; exit 2; }
done
json=$(mktemp)
table=$(mktemp)
trap 'rm -f "$json" "$table"' EXIT
value() { sed -n "s/^ *\"$1\": \\([-0-9.e+]*\\),\\{0,1\\}\$/\\1/p" "$json"; }
status=0
for game in "${gamesToRun[@]}"; do
  if [[ $game == chess ]]; then
    engine=$chess_engine book=$root/data/openings/chess-balanced.epd extra=(--game chess)
  else
    engine=$xq_engine book=$root/data/openings/xq-balanced.epd extra=()
  fi
  [[ -x $engine ]] || { echo "bench-runner-overhead: $engine not found" >&2; exit 2; }
  for mode in pinned unpinned; do
    flags=()
    [[ $mode == pinned ]] && flags=(--affinity)
    "$bin/xq" match "${extra[@]}" --engine name=a cmd="$engine" --engine name=b cmd="$engine" \
      --each nodes=5000 --games "$games" --concurrency 2 "${flags[@]}" \
      --openings file="$book" order=random seed=1 \
      --json "$json" > /dev/null
    runner=$(value runner_cpu_seconds)
    engines=$(value engines_cpu_seconds)
    played=$(value games)
    plies=$(value plies)
    wakeups=$(value runner_wakeups)
    awk -v game="$game" -v m="$mode" -v r="$runner" -v e="$engines" -v g="$played" -v p="${plies:-0}" \
        -v w="${wakeups:-0}" -v t="$table" 'BEGIN {
      printf "%s, %s: games %d at nodes=5000, 2 at once, %d moves\n", game, m, g, p
      printf "  runner CPU  %.3f s (%.1f us and %.2f wake-ups a move, start-up included)\n", r,
        p ? 1e6 * r / p : 0, p ? w / p : 0
      printf "  engines CPU %.3f s\n", e
      printf "  runner overhead %.2f%% of engine CPU (goal < 1%% unpinned; this script fails above 2%% pinned)\n",
        100 * r / e
      printf "%-8s %-9s %6d %10.3f %10.3f %9.2f%% %9.1f %8.2f\n", game, m, g, r, e, 100 * r / e,
        p ? 1e6 * r / p : 0, p ? w / p : 0 >> t
      exit (100 * r / e < 2) ? 0 : 1
    }' || { [[ $mode == pinned ]] && status=1; }
  done
  if [[ -x $bin/xq-runner-floor ]]; then
    "$bin/xq-runner-floor" "$engine" "$book" 5000 "$games" $(( (plies + played - 1) / played )) > "$json"
    runner=$(value runner_cpu_seconds) engines=$(value engines_cpu_seconds) plies=$(value plies)
    wakeups=$(value runner_wakeups)
    awk -v game="$game" -v r="$runner" -v e="$engines" -v g="$games" -v p="$plies" -v w="$wakeups" \
        -v t="$table" 'BEGIN {
      printf "%s, floor (xq-runner-floor: only position, go and bestmove): %d moves\n", game, p
      printf "  runner CPU  %.3f s (%.1f us and %.2f wake-ups a move)\n", r, 1e6 * r / p, w / p
      printf "  engines CPU %.3f s\n  overhead %.2f%% of engine CPU\n", e, 100 * r / e
      printf "%-8s %-9s %6d %10.3f %10.3f %9.2f%% %9.1f %8.2f\n", game, "floor", g, r, e, 100 * r / e,
        1e6 * r / p, w / p >> t
    }'
  else
    echo "bench-runner-overhead: $bin/xq-runner-floor not built: no floor row" >&2
  fi
done
echo
printf "%-8s %-9s %6s %10s %10s %10s %9s %8s\n" game mode games "runner s" "engines s" overhead "us/move" "wakes/mv"
cat "$table"
exit $status
