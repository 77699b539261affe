#!/usr/bin/env bash
# Inject into a 50 MB ~/.claude.json: throughput, peak memory, and the ratio to cp
# of the same file; then the same inject with --dry-run (issue 11: peak memory at most
# 3x the file). SCOPE local writes the project's own servers (V11) into one of the
# file's projects, in its middle. BEFORE=path/to/another/mcpwire adds its rows, run
# alternately with this build's in every round (issue 31). Prints medians (wall time,
# CPU time, peak RSS) and ratios to cp+sync of the same file in the same run.
# MINIFY=1 writes the file on one line (user scope only).
# Usage: [BEFORE=bin] [MINIFY=1] bench/claude-json.sh [SIZE_MB] [RUNS] [SCOPE]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-50}
runs=${2:-5}
scope=${3:-user}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/jsonfloor" ./bench/jsonfloor
export HOME="$work/home" AIWG_CONFIG="$work/home/.aiwg" TMPDIR="$work"
mkdir -p "$HOME"
go run ./bench/genclaude -size "$size" -out "$HOME/.claude.json"
if [[ -n ${MINIFY:-} ]]; then
  # one line, as bench/hostile.sh (K7): SIZE_MB 69 gives a 52 MB minified file
  go run ./bench/hostilegen minify "$HOME/.claude.json" "$work/min.json"
  mv "$work/min.json" "$HOME/.claude.json"
fi
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
bins=("$work/mcpwire")
labels=(now)
if [[ -n ${BEFORE:-} ]]; then
  bins+=("$BEFORE")
  labels+=(before)
fi
# timed LABEL CMD...: run CMD under /usr/bin/time; appends "wall_ns cpu_ms rss_bytes" to
# $work/LABEL
timed() {
  local label=$1 t0 t1 kb u s
  shift
  t0=$(now)
  /usr/bin/time -f '%M %U %S' -o "$work/rss" "$@" >/dev/null
  t1=$(now)
  read -r kb u s <"$work/rss"
  echo "$(( t1 - t0 )) $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }') $(( kb * 1024 ))" >>"$work/$label"
}
for r in $(seq "$runs"); do
  s="bench$(( r % 2 + 1 ))"          # alternate, so every run rewrites the file
  for k in "${!bins[@]}"; do
    "${bins[$k]}" uninject --provider claude-code "${where[@]}" --servers "bench1,bench2" >/dev/null 2>&1 || true
    sync
    timed "inject-${labels[$k]}" "${bins[$k]}" inject --provider claude-code "${where[@]}" --servers "$s"
  done
  "$work/mcpwire" uninject --provider claude-code "${where[@]}" --servers "bench1,bench2" >/dev/null 2>&1 || true
  "$work/mcpwire" inject --provider claude-code "${where[@]}" --servers bench2 >/dev/null 2>&1
  for k in "${!bins[@]}"; do
    timed "dry-${labels[$k]}" "${bins[$k]}" inject --provider claude-code "${where[@]}" --servers bench1 --dry-run
  done
  # the floor of any edit that validates the whole file (W2): one pass over its tokens
  timed floor "$work/jsonfloor" "$HOME/.claude.json"
  rm -f "$work/copy.json"; sync
  t0=$(now); cp "$HOME/.claude.json" "$work/copy.json"; sync "$work/copy.json"; t1=$(now)
  echo "$(( t1 - t0 )) 0 0" >>"$work/cpsync"
done
# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cs=$(median "$work/cpsync" 1)
printf 'file: %.1f MB (%s scope), %s runs alternating, load %s\n' "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$scope" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'cp+sync: %.1f ms (median)\n' "$(awk -v c="$cs" 'BEGIN { print c / 1e6 }')"
for row in inject-now inject-before dry-now dry-before floor; do
  f="$work/$row"
  [[ -f $f ]] || continue
  case $row in
    floor) name="jsonfloor (read, one pass)" ;;
    *) name="${row%%-*} (${row#*-})" ;;
  esac
  awk -v w="$(median "$f" 1)" -v cpu="$(median "$f" 2)" -v m="$(median "$f" 3)" -v cs="$cs" -v b="$bytes" -v name="$name" 'BEGIN {
    printf "%-27s %7.1f ms = %.2fx cp+sync, CPU %4d ms, peak RSS %6.1f MB = %.2fx the file\n", name, w / 1e6, w / cs, cpu, m / 1e6, m / b
  }'
done
