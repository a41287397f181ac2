#!/usr/bin/env bash
# A throwaway PostgreSQL for load tests on one machine (the same as the tests' harness,
# crates/server/src/store/pg_harness.rs): initdb in DIR, pg_ctl on 127.0.0.1:PORT, trust auth
# for the user ludus, a database ludus. Not run by CI.
#   deploy/local-postgres.sh start DIR PORT   # prints the --database URL
#   deploy/local-postgres.sh stop DIR
set -euo pipefail
cmd=${1:?start or stop}; dir=${2:?directory}
bin=${LUDUS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ ${#as[@]} -gt 0 ] && chown postgres:postgres "$dir"
    [ -d "$dir/data" ] || "${as[@]}" "$bin/initdb" -D "$dir/data" -U ludus --auth=trust -E UTF8 --no-instructions >/dev/null
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c max_connections=200" start >/dev/null
    "${as[@]}" "$bin/psql" -h 127.0.0.1 -p "$port" -U ludus -d postgres -qc 'CREATE DATABASE ludus' 2>/dev/null || true
    echo "postgres://ludus@127.0.0.1:$port/ludus"
    ;;
  stop)
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *) echo "start or stop" >&2; exit 2 ;;
esac
