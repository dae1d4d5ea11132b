#!/usr/bin/env bash
# The paper's diff for a pull request: what the pull-request workflow runs
# after `npm run build` and `npm test`, and exactly what test/diff-loop.test.ts
# runs in a scratch repository, so the two cannot drift.
#
#   scripts/pr-diff.sh BASE OUT [REPORT_URL]
#
# BASE        the base branch's commit; the baseline is test/snapshots/ at the
#             merge base of BASE and HEAD (the state the branch started from,
#             so commits that landed on the base since do not show as changes)
# OUT         receives OUT/report/ (index.html, diff.json, numbers.txt, build/)
#             and OUT/summary.md (one pull-request comment)
# REPORT_URL  where the summary says the full report is (the CI run's page)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: scripts/pr-diff.sh BASE OUT [REPORT_URL]" >&2
  exit 2
fi
base_rev=$1
out=$2
url=${3:-}
if ! base=$(git merge-base "$base_rev" HEAD); then
  echo "pr-diff: $base_rev and HEAD have no merge base here; fetch the whole history (actions/checkout with fetch-depth: 0)" >&2
  exit 2
fi
# Reruns only what is not cached: src/generated/ is then the build of HEAD for sure.
node bin/stopwatches.mjs run
node bin/stopwatches.mjs diff "$base" --out "$out/report" --md "$out/summary.md" ${url:+--report-url "$url"}
