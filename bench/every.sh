#!/usr/bin/env bash
# Issue 13's case, whole process: `mcpwire inject` of a 20-server profile into every
# provider at once, fresh and up to date, beside the least a crash-safe fresh write of
# the same files costs on the same filesystem and the start of /bin/true (target: the
# fresh write under 50 ms; issue 31: ≤ 1.5× the floor, up to date ≤ 20 ms). Prints
# each ratio with its yardstick, medians of the same alternating runs. Usage:
# bench/every.sh [RUNS] [DIR] [BEFORE] — DIR on the filesystem to measure (default: a
# temporary directory under $TMPDIR); BEFORE a git revision (main, HEAD~3) whose
# build runs alternately with this one, for before-and-after figures of one run.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
work=$(mktemp -d "${2:-${TMPDIR:-/tmp}}/every.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/every" ./bench/every
before=()
if [ -n "${3:-}" ]; then
	mkdir "$work/src"
	git archive "$3" | tar -x -C "$work/src"
	(cd "$work/src" && go build -o "$work/mcpwire-before" ./cmd/mcpwire)
	before=("$work/mcpwire-before")
fi
uptime
"$work/every" "$work/mcpwire" "$work" "$runs" "${before[@]}"
