#!/usr/bin/env bash
# Times `mcpwire explain` end to end on a home with every client's files (spec E3:
# at most 50 ms): a 20-server profile injected into every client at its default scope
# (the project's and the user's files), with Claude Code's and Gemini CLI's trust and
# approvals, then `explain s05` (one server, every client) and `explain --client
# claude-code`. Prints the best and the median of RUNS runs of each.
# Usage: bench/explain.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/mcpwire" ./cmd/mcpwire
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config AIWG_CONFIG=$tmp/home/.aiwg
proj=$tmp/proj
mkdir -p "$HOME" "$proj" "$tmp/bin"
git -C "$proj" init -q .
echo .wld/mcp.json >"$proj/.gitignore" # RunWield reads its project file only where git ignores it
printf '#!/bin/sh\n' >"$tmp/bin/srv" && chmod +x "$tmp/bin/srv"
export PATH=$tmp/bin:$PATH
cd "$proj"
names=()
for i in $(seq -w 0 19); do
	"$tmp/mcpwire" server add "s$i" -- srv --n "$i" >/dev/null
	names+=("s$i")
done
"$tmp/mcpwire" profile add p20 --servers "$(IFS=,; echo "${names[*]}")" >/dev/null
providers=$("$tmp/mcpwire" providers --json | python3 -c 'import json, sys; print(",".join(p["name"] for p in json.load(sys.stdin) if p["destinations"]))')
"$tmp/mcpwire" inject --provider "$providers" --profile p20 --skip-unsupported >/dev/null
# the user files too, of the clients whose default scope is the project
"$tmp/mcpwire" inject --provider "$providers" --profile p20 --scope user --skip-unsupported >/dev/null 2>&1 || true
# what a person who said yes has: Claude Code's trust and approvals, Gemini CLI's trust
python3 - "$HOME" "$proj" <<'PY'
import json, os, sys
home, proj = sys.argv[1], sys.argv[2]
p = os.path.join(home, ".claude.json")
d = json.load(open(p)) if os.path.exists(p) else {}
d.setdefault("projects", {}).setdefault(proj, {})["hasTrustDialogAccepted"] = True
json.dump(d, open(p, "w"))
os.makedirs(os.path.join(proj, ".claude"), exist_ok=True)
json.dump({"enableAllProjectMcpServers": True}, open(os.path.join(proj, ".claude", "settings.json"), "w"))
os.makedirs(os.path.join(home, ".gemini"), exist_ok=True)
json.dump({proj: "TRUST_FOLDER"}, open(os.path.join(home, ".gemini", "trustedFolders.json"), "w"))
PY
measure() {
	local label=$1
	shift
	"$tmp/mcpwire" "$@" >/dev/null || true # warm the page cache
	local times=()
	for _ in $(seq "$runs"); do
		start=$(date +%s%N)
		"$tmp/mcpwire" "$@" >/dev/null || true
		times+=($(( ($(date +%s%N) - start) / 1000 )))
	done
	sorted=($(printf '%s\n' "${times[@]}" | sort -n))
	printf '%s: best %d.%03d ms, median %d.%03d ms (%d runs)\n' "$label" \
		$((sorted[0] / 1000)) $((sorted[0] % 1000)) $((sorted[runs / 2] / 1000)) $((sorted[runs / 2] % 1000)) "$runs"
}
echo "files: $(find "$HOME" "$proj" -type f -not -path '*/.aiwg/*' -not -path '*/.git/*' | wc -l)"
measure "explain s05 (every client)" explain s05
measure "explain --client claude-code" explain --client claude-code
measure "mcpwire --version (the start alone)" --version
