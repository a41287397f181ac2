#!/usr/bin/env bash
# NODES ludus-server nodes on one throwaway PostgreSQL (local-postgres.sh), each with its own
# ludus-cli bots process (GAMES split evenly: every game is played on one node, all nodes write
# to the one database), on 127.0.0.1. Not run by CI.
#   deploy/load-nodes.sh NODES GAMES SECS [BIN_DIR]   # BIN_DIR: target/release by default
set -u
nodes=$1; games=$2; secs=$3
T=${4:-${CARGO_TARGET_DIR:-target}/release}
here=$(dirname "$0")
dir=$(mktemp -d /tmp/ludus-nodes-XXXX); chmod 755 $dir
url=$("$here"/local-postgres.sh start $dir/pg 55433)
printf '%064x' 0 | tr 0 a > $dir/key
pids=()
for i in $(seq 1 $nodes); do
  udp=$((5620 + 10 * i)); http=$((udp + 2))
  $T/ludus-server --udp 127.0.0.1:$udp --ws none --http 127.0.0.1:$http --data $dir/n$i --key-file $dir/key \
    --database "$url" --node-name n$i --new-players-per-minute 0 --max-clients-per-address 0 --stats 10 > $dir/n$i.out 2> $dir/n$i.err &
  pids+=($!)
done
sleep 2
bots=()
for i in $(seq 1 $nodes); do
  udp=$((5620 + 10 * i)); http=$((udp + 2))
  $T/ludus-cli bots --server 127.0.0.1:$udp --api http://127.0.0.1:$http --games $((games / nodes)) \
    --duration $secs --think-ms 100-400 --seed $i > $dir/bots$i.out 2>&1 &
  bots+=($!)
done
wait "${bots[@]}"
for i in $(seq 1 $nodes); do
  echo "== node n$i"
  grep -E 'moves:|lost moves|errors:|  [0-9]+ x |round trip|completed' $dir/bots$i.out
  # The commit times of the status lines with moves (not the idle ones after the bots).
  grep 'status' $dir/n$i.err | grep -v 'moves_per_s="0"' | grep -o 'commit_avg_ms=[^ ]*' | paste -s -d' '
  ps -o cputime= -p ${pids[$((i - 1))]}
done
for p in "${pids[@]}"; do kill -TERM $p; done
wait "${pids[@]}"
"$here"/local-postgres.sh stop $dir/pg
[ -n "${KEEP:-}" ] && echo "kept $dir" || rm -rf $dir
