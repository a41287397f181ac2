#!/usr/bin/env bash
# One server and ludus-cli bots on 127.0.0.1 (release builds), with SQLite or a throwaway
# PostgreSQL (local-postgres.sh). Not run by CI. Usage: deploy/load-one-node.sh sqlite|pg GAMES SECS
set -u
T=${CARGO_TARGET_DIR:-target}/release
kind=$1; games=$2; secs=$3
dir=$(mktemp -d /tmp/ludus-load-XXXX); chmod 755 $dir
db=()
if [ "$kind" = pg ]; then
  url=$("$(dirname "$0")"/local-postgres.sh start $dir/pg 55432)
  db=(--database "$url")
fi
$T/ludus-server --udp 127.0.0.1:5610 --ws none --http 127.0.0.1:5612 --data $dir/data --new-players-per-minute 0 --max-clients-per-address 0 --stats 10 "${db[@]}" > $dir/server.out 2> $dir/server.err &
spid=$!
sleep 1
$T/ludus-cli bots --server 127.0.0.1:5610 --api http://127.0.0.1:5612 --games $games --duration $secs --think-ms 100-400 2>&1 | tail -15
grep -o 'commit_avg_ms=[^ ]*\|moves_per_s=[^ ]*\|sends_wait_p99=[^ ]*' $dir/server.err | paste - - - | tail -4
cat /proc/$spid/status | grep VmHWM
ps -o cputime= -p $spid
kill -TERM $spid; wait $spid
[ "$kind" = pg ] && "$(dirname "$0")"/local-postgres.sh stop $dir/pg
rm -rf $dir
