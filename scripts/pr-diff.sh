#!/usr/bin/env bash
# The paper's diff for a pull request: what the pull-request workflow runs
# after `npm run build` and `npm test`, whether they passed or not, and exactly
# what test/diff-loop.test.ts runs in a scratch repository, so the two cannot
# drift.
#
#   scripts/pr-diff.sh [--build OUTCOME] [--tests OUTCOME] BASE OUT [REPORT_URL]
#
# --build, --tests  how the workflow's build and test steps ended (GitHub's
#             `steps.<id>.outcome`: success, failure, skipped, cancelled); the
#             summary then opens with that verdict and the claims that flipped
# BASE        the base branch's commit; the baseline is test/snapshots/ at the
#             merge base of BASE and HEAD (the state the branch started from,
#             so commits that landed on the base since do not show as changes)
# OUT         receives OUT/report/ (index.html, diff.json, numbers.txt, build/)
#             and OUT/summary.md (one pull-request comment, naming HEAD)
# REPORT_URL  where the summary says the full report is (the CI run's page)
set -euo pipefail
cd "$(dirname "$0")/.."
build=
tests=
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: scripts/pr-diff.sh [--build OUTCOME] [--tests OUTCOME] BASE OUT [REPORT_URL]" >&2
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
# An experiment that fails here failed in the build too; the diff then says the build fails.
if ! node bin/stopwatches.mjs run; then
  build=failure
  rm -f src/generated/numbers.json
fi
node bin/stopwatches.mjs diff "$base" --out "$out/report" --md "$out/summary.md" ${url:+--report-url "$url"} \
  ${build:+--build-outcome "$build"} ${tests:+--test-outcome "$tests"}
