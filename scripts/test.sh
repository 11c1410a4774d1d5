#!/usr/bin/env bash
# Checks the formatting, builds everything (warnings are errors) and runs the test suite; the
# slow-labelled tests are left out (run them with `ctest --test-dir build -L slow`). Installs the
# Debian packages it needs first.
#   scripts/test.sh                               the plain build in build/, a short fuzzing run of
#                                                 every parser in build-fuzz/, then the suite again
#                                                 under AddressSanitizer and UBSan (what CI runs)
#   scripts/test.sh --quick                       the plain build (without the PostgreSQL twins of the
#                                                 whole-cluster tests) and the fuzzing run only
#   scripts/test.sh --sanitize address,undefined  AddressSanitizer and UBSan only, in build-asan/
#   scripts/test.sh --sanitize thread             ThreadSanitizer, in build-tsan/
set -euo pipefail
cd "$(dirname "$0")/.."
SANITIZE=""
QUICK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) SANITIZE="${2:?--sanitize needs address,undefined or thread}"; shift 2 ;;
    --sanitize=*) SANITIZE="${1#--sanitize=}"; shift ;;
    --quick) QUICK=1; shift ;;
    *) echo "test.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
bash scripts/install-deps.sh
bash scripts/check-format.sh
# Everything a test checks against is installed above and built below: a test that finds its oracle (GNU Go,
# Fairy-Stockfish, xq-engine, ...) missing fails here instead of skipping (tests/oracle.h).
export XQ_REQUIRE_ORACLES=1
BUILD=build
FLAGS=()
case "$SANITIZE" in
  "") ;;
  address,undefined|undefined,address|address|undefined)
    BUILD=build-asan
    # GCC 12 warns falsely (maybe-uninitialized) in library headers under the sanitizers: no -Werror here.
    FLAGS=(-DXQ_WERROR=OFF -DCMAKE_CXX_FLAGS="-fsanitize=$SANITIZE -fno-omit-frame-pointer -fno-sanitize-recover=undefined")
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1" ;;
  thread)
    BUILD=build-tsan
    # OpenMP off: libgomp is not instrumented, so its barriers look like races (tuner/CMakeLists.txt).
    FLAGS=(-DXQ_WERROR=OFF -DXQ_OPENMP=OFF -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer")
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1 suppressions=$PWD/scripts/tsan.supp" ;;
  *) echo "test.sh: --sanitize takes address,undefined or thread, not '$SANITIZE'" >&2; exit 2 ;;
