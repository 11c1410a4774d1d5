#!/usr/bin/env bash
# Fuzzes the parsers with libFuzzer (clang 14, AddressSanitizer, UBSan): each target in fuzz/ starts
# from its seed corpus in fuzz/corpus/TARGET and first replays the crash inputs kept in
# fuzz/regressions/TARGET. Fails on any finding, which it saves to build-fuzz/findings/TARGET/.
#   scripts/fuzz.sh                    every target for 10 s, as many at once as there are CPUs
#   scripts/fuzz.sh --jobs 1           one target at a time
#   scripts/fuzz.sh --seconds 1800 fen one target for 30 minutes
#   scripts/fuzz.sh --cpu-seconds 1800 fen   until the fuzzer has used 30 CPU-minutes (on a busy machine
#                                            that takes longer than 30 minutes of the clock)
#   scripts/fuzz.sh --build-only       only build the targets (scripts/test.sh does so while its tests run)
# Each run prints the CPU seconds it used and appends a line to build-fuzz/hours.tsv (date, target,
# CPU seconds, inputs run, corpus size, result), the log the hours spent fuzzing are counted from.
# New inputs the fuzzer finds go to build-fuzz/corpus/TARGET (the seeds in the repository stay as
# they are); add the interesting ones to fuzz/corpus by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=10
CPU_LIMIT=0
JOBS=$(nproc)
BUILD_ONLY=0
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_EACH="${2:?--seconds needs a number}"; shift 2 ;;
    --seconds=*) SECONDS_EACH="${1#--seconds=}"; shift ;;
    --cpu-seconds) CPU_LIMIT="${2:?--cpu-seconds needs a number}"; shift 2 ;;
    --cpu-seconds=*) CPU_LIMIT="${1#--cpu-seconds=}"; shift ;;
    --jobs) JOBS="${2:?--jobs needs a number}"; shift 2 ;;
    --jobs=*) JOBS="${1#--jobs=}"; shift ;;
    --build-only) BUILD_ONLY=1; shift ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
if ! [[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || [ "$SECONDS_EACH" -eq 0 ]; then
  echo "fuzz.sh: --seconds wants a whole number above 0, not '$SECONDS_EACH'" >&2
  exit 2
fi
if ! [[ "$JOBS" =~ ^[0-9]+$ ]] || [ "$JOBS" -eq 0 ]; then
  echo "fuzz.sh: --jobs wants a whole number above 0, not '$JOBS'" >&2
  exit 2
fi
if ! [[ "$CPU_LIMIT" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: --cpu-seconds wants a whole number, not '$CPU_LIMIT'" >&2
  exit 2
fi
# With a CPU budget the clock limit is only a backstop against a fuzzer starved of CPU for hours.
[ "$CPU_LIMIT" -eq 0 ] || SECONDS_EACH=$((CPU_LIMIT * 20))
ALL=$(sed -n 's/^set(XQ_FUZZ_TARGETS \(.*\))$/\1/p' fuzz/CMakeLists.txt)
if [ ${#TARGETS[@]} -eq 0 ]; then read -r -a TARGETS <<<"$ALL"; fi
for t in "${TARGETS[@]}"; do
  if ! [[ " $ALL " == *" $t "* ]]; then
    echo "fuzz.sh: no target '$t' (there are: $ALL)" >&2
    exit 2
  fi
done

bash scripts/install-deps.sh
BUILD=build-fuzz
mkdir -p "$BUILD"
if ! { cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
         -DXQ_FUZZ=ON -DXQ_WERROR=OFF -DCMAKE_UNITY_BUILD=ON &&
       cmake --build "$BUILD" -j"$(nproc)" --target $(printf 'fuzz_%s ' "${TARGETS[@]}"); } >"$BUILD/build.log" 2>&1; then
  grep -E "error|Error" -A3 "$BUILD/build.log" | head -30 >&2
  echo "fuzz.sh: the build failed; the whole log is $BUILD/build.log" >&2
  exit 1
fi
[ "$BUILD_ONLY" -eq 0 ] || exit 0

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failures="$BUILD/failed-targets.$$"
: >"$failures"
trap 'rm -f "$failures"' EXIT
# One target: its kept crash inputs, then the fuzzer for its time or CPU budget; a line to hours.tsv.
fuzz_one() {
  local t=$1 bin findings corpus start pid cpu rc runs files result stat f
  bin="$BUILD/bin/fuzz_$t"
  findings="$BUILD/findings/$t"
  corpus="$BUILD/corpus/$t"
  mkdir -p "$findings" "$corpus"
  # Inputs that once crashed stay fixed.
  if compgen -G "fuzz/regressions/$t/*" >/dev/null; then
    if ! "$bin" -runs=0 fuzz/regressions/$t/* >"$findings/regressions.log" 2>&1; then
      echo "fuzz.sh: $t: a kept crash input fails again; see $findings/regressions.log" >&2
      echo "$t" >>"$failures"
      return
    fi
  fi
  start=$(date +%s)
  "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "fuzz/corpus/$t" >"$findings/run.log" 2>&1 &
  pid=$!
  # CPU time of the fuzzer from /proc (user + system ticks), read every second while it runs.
  cpu=0
  while kill -0 "$pid" 2>/dev/null; do
    if stat=$(cat "/proc/$pid/stat" 2>/dev/null); then
      read -r -a f <<<"${stat##*) }"
      cpu=$(( (f[11] + f[12]) / $(getconf CLK_TCK) ))
      if [ "$CPU_LIMIT" -gt 0 ] && [ "$cpu" -ge "$CPU_LIMIT" ]; then kill -INT "$pid" 2>/dev/null || true; fi
    fi
    sleep 1
  done
  rc=0
  wait "$pid" || rc=$?
  # libFuzzer exits 72 when interrupted: here that is the CPU budget running out, not a finding.
  if [ "$CPU_LIMIT" -gt 0 ] && [ "$rc" -eq 72 ] && grep -q "run interrupted" "$findings/run.log"; then rc=0; fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$findings/run.log" | tail -1)
  [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$findings/run.log" | tail -1 | tr -d '#')
  files=$(find "$corpus" -type f | wc -l)
  if [ "$rc" -eq 0 ]; then
    echo "fuzz.sh: $t: no finding in $(( $(date +%s) - start )) s ($cpu CPU s), ${runs:-?} inputs"
    result=clean
  else
    echo "fuzz.sh: $t: FINDING; input and log in $findings/ (keep the input in fuzz/regressions/$t/)" >&2
    grep -E "ERROR|SUMMARY|runtime error|deadly signal|Test unit written" "$findings/run.log" | head -5 >&2
    echo "$t" >>"$failures"
    result=finding
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$cpu" "${runs:-?}" "$files" "$result" >>"$BUILD/hours.tsv"
}
# As many targets at once as there are CPUs (--jobs): each fuzzer is one process on one CPU, so each
# still gets its seconds of CPU, and the whole run takes a fraction of the time.
running=0
for t in "${TARGETS[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
wait
if [ -s "$failures" ]; then
  echo "fuzz.sh: findings in: $(sort "$failures" | tr '\n' ' ')" >&2
  exit 1
fi
