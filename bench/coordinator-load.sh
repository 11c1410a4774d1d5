#!/usr/bin/env bash
# The coordinator under a simulated fleet at real workers' pace (build/bin/xq-coordinator-load), in the
# three set-ups of deploy/README.md: SQLite with one coordinator, PostgreSQL with one and with two
# replicas. PostgreSQL is a throwaway server of this machine (scripts/pg-server.sh) with fsync on, so
# commits cost what they cost in production. Prints each run's table; the figures of bench/README.md came
# from here.
#   bench/coordinator-load.sh [WORKERS [SECONDS]]      default 10000 workers, 120 s measured each
# Each run first warms up for one lease's time (about 200 s at 10+0.1), over which the workers start.
set -euo pipefail
cd "$(dirname "$0")/.."
workers=${1:-10000}
seconds=${2:-120}
load=build/bin/xq-coordinator-load
# A plain build leaves the benchmark tools out: built here, once build/ is configured.
if [ -f build/CMakeCache.txt ]; then cmake --build build --target xq-coordinator-load >&2; fi
[ -x "$load" ] || { echo "coordinator-load: configure build/ first (scripts/test.sh --quick)" >&2; exit 1; }
pgdir=$(mktemp -d)
trap 'scripts/pg-server.sh stop "$pgdir/pg" >/dev/null 2>&1 || true; rm -rf "$pgdir"' EXIT
url=$(XQ_PG_FSYNC=on scripts/pg-server.sh start "$pgdir/pg")
fresh() {  # an empty database for each PostgreSQL run
  psql -q "$url" -c "DROP DATABASE IF EXISTS xq_load" -c "CREATE DATABASE xq_load" >/dev/null
  echo "${url%/postgres}/xq_load"
}
echo "== SQLite, 1 coordinator"
"$load" --workers "$workers" --seconds "$seconds"
echo "== PostgreSQL, 1 coordinator"
"$load" --workers "$workers" --seconds "$seconds" --store "$(fresh)"
echo "== PostgreSQL, 2 replicas"
"$load" --workers "$workers" --seconds "$seconds" --store "$(fresh)" --replicas 2
