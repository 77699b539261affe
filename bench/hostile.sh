#!/usr/bin/env bash
# Issue 25 (SPEC K1, K7), whole process: status, audit and import over N entries of a
# .mcp.json (three clients read it), status of a 1.5 MB Goose config, inject and its
# --dry-run and --check into a minified 50 MB ~/.claude.json, and the refusal of an
# alias bomb and of 100,000 levels of nesting. Prints the median CPU time (user +
# system, to the millisecond: the machine may be shared), wall time and peak RSS of
# RUNS runs of each (bench/cputime measures a run).
# The floors are timed beside them: go.yaml.in/yaml/v3's parse of the Goose file
# alone (yamlfloor, the floor of reading it), one pass over the tokens of the 50 MB
# file (jsonfloor, what a dry run's redaction adds at least to the inject), a cp of
# each file, and for import one client's status and loading the registry it writes.
# BASE=path/to/another/mcpwire runs that binary too, for a before/after: each
# command's runs alternate between the binaries (and the floors), the order turned
# round every time, so both see the same load.
# Usage: bench/hostile.sh [ENTRIES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
entries=${1:-200000}
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/gen" ./bench/hostilegen
go build -o "$work/genclaude" ./bench/genclaude
go build -o "$work/yamlfloor" ./bench/yamlfloor
go build -o "$work/cputime" ./bench/cputime
go build -o "$work/jsonfloor" ./bench/jsonfloor

