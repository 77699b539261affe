#!/usr/bin/env bash
# Issue 25 (SPEC K7): status, audit and import of YAML clients' files give the same
# bytes (stdout, stderr, exit status) from this tree's mcpwire as from another's
# (BASE, e.g. main's build): the Goose and Continue fixtures, a 1.5 MB generated
# Goose config (bench/hostilegen), a Continue config.yaml of 3,000 listed servers
# (read from yaml.v3's tree) and the same with anchors and merge keys in a few (read
# from the decoded data), and files YAML refuses (a key written twice,
# a merge key naming a list of scalars). The times an import records are masked.
# Usage: BASE=path/to/mcpwire bench/yamlsame.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BASE:?BASE=path/to/the other mcpwire}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/gen" ./bench/hostilegen

# world NAME GOOSE CONTINUE: a HOME with these Goose and Continue files, and a project
world() {
  local w="$work/$1"
  mkdir -p "$w/home/.aiwg" "$w/home/.config/goose" "$w/home/.continue" "$w/proj/.git" "$w/proj/.continue/mcpServers"
  echo '{"servers": {"bench1": {"command": "bench-mcp", "args": ["--n", "1"]}}}' >"$w/home/.aiwg/mcp-servers.json"
  cp "$2" "$w/home/.config/goose/config.yaml"
  cp "$3" "$w/home/.continue/config.yaml"
  cp "$3" "$w/proj/.continue/mcpServers/mcpwire.yaml"
  echo "$w"
}
{
  echo "mcpServers:"
  for i in $(seq 3000); do
    printf '  - name: s%d\n    command: x\n    args: ["-y", "p%d", "caf\\u00e9 <&>"]\n    env: {A: b, N: %d, T: true, F: 1.5}\n' "$i" "$i" "$i"
  done
} >"$work/plain.yaml"
{
  cat "$work/plain.yaml"
  printf '  - &base\n    name: anchored\n    command: y\n  - <<: *base\n    name: merged\n  - uses: hub/x\n'
} >"$work/list.yaml"
"$work/gen" extensions 1572864 "$work/big.yaml"
printf 'extensions:\n  a: {cmd: x}\n  a: {cmd: y}\n' >"$work/dup.yaml"
printf 'extensions:\n  a:\n    <<: [1, 2]\n    cmd: x\n' >"$work/merge.yaml"
printf 'extensions:\n  base: &b {type: stdio, cmd: x, args: [q], envs: {K: v}}\n  c:\n    <<: *b\n    name: c\n  d: *b\n  e: {cmd: !!str 12, timeout: 0x1F, t: 2001-12-14, f: .inf, n: ~, bin: !!binary aGVsbG8=}\n' >"$work/refs.yaml"
fx=fixtures/files
worlds=(
  "fixtures $fx/goose/user.dev.config.yaml $fx/continue/user.dev.config.yaml"
  "big $work/big.yaml $work/plain.yaml"
  "list $fx/goose/user.dev.config.yaml $work/list.yaml"
  "refs $work/refs.yaml $fx/continue-cli/user.dev.config.yaml"
  "dup $work/dup.yaml $work/list.yaml"
  "merge $work/merge.yaml $work/list.yaml"
)
cmds=(
  "status --provider goose,continue,cn"
  "status --provider goose,continue,cn --json"
  "audit"
  "import --from goose --dry-run"
  "import --from continue --dry-run"
  "import --from cn --dry-run"
)
fail=0
for spec in "${worlds[@]}"; do
  read -r name goose cont <<<"$spec"
  w=$(world "$name" "$goose" "$cont")
  for c in "${cmds[@]}"; do
    read -ra args <<<"$c"
    for b in "$work/mcpwire" "$BASE"; do
      tag=after
      if [ "$b" = "$BASE" ]; then tag=before; fi
      (cd "$w/proj" && HOME="$w/home" XDG_CONFIG_HOME="$w/home/.config" "$b" "${args[@]}" >"$work/$tag.out" 2>"$work/$tag.err"; echo "exit $?" >>"$work/$tag.err") || true
      # the time an import records (addedAt, updatedAt) is the run's own
      sed -i -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' "$work/$tag.out" "$work/$tag.err"
    done
    if cmp -s "$work/after.out" "$work/before.out" && cmp -s "$work/after.err" "$work/before.err"; then
      printf 'same  %-6s %s (%s bytes)\n' "$name" "$c" "$(wc -c <"$work/after.out")"
    else
      printf 'DIFF  %-6s %s\n' "$name" "$c"
      diff "$work/before.out" "$work/after.out" | head -5 || true
      diff "$work/before.err" "$work/after.err" | head -5 || true
      fail=1
    fi
  done
done
exit $fail
