#!/usr/bin/env bash
# Times `mcpwire server list` end to end on 10,000 servers and 1,000 profiles across
# 16 layers (issue 2, Speed: under 100 ms). Usage: bench/server-list.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/mcpwire" ./cmd/mcpwire
AIWG_CONFIG_LAYERS=$(go run ./internal/benchgen/cmd/benchgen "$tmp/registry")
export AIWG_CONFIG_LAYERS
"$tmp/mcpwire" server list >/dev/null # warm the page cache
if command -v hyperfine >/dev/null; then
	exec hyperfine --warmup 2 --runs "$runs" "$tmp/mcpwire server list"
fi
best=
for _ in $(seq "$runs"); do
	start=$(date +%s%N)
	"$tmp/mcpwire" server list >/dev/null
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	if [[ -z $best || $ms -lt $best ]]; then best=$ms; fi
done
echo "server list: best of $runs runs: ${best} ms"
