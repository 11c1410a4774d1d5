#!/usr/bin/env bash
# The engine's speed as the issue measures ElephantEye's: one thread, default Hash, a fixed-time search from
# the start position and from three middlegames, each in a fresh engine process. (The issue quotes 2.4-2.7M
# nodes per second for ElephantEye; ElephantEye 3.3 built here with g++ 12 -O3 -march=native measured 4.1M with
# --proto ucci in one session, 2.75-2.8M in the next and 4.8M in a third (this engine 2.24M right after it): this
# host's speed drifts, so compare two engines in
# one sitting, alternating them, or with bench/nps-ab.sh.) Prints each search's nodes and nodes per second,
# then the mean; `bench` (fixed depth, 48 positions) is the signature, this is the yardstick. Run it on an
# otherwise idle machine.
#   bench/nps-yardstick.sh [--engine PATH] [--proto uci|ucci] [--movetime MS] [--option NAME=VALUE]... [--json]
# --option sets a UCI option before each search (UCI only). Nodes per second depend on the tree's shape as much as
# on the code: ElephantEye prunes only by null move and its quiescence neither probes the table nor tries
# checks, so 80% of its nodes are cheap quiescence leaves (31% of ours). One sitting, 5 s searches: ElephantEye
# 5.3-5.4M; ours 2.9M by default, 3.8-4.1M with --option Disable=lmr,futility,reversefutility,qchecks (a tree
# shaped like ElephantEye's), 5.1M with --option Hash=1 added (a table that fits in L2: each probe of the
# 16 MB default pays the memory latency, which the child's prefetch hides only in part). Another sitting:
# ElephantEye 4.77-4.82M, ours 2.58-2.60M, ours with both options 4.55-4.62M; but at equal time (tc=5+0.05,
# 200 games) that ElephantEye-shaped configuration lost 2-6-192 to the default one (-636 +- 156 Elo).
# --proto ucci measures a UCCI engine such as ElephantEye the same way. UCCI has no fixed-time search, so it
# is sent `go depth 32` and `stop` after the movetime; its nodes per second are its last `info time T nodes
# N` line's N / T. Each engine counts nodes its own way: ours one per move made (as Stockfish), ElephantEye
# one per search or quiescence call, which also counts re-searches and null-move searches (about 4% more
# for our search tree).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
engine="$root/build/bin/xq-engine"
proto=uci
movetime=10000
json=0
options=()
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine="$2"; shift 2 ;;
        --proto) proto="$2"; shift 2 ;;
        --movetime) movetime="$2"; shift 2 ;;
        --option)
            case "${2:-}" in
                ?*=*) options+=("$2") ;;
                *) echo "nps-yardstick.sh: --option wants NAME=VALUE, got '${2:-}'" >&2; exit 2 ;;
            esac
            shift 2 ;;
        --json) json=1; shift ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        *) echo "nps-yardstick.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
case "$proto" in uci | ucci) ;; *) echo "nps-yardstick.sh: --proto must be uci or ucci, got '$proto'" >&2; exit 2 ;; esac
[ "$proto" = uci ] || [ ${#options[@]} -eq 0 ] || { echo "nps-yardstick.sh: --option is for UCI engines" >&2; exit 2; }
[ -x "$engine" ] || { echo "nps-yardstick.sh: $engine not found; build the xq-engine target first" >&2; exit 2; }
case "$movetime" in '' | *[!0-9]*) echo "nps-yardstick.sh: --movetime wants milliseconds, got '$movetime'" >&2; exit 2 ;; esac

mapfile -t positions < <(grep -v '^#' "$(dirname "$0")/yardstick.fens")

# One search: feeds the engine until it answers bestmove, keeps the last info line with a node count.
search() {
    local fen="$1" line last=""
    coproc ENGINE { "$engine"; }
    if [ "$proto" = uci ]; then
        {
            printf 'uci\n'
            for option in "${options[@]}"; do printf 'setoption name %s value %s\n' "${option%%=*}" "${option#*=}"; done
            printf 'isready\nposition fen %s\ngo movetime %s\n' "$fen" "$movetime"
        } >&"${ENGINE[1]}"
    else
        # Without its opening book, so that every position is searched; the engine's output (a few lines per
        # iteration) waits in the pipe while the search runs.
        printf 'ucci\nsetoption usebook false\nposition fen %s\ngo depth 32\n' "$fen" >&"${ENGINE[1]}"
        sleep "$(awk -v ms="$movetime" 'BEGIN { printf "%.3f", ms / 1000 }')"
        printf 'stop\n' >&"${ENGINE[1]}"
    fi
    while IFS= read -r -t $((movetime / 1000 + 30)) line <&"${ENGINE[0]}"; do
        case "$line" in
            "info string error"*) echo "nps-yardstick.sh: the engine refused a command: ${line#info string }" >&2; exit 1 ;;
            "info "*" nodes "*) last="$line" ;;
            bestmove* | nobestmove*) break ;;
        esac
    done
    printf 'quit\n' >&"${ENGINE[1]}" 2>/dev/null || true
    wait "$ENGINE_PID" 2>/dev/null || true
    [ -n "$last" ] || { echo "nps-yardstick.sh: no search output for $fen" >&2; exit 1; }
    local nodes nps
    nodes=$(sed -E 's/.* nodes ([0-9]+).*/\1/' <<<"$last")
    if [ "$proto" = uci ]; then
        nps=$(sed -E 's/.* nps ([0-9]+).*/\1/' <<<"$last")
    else
        local ms
        ms=$(sed -E 's/.* time ([0-9]+).*/\1/' <<<"$last")
        nps=$((nodes * 1000 / (ms > 0 ? ms : 1)))
    fi
    echo "$nodes $nps"
}

total=0
rows=()
for fen in "${positions[@]}"; do
    read -r nodes nps < <(search "$fen")
    total=$((total + nps))
    rows+=("$nodes $nps $fen")
    [ "$json" = 1 ] || printf '%12s nodes %10s nps  %s\n' "$nodes" "$nps" "$fen"
done
mean=$((total / ${#positions[@]}))
if [ "$json" = 1 ]; then
    printf '{"movetime_ms":%s,"mean_nps":%s,"searches":[' "$movetime" "$mean"
    sep=""
    for row in "${rows[@]}"; do
        read -r nodes nps fen <<<"$row"
        printf '%s{"fen":"%s","nodes":%s,"nps":%s}' "$sep" "$fen" "$nodes" "$nps"
        sep=","
    done
    printf ']}\n'
else
    echo "mean nodes/second: $mean (movetime $movetime ms, 1 thread, load average $(cut -d' ' -f1 /proc/loadavg))"
fi
