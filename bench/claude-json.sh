#!/usr/bin/env bash
# Inject into a 50 MB ~/.claude.json: throughput, peak memory, and the ratio to cp
# of the same file; then the same inject with --dry-run (issue 11: peak memory at most
# 3x the file). SCOPE local writes the project's own servers (V11) into one of the
# file's projects, in its middle. Usage: bench/claude-json.sh [SIZE_MB] [RUNS] [SCOPE]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-50}
runs=${2:-5}
scope=${3:-user}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
export HOME="$work/home" AIWG_CONFIG="$work/home/.aiwg" TMPDIR="$work"
mkdir -p "$HOME"
go run ./bench/genclaude -size "$size" -out "$HOME/.claude.json"
where=(--scope "$scope")
if [ "$scope" = local ]; then
  # the project is one of the file's projects, halfway through the map
  proj="$work/proj"
  mkdir -p "$proj"
  proj=$(cd "$proj" && pwd -P)
  n=$(grep -c '"/home/dev/src/project-' "$HOME/.claude.json")
  key=$(printf '/home/dev/src/project-%06d' $(( n / 2 )))
  sed -i "s#\"$key\": {#\"$proj\": {#" "$HOME/.claude.json"
  where+=(--project "$proj")
fi
bytes=$(stat -c %s "$HOME/.claude.json")
for i in 1 2; do
  "$work/mcpwire" server add "bench$i" --command bench-mcp --arg --n --arg "$i" >/dev/null
done

now() { date +%s%N; }
# timed CMD...: run CMD under /usr/bin/time; sets ns (wall time) and rss (peak, bytes)
timed() {
  local t0 t1
  t0=$(now)
  /usr/bin/time -f '%M' -o "$work/rss" "$@" >/dev/null
  t1=$(now)
  ns=$(( t1 - t0 ))
  rss=$(( $(cat "$work/rss") * 1024 ))
}
best_inject=0 best_rss=0
for r in $(seq "$runs"); do
  s="bench$(( r % 2 + 1 ))"          # alternate, so every run rewrites the file
  "$work/mcpwire" uninject --provider claude-code "${where[@]}" --servers "bench1,bench2" >/dev/null 2>&1 || true
  sync
  timed "$work/mcpwire" inject --provider claude-code "${where[@]}" --servers "$s"
  if [ "$best_inject" = 0 ] || [ "$ns" -lt "$best_inject" ]; then best_inject=$ns; fi
  if [ "$rss" -gt "$best_rss" ]; then best_rss=$rss; fi
done
best_dry=0 dry_rss=0
for r in $(seq "$runs"); do
  timed "$work/mcpwire" inject --provider claude-code "${where[@]}" --servers bench1 --dry-run
  if [ "$best_dry" = 0 ] || [ "$ns" -lt "$best_dry" ]; then best_dry=$ns; fi
  if [ "$rss" -gt "$dry_rss" ]; then dry_rss=$rss; fi
done
best_cp=0 best_cps=0
for r in $(seq "$runs"); do
  rm -f "$work/copy.json"; sync
  t0=$(now); cp "$HOME/.claude.json" "$work/copy.json"; t1=$(now)
  ns=$(( t1 - t0 ))
  if [ "$best_cp" = 0 ] || [ "$ns" -lt "$best_cp" ]; then best_cp=$ns; fi
  rm -f "$work/copy.json"; sync
  t0=$(now); cp "$HOME/.claude.json" "$work/copy.json"; sync "$work/copy.json"; t1=$(now)
  ns=$(( t1 - t0 ))
  if [ "$best_cps" = 0 ] || [ "$ns" -lt "$best_cps" ]; then best_cps=$ns; fi
done
awk -v scope="$scope" -v b="$bytes" -v i="$best_inject" -v c="$best_cp" -v cs="$best_cps" -v m="$best_rss" -v d="$best_dry" -v dm="$dry_rss" 'BEGIN {
  mb = b / 1e6
  printf "file:            %.1f MB (%s scope)\n", mb, scope
  printf "inject (best):   %.1f ms, %.0f MB/s (target >= 150 MB/s)\n", i/1e6, mb/(i/1e9)
  printf "cp (best):       %.1f ms, %.0f MB/s\n", c/1e6, mb/(c/1e9)
  printf "inject / cp:     %.2fx the time of cp\n", i/c
  printf "cp+sync (best):  %.1f ms; inject / cp+sync: %.2fx (target <= 3x)\n", cs/1e6, i/cs
  printf "peak RSS:        %.1f MB = %.2fx the file (target < 3x)\n", m/1e6, m/b
  printf "dry run (best):  %.1f ms, peak RSS %.1f MB = %.2fx the file (target <= 3x)\n", d/1e6, dm/1e6, dm/b
}'
