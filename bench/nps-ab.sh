#!/usr/bin/env bash
# Whether engine B searches faster than engine A, on a machine whose speed drifts (a shared cloud host can
# swing 30% within minutes, which swamps a 5% change between two separate yardstick runs). Each block
# searches one yardstick position a fixed number of nodes as A, B, B, A on one pinned core, so a drift that
# is linear over the block cancels; the ratio of B's to A's nodes per second is averaged over all blocks.
# For two builds of this engine whose search trees are the same (Bench unchanged) the ratio is the speedup;
# otherwise the trees differ and so does the work per node. --a-option and --b-option set a UCI option of
# one engine (repeatable), e.g. to compare the hand-written evaluation with a network in the same build:
#   --b-option 'EvalFile=/tmp/net.nnue' --b-option 'Use NNUE=true'
#   bench/nps-ab.sh --a PATH --b PATH [--a-option NAME=VALUE] [--b-option NAME=VALUE] [--rounds N]
#                   [--nodes N] [--cpu N] [--json]
# Defaults: 5 rounds of the 4 positions (20 blocks, 80 searches), 3000000 nodes, cpu 0.
set -euo pipefail
shopt -s inherit_errexit
a="" b="" rounds=5 nodes=3000000 cpu=0 json=0 a_setup="" b_setup=""
while [ $# -gt 0 ]; do
    case "$1" in
        --a) a="$2"; shift 2 ;;
        --b) b="$2"; shift 2 ;;
        --a-option) a_setup+="setoption name ${2%%=*} value ${2#*=}"$'\n'; shift 2 ;;
        --b-option) b_setup+="setoption name ${2%%=*} value ${2#*=}"$'\n'; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --nodes) nodes="$2"; shift 2 ;;
        --cpu) cpu="$2"; shift 2 ;;
        --json) json=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "nps-ab.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
for e in "$a" "$b"; do
    [ -n "$e" ] && [ -x "$e" ] || { echo "nps-ab.sh: --a and --b must name engine executables (got '$e')" >&2; exit 2; }
done
for n in "$rounds" "$nodes" "$cpu"; do
    case "$n" in '' | *[!0-9]*) echo "nps-ab.sh: --rounds, --nodes and --cpu want whole numbers, got '$n'" >&2; exit 2 ;; esac
done
pin=()
command -v taskset >/dev/null && pin=(taskset -c "$cpu")

mapfile -t positions < <(grep -v '^#' "$(dirname "$0")/yardstick.fens")

# Nodes per second of one fixed-node search: the nps of the engine's last info line before bestmove.
nps_of() {  # $1 engine, $2 fen, $3 setoption lines
    local line nps=""
    coproc ENGINE { "${pin[@]}" "$1" 2>/dev/null; }
    local to="${ENGINE[1]:-}" from="${ENGINE[0]:-}"
    [ -n "$to" ] && printf 'uci\n%sisready\nposition fen %s\ngo nodes %s\n' "$3" "$2" "$nodes" >&"$to" 2>/dev/null || to=""
    while [ -n "$to" ] && IFS= read -r -t 600 line <&"$from"; do
        case "$line" in
            "info string error"*) echo "nps-ab.sh: $1: $line" >&2 ;;
            "info "*" nps "*) nps=$(sed -E 's/.* nps ([0-9]+).*/\1/' <<<"$line") ;;
            bestmove*) break ;;
        esac
    done
    [ -n "$to" ] && { printf 'quit\n' >&"$to"; } 2>/dev/null || true
    [ -z "${ENGINE_PID:-}" ] || wait "$ENGINE_PID" 2>/dev/null || true
    [ -n "$nps" ] || { echo "nps-ab.sh: $1 gave no nodes per second for '$2'" >&2; exit 1; }
    echo "$nps"
}

blocks=$((rounds * ${#positions[@]}))
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for ((r = 0; r < rounds; ++r)); do
    for fen in "${positions[@]}"; do
        a1=$(nps_of "$a" "$fen" "$a_setup"); b1=$(nps_of "$b" "$fen" "$b_setup")
        b2=$(nps_of "$b" "$fen" "$b_setup"); a2=$(nps_of "$a" "$fen" "$a_setup")
        echo "$a1 $b1 $b2 $a2" >>"$results"
        echo "block $(wc -l <"$results")/$blocks: A $a1 $a2  B $b1 $b2" >&2
    done
done
awk -v json="$json" -v a="$a" -v b="$b" -v nodes="$nodes" '
    { ra = $1 + $4; rb = $2 + $3; r[NR] = rb / ra; sa += ra; sb += rb; s += r[NR] }
    END {
        n = NR; mean = s / n; for (i = 1; i <= n; ++i) v += (r[i] - mean) ^ 2
        se = n > 1 ? sqrt(v / (n - 1) / n) : 0
        if (json)
            printf "{\"a\":\"%s\",\"b\":\"%s\",\"nodes\":%d,\"blocks\":%d,\"a_nps\":%d,\"b_nps\":%d,\"ratio\":%.4f,\"se\":%.4f}\n",
                   a, b, nodes, n, sa / (2 * n), sb / (2 * n), mean, se
        else {
            printf "A %s: mean %d nodes/s\nB %s: mean %d nodes/s\n", a, sa / (2 * n), b, sb / (2 * n)
            printf "B/A: %.4f +- %.4f (standard error, %d ABBA blocks of %d nodes)\n", mean, se, n, nodes
        }
    }' "$results"