esac
# The sanitizer builds compile at -O0, and at -O1 only the parts that do the CPU work of the tests (search,
# move generation, perft, statistics, self-play, tuning: XQ_HOT_FLAGS in CMakeLists.txt). The rest (gRPC
# services, web pages, the CLI, the cluster tests) is most of the compile and little of the run: at -O1
# under AddressSanitizer and UBSan a file of it compiles twice as long as at -O0. Reports keep file and
# line (-g1).
# The engine links the searcher's library there rather than compiling it again (engine/CMakeLists.txt).
# Every build here is a unity build (CMake joins up to 8 sources of a target into one unit): most of a
# unit's time is spent parsing the same headers (gRPC, protobuf, httplib, GoogleTest), once per unit. A cold
# plain build took 13 minutes on 2 cores one unit per source, about 7 joined. The engines, their searches and
# the rules cores keep a unit per source (their speed must not depend on the joins; engine/CMakeLists.txt).
FLAGS+=(-DCMAKE_UNITY_BUILD=ON)
[ -z "$SANITIZE" ] || FLAGS+=(-DCMAKE_CXX_FLAGS_RELEASE="-O0 -g1 -DNDEBUG" -DXQ_HOT_FLAGS="-O1" -DXQ_ENGINE_OWN_OBJECTS=OFF)
# How long each step took goes to stderr, so that a slow CI run says where its time went.
step_start=$SECONDS
step_done() { echo "test.sh: $1 took $((SECONDS - step_start)) s" >&2; step_start=$SECONDS; }
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "${FLAGS[@]}"
# The full plain run builds the benchmark tools too (xq-bench-tools; no test runs them), so that they keep
# compiling; the quick check and the sanitizer build leave them out.
TARGETS=(all)
[ -n "$SANITIZE" ] || [ "$QUICK" -eq 1 ] || TARGETS+=(xq-bench-tools)
cmake --build "$BUILD" -j"$(nproc)" --target "${TARGETS[@]}"
step_done "the build in $BUILD/"
# Under the sanitizers the PostgreSQL variants of the whole-cluster tests (pg.Cluster.*, pg.SpsaCluster.*,
# ...) are left out: they run the same C++ as their SQLite twins, which do run, and half the suite's time
# went to them; the plain run above has them all, and pg.Store.*, pg.Coordinator.* and the other pg suites
# still take the PostgreSQL backend through the sanitizers. Also left out there: ClusterBench.*, ChessCluster.* and
# GoGtp.GenmoveAnswersWithinTheClock, which failed at -O0 under load on time alone (a worker not yet live, a
# clock), and RunCluster.TwoGenerations... (its kills are timed against games at 20,000 nodes and thousands of
# training epochs: minutes under the sanitizers; RunDriver.* takes the same coordinator code through them in
# process); the plain run has them.
# The quick check leaves out the PostgreSQL twins of the whole-cluster tests for the same reason (a fifth of
# the plain run's test time); the full run has them.
EXCLUDE=()
[ "$QUICK" -eq 0 ] || EXCLUDE=(-E '^pg\.(Cluster|DatagenCluster|SourceCluster|SpsaCluster|Ladder|ClusterBench|BenchSignature|GoCluster)\.')
[ -z "$SANITIZE" ] || EXCLUDE=(-E '^pg\.(Cluster|DatagenCluster|SourceCluster|SpsaCluster|Ladder|ClusterBench|BenchSignature)\.|^(ClusterBench|ChessCluster)\.|^GoGtp\.GenmoveAnswersWithinTheClock$|^RunCluster\.TwoGenerations')
# The quick check runs twice as many tests at once as there are CPUs: most of them wait on engines, servers
# and browsers, and at one per CPU the suite used under half the machine (2 CPUs here: 187 s at -j2, 146 s at
# -j4). The full check keeps one per CPU, the sanitizer suite being CPU-bound.
JOBS=$(nproc)
[ "$QUICK" -eq 0 ] || JOBS=$((2 * JOBS))
# The plain run's tests leave close to half of the CPUs idle (on 2 CPUs they used 1.2 of them: 181 CPU
# seconds in 153 s), and its fuzzing starts with a clang build of about 170 CPU seconds: that build runs
# meanwhile as an idle-class process (SCHED_IDLE: the CPU only when no test wants it), so the tests' timing
# is not disturbed.
fuzz_build=""
if [ -z "$SANITIZE" ]; then
  mkdir -p build-fuzz
  if chrt --idle 0 true 2>/dev/null; then idle=(chrt --idle 0); else idle=(nice -n 19); fi
  "${idle[@]}" bash scripts/fuzz.sh --build-only >build-fuzz/early-build.log 2>&1 &
  fuzz_build=$!
fi
tests_rc=0
ctest --test-dir "$BUILD" -LE slow "${EXCLUDE[@]}" --output-on-failure -j"$JOBS" --timeout 600 || tests_rc=$?
# A failed early build is not reported here: fuzz.sh below builds again and says what failed.
[ -z "$fuzz_build" ] || wait "$fuzz_build" || true
[ "$tests_rc" -eq 0 ] || { echo "test.sh: tests failed in $BUILD/" >&2; exit "$tests_rc"; }
if [ -n "$fuzz_build" ]; then step_done "the tests of $BUILD/ (and the fuzzers' build beside them)"; else step_done "the tests of $BUILD/"; fi
# The plain run also fuzzes every parser briefly (about a minute in all), after replaying the inputs that
# once crashed (scripts/fuzz.sh; longer runs: --seconds N).
if [ -z "$SANITIZE" ]; then
  bash scripts/fuzz.sh --seconds 8
  step_done "fuzzing"
fi
# Then the whole suite once more with AddressSanitizer and UBSan: memory errors and undefined behaviour in
# the engine, the runner, the coordinator and the workers, on every change.
if [ -z "$SANITIZE" ] && [ "$QUICK" -eq 0 ]; then bash scripts/test.sh --sanitize address,undefined; fi
