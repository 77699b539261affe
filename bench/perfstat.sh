#!/usr/bin/env bash
# CPU time and page faults of whole processes, beside each other in one run: each
# round runs every command once under `perf stat` (task-clock, page-faults), in turn;
# prints each command's medians. On a shared, loaded machine the CPU time moves far
# less than the wall time bench/ratio prints (issue 31). Needs perf (linux-perf).
# Usage: bench/perfstat.sh RUNS 'LABEL=ARGV...' 'LABEL=ARGV...'... (ARGV split at
# spaces; the command's output is discarded). bench/server-list.sh runs it.
set -euo pipefail
runs=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 0; r < runs; r++)); do
  for i in $(seq 0 $(($# - 1))); do
    row=${*:i+1:1}
    # shellcheck disable=SC2086 # ARGV is split at spaces on purpose
    perf stat -x, -e task-clock,page-faults -o "$tmp/stat" ${row#*=} >/dev/null 2>&1 || true
    tc=$(grep task-clock "$tmp/stat" | cut -d, -f1)
    pf=$(grep page-faults "$tmp/stat" | cut -d, -f1)
    echo "$i $tc $pf" >>"$tmp/all"
  done
done
for i in $(seq 0 $(($# - 1))); do
  row=${*:i+1:1}
  cpu=$(awk -v i="$i" '$1 == i {print $2}' "$tmp/all" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  pf=$(awk -v i="$i" '$1 == i {print $3}' "$tmp/all" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  printf '%-44s CPU time median %8.2f ms  page faults median %6d  (%d runs)\n' "${row%%=*}" "$cpu" "$pf" "$runs"
done
