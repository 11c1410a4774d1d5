#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and local trials, from Debian's postgresql package:
#   scripts/pg-server.sh start DIR   initdb into DIR (if new) and start on a free port of 127.0.0.1;
#                                    prints the URL (also in DIR/url) of a database that may create others
#   scripts/pg-server.sh stop DIR    stops it (immediately) and removes DIR
#   scripts/pg-server.sh kill DIR    crashes it: SIGKILL to the server and every process it started
#   scripts/pg-server.sh restart DIR starts it again on the same port, after a kill
# The server's files live in a directory of their own under /tmp (named in DIR/home), so that DIR may be
# anywhere and the socket's path stays short. The server refuses to run as root: as root it runs as the `postgres` user (or `nobody`). fsync is off:
# a killed server loses nothing (the kernel keeps what it wrote), a crashed machine would; these servers
# are for tests. XQ_PG_FSYNC=on keeps it on.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop|kill|restart DIR" >&2
  exit 2
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "pg-server: no PostgreSQL server found under /usr/lib/postgresql (install the postgresql package:" \
       "scripts/install-deps.sh)" >&2
  exit 1
fi

as_user=()
owner=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  id postgres >/dev/null 2>&1 || owner=nobody
  as_user=(setpriv --reuid="$owner" --regid="$(id -g "$owner")" --clear-groups --)
fi
run() { (cd / && "${as_user[@]}" "$@"); }

start_on() {  # start_on PORT: 0 on success
  run "$bindir/pg_ctl" -D "$home/data" -l "$home/log" -w -t 30 -o \
    "-p $1 -k $home -c listen_addresses=127.0.0.1 -c fsync=${XQ_PG_FSYNC:-off} -c max_connections=200" \
    start >/dev/null 2>&1
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    if [ -f "$dir/home" ] && [ -f "$(cat "$dir/home")/data/PG_VERSION" ]; then
      home=$(cat "$dir/home")
    else
      home=$(mktemp -d /tmp/xq-pg.XXXXXX)
      chown "$owner" "$home"
      echo "$home" >"$dir/home"
      run "$bindir/initdb" -D "$home/data" -U xq --auth=trust -E UTF8 --no-sync >"$home/initdb.log" 2>&1 ||
        { cat "$home/initdb.log" >&2; exit 1; }
    fi
    for _ in 1 2 3 4 5 6 7 8; do
      # Below Linux's ephemeral range (32768-60999): no client socket takes the port while a killed
      # server is down, so `restart` finds it free.
      port=$((20000 + RANDOM % 12000))
      if start_on "$port"; then
        echo "$port" >"$dir/port"
        echo "postgresql://xq@127.0.0.1:$port/postgres" | tee "$dir/url"
        exit 0
      fi
    done
    echo "pg-server: could not start PostgreSQL in $home; its log:" >&2
    tail -20 "$home/log" >&2 || true
    exit 1
    ;;
  kill)
    home=$(cat "$dir/home")
    pid=$(head -1 "$home/data/postmaster.pid")
    kill -KILL "$pid"
    pkill -KILL -P "$pid" || true
    for _ in $(seq 50); do  # gone, or a zombie its parent has yet to reap
      state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)
      [ "$state" = gone ] || [ "$state" = Z ] && break
      sleep 0.1
    done
    ;;
  restart)
    home=$(cat "$dir/home")
    # A killed server leaves its lock files (the data directory's and the socket's); the server removes
    # them itself unless the old process is still a zombie that nobody has reaped yet (kill -0 succeeds
    # on a zombie), so they go here when their process is a zombie or gone.
    for lock in "$home/data/postmaster.pid" "$home/.s.PGSQL.$(cat "$dir/port").lock"; do
      [ -f "$lock" ] || continue
      pid=$(head -1 "$lock")
      state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)
      if [ "$state" = Z ] || [ "$state" = gone ]; then rm -f "$lock"; fi
    done
    start_on "$(cat "$dir/port")" || { tail -20 "$home/log" >&2; exit 1; }
    cat "$dir/url"
    ;;
  stop)
    home=$(cat "$dir/home" 2>/dev/null || true)
    if [ -n "$home" ] && [ -d "$home/data" ]; then
      run "$bindir/pg_ctl" -D "$home/data" -m immediate -w stop >/dev/null 2>&1 || true
      rm -rf "$home"
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "pg-server: unknown command '$cmd' (start, stop, kill or restart)" >&2
    exit 2
    ;;
esac
