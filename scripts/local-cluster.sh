#!/usr/bin/env bash
# A coordinator and workers on this machine that keep their state in one directory, for long work (a run of
# generations, a long SPRT) that must outlive a session: the first start makes the store and the tokens,
# every later start (after a reboot, a kill -9, the end of a session) serves the same store on the same
# port, and runs and tests go on from where they were.
#
#   scripts/local-cluster.sh start DIR [WORKERS]   # coordinator (gRPC and web view) and WORKERS workers (2)
#   scripts/local-cluster.sh stop DIR              # SIGTERM to every process it started
#   scripts/local-cluster.sh env DIR               # prints XQ_COORDINATOR and XQ_TOKEN lines to `eval`
#
# Settings (environment): PORT (gRPC, 50151), HTTP (the web view, 8151), CONCURRENCY (games at once per
# worker, 1), TRAINING_THREADS (per worker, 1), NICE (10: idle priority beside interactive work).
# Logs: DIR/coordinator.log and DIR/worker-N.log; pids in DIR/pids.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-$ROOT/build/bin}"
cmd="${1:-}"
DIR="${2:-}"
if [ -z "$cmd" ] || [ -z "$DIR" ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
PORT="${PORT:-50151}"
HTTP="${HTTP:-8151}"
CONCURRENCY="${CONCURRENCY:-1}"
TRAINING_THREADS="${TRAINING_THREADS:-1}"
NICE="${NICE:-10}"

case "$cmd" in
  start)
    WORKERS="${3:-2}"
    for b in xq-coordinator xq-worker xq-tuner xq-engine; do
      [ -x "$BIN/$b" ] || { echo "local-cluster: $BIN/$b is missing; build first" >&2; exit 2; }
    done
    mkdir -p "$DIR"
    DIR="$(cd "$DIR" && pwd)"
    if [ -f "$DIR/pids" ]; then
      while read -r pid; do
        if kill -0 "$pid" 2>/dev/null; then
          echo "local-cluster: already running (pid $pid); stop it first" >&2
          exit 1
        fi
      done <"$DIR/pids"
    fi
    if [ ! -f "$DIR/tokens.env" ]; then
      user=$("$BIN/xq-coordinator" --data "$DIR/coord" token create --role approver --name local | tail -n 1)
      worker=$("$BIN/xq-coordinator" --data "$DIR/coord" token create --role worker --name local | tail -n 1)
      printf 'XQ_TOKEN=%s\nWORKER_TOKEN=%s\n' "$user" "$worker" >"$DIR/tokens.env"
    fi
    # shellcheck disable=SC1091
    . "$DIR/tokens.env"
    : >"$DIR/pids"
    nice -n "$NICE" "$BIN/xq-coordinator" --data "$DIR/coord" --listen "127.0.0.1:$PORT" \
      --http "127.0.0.1:$HTTP" --no-approval >>"$DIR/coordinator.log" 2>&1 &
    echo $! >>"$DIR/pids"
    for _ in $(seq 1 100); do
      grep -q "listening on" "$DIR/coordinator.log" 2>/dev/null && break
      sleep 0.1
    done
    for i in $(seq 1 "$WORKERS"); do
      nice -n "$NICE" "$BIN/xq-worker" --coordinator "127.0.0.1:$PORT" --token "$WORKER_TOKEN" \
        --concurrency "$CONCURRENCY" --training-threads "$TRAINING_THREADS" --name "local-$i" \
        --cache "$DIR/cache-$i" >>"$DIR/worker-$i.log" 2>&1 &
      echo $! >>"$DIR/pids"
    done
    echo "local-cluster: coordinator on 127.0.0.1:$PORT, web view http://127.0.0.1:$HTTP, $WORKERS workers" >&2
    echo "XQ_COORDINATOR=127.0.0.1:$PORT"
    echo "XQ_TOKEN=$XQ_TOKEN"
    ;;
  stop)
    [ -f "$DIR/pids" ] || exit 0
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$DIR/pids"
    rm -f "$DIR/pids"
    ;;
  env)
    # shellcheck disable=SC1091
    . "$DIR/tokens.env"
    echo "export XQ_COORDINATOR=127.0.0.1:$PORT XQ_TOKEN=$XQ_TOKEN"
    ;;
  *)
    echo "local-cluster: unknown command '$cmd' (start, stop or env)" >&2
    exit 2
    ;;
esac
