#!/usr/bin/env bash
# Issue 25 (SPEC K1, K7), whole process: status, audit and import over N entries of a
# .mcp.json (three clients read it), status of a 1.5 MB Goose config, inject and its
# --dry-run and --check into a minified 50 MB ~/.claude.json, and the refusal of an
# alias bomb and of 100,000 levels of nesting. Prints wall time, CPU time (user +
# system: the machine may be shared) and peak RSS of each run, the best of RUNS (by
# CPU time). The Goose file is also parsed by go.yaml.in/yaml/v3 alone (yamlfloor),
# the floor of reading it.
# BASE=path/to/another/mcpwire runs that binary too, for a before/after.
# Usage: bench/hostile.sh [ENTRIES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
entries=${1:-200000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/gen" ./bench/hostilegen
go build -o "$work/genclaude" ./bench/genclaude
go build -o "$work/yamlfloor" ./bench/yamlfloor

# world NAME: a HOME and a project of their own
world() {
  local w="$work/$1"
  mkdir -p "$w/home/.aiwg" "$w/home/.config/goose" "$w/proj/.git" "$w/proj/.continue/mcpServers"
  echo '{"servers": {"bench1": {"command": "bench-mcp", "args": ["--n", "1"]}}}' > "$w/home/.aiwg/mcp-servers.json"
  echo "$w"
}
# timed BIN WORLD ARGS...: the best wall, CPU and peak RSS of RUNS runs
timed() {
  local bin=$1 w=$2; shift 2
  local best="" line
  for _ in $(seq "$runs"); do
    if [ -n "${PRE:-}" ]; then $PRE; fi
    line=$(cd "$w/proj" && HOME="$w/home" XDG_CONFIG_HOME="$w/home/.config" TMPDIR="$work" \
      timeout "${TIMEOUT:-120}" /usr/bin/time -f '%e %U %S %M' "$bin" "$@" 2>&1 >/dev/null | tail -1 || true)
    if ! [[ "$line" =~ ^[0-9.]+\ [0-9.]+\ [0-9.]+\ [0-9]+$ ]]; then
      printf '%-52s %s\n' "$*" "failed or timed out: $line"
      return
    fi
    read -r wall user sys rss <<<"$line"
    cpu=$(echo "$user + $sys" | bc)
    if [ -z "$best" ] || [ "$(echo "$cpu < ${best%% *}" | bc)" = 1 ]; then best="$cpu $wall $rss"; fi
  done
  read -r cpu wall rss <<<"$best"
  printf '%-52s wall %6.2f s  cpu %6.2f s  rss %5d MB\n' "$*" "$wall" "$cpu" $((rss / 1024))
}
bins=("$work/mcpwire")
if [ -n "${BASE:-}" ]; then bins+=("$BASE"); fi

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

echo "-- go.yaml.in/yaml/v3's parse of the 1.5 MB Goose config.yaml alone (the floor of reading it)"
timed "$work/yamlfloor" "$g" "$g/home/.config/goose/config.yaml"
for bin in "${bins[@]}"; do
  echo "== $bin"
  echo "-- $entries entries in .mcp.json ($(stat -c %s "$w/proj/.mcp.json") bytes)"
  timed "$bin" "$w" status
  timed "$bin" "$w" audit
  timed "$bin" "$w" import --from claude-code --dry-run
  PRE="cp $work/registry.json $w/home/.aiwg/mcp-servers.json" timed "$bin" "$w" import --from claude-code
  cp "$work/registry.json" "$w/home/.aiwg/mcp-servers.json" # as it was, for the next binary
  echo "-- a 1.5 MB Goose config.yaml"
  timed "$bin" "$g" status --provider goose
  echo "-- a minified ~/.claude.json ($(stat -c %s "$c/home/min.json") bytes)"
  for flag in "" --dry-run --check; do
    cp "$c/home/min.json" "$c/home/.claude.json"
    rm -rf "$c/home/.aiwg/mcp-ownership"
    timed "$bin" "$c" inject --provider claude-code --scope user --servers bench1 $flag
  done
  echo "-- an alias bomb and 100,000 levels of nesting"
  timed "$bin" "$h" status --provider continue,goose
done
