#!/usr/bin/env bash
# Wall-clock answer times of xq-go's genmove over GTP, the figures a controller feels. The GTP tests
# (tests/goengine/gtp_test.cpp) judge time on the engine's own clock report instead, which load cannot
# stretch (they also run under the sanitizers on a busy machine); the speed figures live here. Each case
# starts a process, sets it up and times one genmove from sending the command to the answer.
#   bench/go-gtp-latency.sh [--bin PATH] [--runs N]      (defaults: build/bin/xq-go, 3 runs)
set -euo pipefail
bin=build/bin/xq-go runs=3
while (($#)); do
    case $1 in
        --bin) bin=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *) echo "go-gtp-latency.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ -x $bin ]] || { echo "go-gtp-latency.sh: no xq-go at $bin (build the xq-go target)" >&2; exit 2; }

# case LABEL GIVEN_SECONDS "ARGS" SETUP_COMMANDS...  (the last command is the timed genmove)
case_() {
    local label=$1 given=$2 args=$3
    shift 3
    local setup=("${@:1:$#-1}") timed=${!#} best="" worst=""
    for ((i = 0; i < runs; ++i)); do
        coproc GTP { exec "$bin" $args 2>/dev/null; }
        for c in "${setup[@]}"; do
            echo "$c" >&"${GTP[1]}"
            while IFS= read -r line <&"${GTP[0]}" && [[ -n $line ]]; do :; done
        done
        local t0 t1
        t0=$(date +%s.%N)
        echo "$timed" >&"${GTP[1]}"
        while IFS= read -r line <&"${GTP[0]}" && [[ -n $line ]]; do :; done
        t1=$(date +%s.%N)
        echo quit >&"${GTP[1]}"
        wait "$GTP_PID" 2>/dev/null || true
        local ms
        ms=$(echo "($t1 - $t0) * 1000 / 1" | bc)
        [[ -z $best || $ms -lt $best ]] && best=$ms
        [[ -z $worst || $ms -gt $worst ]] && worst=$ms
    done
    printf '%-44s given %5s s   answer %5d ms best, %5d ms worst of %d\n' "$label" "$given" "$best" "$worst" "$runs"
}

case_ "13x13, byo-yomi 1 s per move" 1 "" "boardsize 13" "time_settings 0 1 1" "genmove b"
case_ "13x13, 2 s of main time left" 2 "" "boardsize 13" "time_settings 60 0 0" "time_left b 2 0" "genmove b"
case_ "9x9, level 3, 500 nodes" - "--level 3 --nodes 500 --seed 2" "boardsize 9" "genmove b"
case_ "9x9, full strength, 2000 nodes" - "--nodes 2000" "boardsize 9" "genmove b"
