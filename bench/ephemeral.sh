#!/usr/bin/env bash
# Wall time of a whole `mcpwire inject --ephemeral` process for a 20-server profile,
# as a scripted launch runs it (target: under 10 ms). Usage: bench/ephemeral.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
export HOME="$work/home" AIWG_CONFIG="$work/home/.aiwg" TMPDIR="$work"
mkdir -p "$HOME"
servers=()
for i in $(seq 0 19); do
  "$work/mcpwire" server add "s$i" --command srv --arg --n --arg "$i" --env-from "TOKEN=TOKEN_$i" >/dev/null
  servers+=("s$i")
done
"$work/mcpwire" profile add p20 --servers "$(IFS=,; echo "${servers[*]}")" --tool-deny s1__delete,s2__* >/dev/null
cmd=("$work/mcpwire" inject --provider claude-code --profile p20 --ephemeral --out "$work/run.json")
"${cmd[@]}" >/dev/null   # warm the page cache
best=0 total=0
for r in $(seq "$runs"); do
  t0=$(date +%s%N); "${cmd[@]}" >/dev/null; t1=$(date +%s%N)
  ns=$(( t1 - t0 )); total=$(( total + ns ))
  if [ "$best" = 0 ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
done
t0=$(date +%s%N); for r in $(seq "$runs"); do /bin/true; done; t1=$(date +%s%N)
awk -v b="$best" -v t="$total" -v n="$runs" -v e="$(( (t1 - t0) / runs ))" 'BEGIN {
  printf "inject --ephemeral, 20 servers: best %.2f ms, mean %.2f ms over %d runs (target < 10 ms)\n", b/1e6, t/n/1e6, n
  printf "starting /bin/true here costs %.2f ms\n", e/1e6
}'
