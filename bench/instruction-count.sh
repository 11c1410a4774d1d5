#!/usr/bin/env bash
# Instructions the engine executes for a fixed amount of work, counted by callgrind: exact and repeatable,
# where nodes per second on a shared machine vary by +-15% from run to run. Two workloads: `bench 8` (48
# positions, mostly endgames) and a depth-14 search of a middlegame (where the evaluation costs most).
# A change that leaves the node counts alone and lowers the instructions is a speed-up.
#
# Valgrind cannot run AVX-512 code, so build the engine for it without -march=native, at the release level:
#   cmake -S . -B build-vg -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_NATIVE=OFF \
#     -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O3 -g -DNDEBUG"   # XQ_NATIVE=OFF targets x86-64-v2
#   ninja -C build-vg xq-engine
#   bench/instruction-count.sh --engine build-vg/bin/xq-engine [--json]
set -euo pipefail
engine=""
json=0
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine="$2"; shift 2 ;;
        --json) json=1; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "instruction-count.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
[ -n "$engine" ] || { echo "instruction-count.sh: --engine PATH is required (see --help)" >&2; exit 2; }
[ -x "$engine" ] || { echo "instruction-count.sh: $engine is not an executable" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instruction-count.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }

middlegame="2bakab1r/4n4/1c4nc1/p1p1p1pCp/1r7/9/P1P1P1P1P/2N6/4NR3/R1BAKAB2 w - - 4 8"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# callgrind's total from its log: "==PID== I   refs:      1,234,567".
instructions() { awk '/I *refs:/ { gsub(",", "", $NF); print $NF }' "$1"; }

valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$scratch/bench.log" \
    "$engine" bench 8 >"$scratch/bench.out" 2>&1 || { echo "instruction-count.sh: bench failed" >&2; exit 1; }
bench_nodes=$(awk '/Nodes searched/ { print $3 }' "$scratch/bench.out")
bench_instructions=$(instructions "$scratch/bench.log")

# The search: feed the engine until it answers bestmove, then quit.
coproc ENGINE { valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$scratch/search.log" "$engine"; }
printf 'uci\nisready\nposition fen %s\ngo depth 14\n' "$middlegame" >&"${ENGINE[1]}"
search_nodes=""
while IFS= read -r -t 600 line <&"${ENGINE[0]}"; do
    case "$line" in
        "info "*" nodes "*) search_nodes=$(sed -E 's/.* nodes ([0-9]+).*/\1/' <<<"$line") ;;
        bestmove*) break ;;
    esac
done
printf 'quit\n' >&"${ENGINE[1]}"
wait "$ENGINE_PID" || true
search_instructions=$(instructions "$scratch/search.log")
[ -n "$bench_nodes" ] && [ -n "$search_nodes" ] && [ -n "$bench_instructions" ] && [ -n "$search_instructions" ] ||
    { echo "instruction-count.sh: could not read the node or instruction counts" >&2; exit 1; }

if [ "$json" = 1 ]; then
    printf '{"bench8": {"nodes": %s, "instructions": %s}, "middlegame_depth14": {"nodes": %s, "instructions": %s}}\n' \
        "$bench_nodes" "$bench_instructions" "$search_nodes" "$search_instructions"
else
    printf 'bench 8:               %12s nodes %15s instructions\n' "$bench_nodes" "$bench_instructions"
    printf 'middlegame, depth 14:  %12s nodes %15s instructions\n' "$search_nodes" "$search_instructions"
fi
