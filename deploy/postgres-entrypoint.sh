#!/bin/sh
# Starts Debian's PostgreSQL in the xq-postgres image: on an empty volume, creates the cluster with user
# and database xq (password: $POSTGRES_PASSWORD) and lets them in over the network with that password.
set -eu
: "${PGDATA:=/var/lib/postgresql/data/pgdata}"
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD (the xq-postgres Secret)}"
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  "$bindir/initdb" -D "$PGDATA" -U xq --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -E UTF8
  rm -f "$pwfile"
  echo "host all all 0.0.0.0/0 scram-sha-256" >>"$PGDATA/pg_hba.conf"
  "$bindir/pg_ctl" -D "$PGDATA" -o "-c listen_addresses='' -k /tmp" -w start
  "$bindir/createdb" -h /tmp -U xq xq
  "$bindir/pg_ctl" -D "$PGDATA" -m fast -w stop
fi
exec "$bindir/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/tmp
