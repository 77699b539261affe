#!/usr/bin/env bash
# `mcpwire server list` on 10,000 servers and 1,000 profiles across 16 layers
# (internal/benchgen), whole processes, beside its floor in the same run: a Go program
# that reads and parses the same layer files and does nothing else (bench/loadlayers).
# bench/ratio starts them in turn and prints medians and the ratio (goal, issue 31:
# the list under 50 ms on the development machine). Usage: bench/server-list.sh
# [RUNS] [DIR] — DIR on the filesystem to measure (default: a temporary directory
# under $TMPDIR); BEFORE=path/to/another/mcpwire adds its row. Where perf is
# installed, bench/perfstat.sh then prints each one's CPU time and page faults
# (medians of RUNS alternating runs).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-31}
work=$(mktemp -d "${2:-${TMPDIR:-/tmp}}/server-list.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/loadlayers" ./bench/loadlayers
go build -o "$work/ratio" ./bench/ratio
AIWG_CONFIG_LAYERS=$(go run ./internal/benchgen/cmd/benchgen "$work/registry")
export AIWG_CONFIG_LAYERS HOME="$work"
rows=("floor: the layers loaded=$work/loadlayers" "mcpwire server list=$work/mcpwire server list")
if [[ -n ${BEFORE:-} ]]; then
  rows+=("before: mcpwire server list=$BEFORE server list")
fi
uptime
"$work/ratio" "$runs" "${rows[@]}"
if command -v perf >/dev/null; then
  bench/perfstat.sh "$runs" "${rows[@]}"
fi
