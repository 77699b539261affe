#!/usr/bin/env bash
# Issue 13's case, whole process: `mcpwire inject` of a 20-server profile into every
# provider at once, fresh and up to date, beside the least a crash-safe fresh write of
# the same files costs on the same filesystem and the start of /bin/true (target: the
# fresh write under 50 ms). Usage: bench/every.sh [RUNS] [DIR] — DIR on the
# filesystem to measure (default: a temporary directory under $TMPDIR).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
work=$(mktemp -d "${2:-${TMPDIR:-/tmp}}/every.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/every" ./bench/every
"$work/every" "$work/mcpwire" "$work" "$runs"
