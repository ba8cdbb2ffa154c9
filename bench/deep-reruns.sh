#!/usr/bin/env bash
# The five paper suites at the deep scale (issue #23), in the order that yields claims soonest — claims tested per
# machine-hour, from `calib suite budget --scale deep --jobs 2 --threads 1` (docs/reproductions/deep-budget.md):
# karandikar (34 claims in ≈ 2.8 h), mbls (32 in ≈ 4.6 h), acls (34 in ≈ 4.6 h once mbls's 30 shared runs are
# reused), thulasidasan (32 in ≈ 5.3 h), maronas (10 in ≈ 2.8 h, reusing mbls's CE as its baseline B).
# Two runs side by side with one thread each, at the lowest priority. Resumable: rerun the script and every suite
# continues where it stopped (finished runs are kept, an interrupted run resumes from its checkpoint). A suite with
# a failed run does not stop the others; its exit code is printed and a rerun retries the failed run.
#
# Usage: bench/deep-reruns.sh [ROOT]   (ROOT default /work/repro; suite directories ROOT/<paper>-deep)
# Run it from the repository root after `npm run build`, e.g. `nohup bench/deep-reruns.sh > deep-reruns.log 2>&1 &`.
set -u
ROOT="${1:-/work/repro}"
CALIB=(nice -n 19 node dist/src/cli/main.js)
mkdir -p "$ROOT"

run_suite() {
  local paper="$1"; shift
  echo "== $(date -u +%FT%TZ) $paper (deep) → $ROOT/$paper-deep"
  "${CALIB[@]}" suite run "$paper" --scale deep --jobs 2 --threads 2 --progress lines --out "$ROOT/$paper-deep" "$@"
  echo "== $(date -u +%FT%TZ) $paper: exit $?"
}

run_suite karandikar
run_suite mbls
run_suite acls --reuse-from "$ROOT/mbls-deep"
run_suite thulasidasan
run_suite maronas --reuse-from "$ROOT/mbls-deep"

# Issue #23 item 5: each paper's verdicts at machine vs deep scale (flips first), beside its deep report.
for paper in karandikar mbls acls thulasidasan maronas; do
  [ -d "$ROOT/$paper-deep" ] && "${CALIB[@]}" suite compare-scales "docs/reproductions/$paper" "$ROOT/$paper-deep" --markdown "$ROOT/$paper-deep/scale-flips.md" > /dev/null
done
