#!/usr/bin/env bash
# Start-up as a ratio (issue 31): `mcpwire --version` and a 20-server
# `mcpwire inject --ephemeral` beside a Go "hello world" built the same way
# (`go build`, default flags), whole processes started in turn by bench/ratio, medians
# of RUNS rounds. Goals: --version ≤ 1.5× hello world; the ephemeral launch ≤ 0.1×
# `codex mcp add` (123 ms measured on the development machine: ≤ 12 ms there).
# Usage: bench/startup.sh [RUNS] [DIR] — DIR on the filesystem to measure (default:
# a temporary directory under $TMPDIR); BEFORE=path/to/another/mcpwire adds its rows.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-101}
work=$(mktemp -d "${2:-${TMPDIR:-/tmp}}/startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/ratio" ./bench/ratio
mkdir "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello, world") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.26\n' >"$work/hello/go.mod"
(cd "$work/hello" && go build -o "$work/hello-world" .)
export HOME="$work/home" AIWG_CONFIG="$work/home/.aiwg" TMPDIR="$work"
mkdir -p "$HOME"
servers=()
for i in $(seq 0 19); do
  "$work/mcpwire" server add "s$i" --command srv --arg --n --arg "$i" --env-from "TOKEN=TOKEN_$i" >/dev/null
  servers+=("s$i")
done
"$work/mcpwire" profile add p20 --servers "$(IFS=,; echo "${servers[*]}")" --tool-deny 's1__delete,s2__*' >/dev/null
eph="inject --provider claude-code --profile p20 --ephemeral --out $work/run.json"
rows=("hello world=$work/hello-world" "mcpwire --version=$work/mcpwire --version" "mcpwire inject --ephemeral=$work/mcpwire $eph")
if [[ -n ${BEFORE:-} ]]; then
  rows+=("before: mcpwire --version=$BEFORE --version" "before: mcpwire inject --ephemeral=$BEFORE $eph")
fi
uptime
"$work/ratio" "$runs" "${rows[@]}"
echo "goals: --version ≤ 1.50× hello world; --ephemeral ≤ 0.1× codex mcp add (12.3 ms where it took 123 ms)"
