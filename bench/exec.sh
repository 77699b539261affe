#!/usr/bin/env bash
# What `mcpwire exec` adds to a server's start beyond the store's own time (issue 28,
# bound: 10 ms), in one run beside `env K=V CMD`: bench/execbench interleaves the
# commands. With pass and gpg installed, a throwaway store measures the pass rows too.
# Usage: bench/exec.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
work=$(mktemp -d)
gnupg=$(mktemp -d /tmp/execgpg.XXXXXX)
cleanup() {
  GNUPGHOME="$gnupg" gpgconf --kill gpg-agent 2>/dev/null || true
  rm -rf "$work" "$gnupg"
}
trap cleanup EXIT
go build -o "$work/mcpwire" ./cmd/mcpwire
go build -o "$work/execbench" ./bench/execbench
printf 'SENTINEL-bench\n' > "$work/token"
chmod 600 "$work/token"
if command -v pass >/dev/null && command -v gpg >/dev/null; then
  export GNUPGHOME="$gnupg" PASSWORD_STORE_DIR="$work/password-store"
  gpg --batch --passphrase '' --quick-gen-key 'mcpwire bench <bench@mcpwire.invalid>' default default never 2>/dev/null
  pass init "$(gpg --list-keys --with-colons | awk -F: '/^fpr/ {print $10; exit}')" >/dev/null 2>&1
  printf 'SENTINEL-bench\n' | pass insert --multiline --force bench/token >/dev/null
  export PASS_REF=pass:bench/token
fi
uptime
"$work/execbench" "$work/mcpwire" "$work/token" "$runs"