# world NAME: a HOME and a project of their own
world() {
  local w="$work/$1"
  mkdir -p "$w/home/.aiwg" "$w/home/.config/goose" "$w/proj/.git" "$w/proj/.continue/mcpServers"
  echo '{"servers": {"bench1": {"command": "bench-mcp", "args": ["--n", "1"]}}}' > "$w/home/.aiwg/mcp-servers.json"
  echo "$w"
}
# once WORLD CMD...: one run of CMD in the world's project, after $PRE; prints its CPU
# time, wall time and peak RSS (KB), or nothing when it failed or timed out
once() {
  local w=$1 line wall cpu rss; shift
  if [ -n "${PRE:-}" ]; then eval "$PRE"; fi
  line=$(cd "$w/proj" && HOME="$w/home" XDG_CONFIG_HOME="$w/home/.config" TMPDIR="$work" \
    timeout "${TIMEOUT:-120}" "$work/cputime" "$@" 2>&1 >/dev/null | tail -1 || true)
  [[ "$line" =~ ^[0-9.]+\ [0-9.]+\ [0-9]+$ ]] || return 0
  read -r wall cpu rss <<<"$line"
  echo "$cpu $wall $rss"
}
# median FILE COLUMN: the median of a column of numbers
median() {
  cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# compare WORLD TITLE "LABEL|CMD ARGS..." ...: RUNS runs of each command line,
# alternating, then each one's medians
compare() {
  local w=$1 title=$2 i r n out; shift 2
  local items=("$@")
  n=${#items[@]}
  for i in $(seq 0 $((n - 1))); do : >"$work/t$i"; done
  for r in $(seq "$runs"); do
    for k in $(seq 0 $((n - 1))); do
      i=$k
      if [ $((r % 2)) = 0 ]; then i=$((n - 1 - k)); fi
      read -ra cmd <<<"${items[$i]#*|}"
      out=$(once "$w" "${cmd[@]}")
      if [ -n "$out" ]; then echo "$out" >>"$work/t$i"; fi
    done
  done
  echo "$title"
  for i in $(seq 0 $((n - 1))); do
    if [ ! -s "$work/t$i" ]; then
      printf '  %-18s failed or timed out\n' "${items[$i]%%|*}"
      continue
    fi
    printf '  %-18s cpu %6.3f s  wall %6.2f s  rss %5d MB  (%d runs)\n' "${items[$i]%%|*}" \
      "$(median "$work/t$i" 1)" "$(median "$work/t$i" 2)" "$(( $(median "$work/t$i" 3 | cut -d. -f1) / 1024 ))" \
      "$(wc -l <"$work/t$i")"
  done
}
# each ARGS...: "after|this tree's binary ARGS" and, with BASE, "before|BASE ARGS"
each() {
  echo "after|$work/mcpwire $*"
  if [ -n "${BASE:-}" ]; then echo "before|$BASE $*"; fi
}

w=$(world entries)
"$work/gen" mcpjson "$entries" "$w/proj/.mcp.json"
g=$(world goose)
"$work/gen" extensions 1572864 "$g/home/.config/goose/config.yaml"
c=$(world claude)
"$work/genclaude" -size 69 -out "$c/home/big.json"
"$work/gen" minify "$c/home/big.json" "$c/home/min.json"
rm "$c/home/big.json"
h=$(world hostile)
"$work/gen" bomb 12 "$h/proj/.continue/mcpServers/mcpwire.yaml"
"$work/gen" nest 100000 "$h/home/.config/goose/config.yaml"
cp "$w/home/.aiwg/mcp-servers.json" "$work/registry.json"

echo "== $runs runs of each, alternating; medians"
echo "-- $entries entries in .mcp.json ($(stat -c %s "$w/proj/.mcp.json") bytes)"
mapfile -t items < <(each status)
compare "$w" "status" "${items[@]}" "cp|cp $w/proj/.mcp.json $work/copy"
mapfile -t items < <(each audit)
compare "$w" "audit" "${items[@]}"
mapfile -t items < <(each import --from claude-code --dry-run)
compare "$w" "import --from claude-code --dry-run" "${items[@]}"
mapfile -t items < <(each import --from claude-code)
PRE="cp $work/registry.json $w/home/.aiwg/mcp-servers.json" compare "$w" "import --from claude-code" "${items[@]}"
# the floors of import: reading one client's file (status of Claude Code's alone),
# and loading the registry it writes (a command that reads nothing else)
"$work/mcpwire" import --from claude-code >/dev/null 2>&1 || true
cp "$w/home/.aiwg/mcp-servers.json" "$work/imported.json"
cp "$work/registry.json" "$w/home/.aiwg/mcp-servers.json"
mapfile -t items < <(each status --provider claude-code)
compare "$w" "status --provider claude-code (one client's read of the file)" "${items[@]}"
cp "$work/imported.json" "$w/home/.aiwg/mcp-servers.json"
mapfile -t items < <(each profile list)
compare "$w" "profile list with the registry import wrote ($(stat -c %s "$work/imported.json") bytes)" "${items[@]}"
cp "$work/registry.json" "$w/home/.aiwg/mcp-servers.json"

echo "-- a 1.5 MB Goose config.yaml ($(stat -c %s "$g/home/.config/goose/config.yaml") bytes)"
mapfile -t items < <(each status --provider goose)
compare "$g" "status --provider goose" "${items[@]}" "yamlfloor|$work/yamlfloor $g/home/.config/goose/config.yaml"

echo "-- a minified ~/.claude.json ($(stat -c %s "$c/home/min.json") bytes); each run on the same file"
reset="cp $c/home/min.json $c/home/.claude.json; rm -rf $c/home/.aiwg/mcp-ownership"
# the real inject and its dry run and check alternate in one loop: their ratio is
# what K7 bounds (2x)
items=()
for flag in "" --dry-run --check; do
  items+=("inject${flag:+ }$flag|$work/mcpwire inject --provider claude-code --scope user --servers bench1 $flag")
done
if [ -n "${BASE:-}" ]; then
  for flag in "" --dry-run --check; do
    items+=("before ${flag:-inject}|$BASE inject --provider claude-code --scope user --servers bench1 $flag")
  done
fi
items+=("cp|cp $c/home/min.json $work/copy" "jsonfloor|$work/jsonfloor $c/home/min.json")
PRE=$reset compare "$c" "inject --provider claude-code --scope user --servers bench1 [--dry-run|--check]" "${items[@]}"

echo "-- an alias bomb and 100,000 levels of nesting"
mapfile -t items < <(each status --provider continue,goose)
compare "$h" "status --provider continue,goose" "${items[@]}"
