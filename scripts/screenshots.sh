#!/usr/bin/env bash
# The README's screenshots, taken by the browser tests (tests/web: headless Chromium against real
# servers, engines and workers) and copied to docs/img/: every page of the coordinator's web view at a
# desktop's width (1280 px) and a phone's (390 px), a run's pages, and both play pages.
#
#   scripts/screenshots.sh        (BUILD= another build directory; default build/)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
ART="$BUILD/test-artifacts"
IMG="$ROOT/docs/img"

step() { echo "screenshots.sh: $*" >&2; }
step "building the browser tests"
cmake --build "$BUILD" -j"$(nproc)" --target test_web test_web_runs test_web_play test_web_go_play >&2
step "the web view's pages (a ladder, a benchmark run and a worker on a real cluster)"
"$BUILD/bin/test_web" --gtest_filter='WebView.EveryPageFitsAPhoneAndADesktop' >&2
step "a run's pages (its steps driven through the worker API) and the run form"
"$BUILD/bin/test_web_runs" >&2
step "the Xiangqi play page"
"$BUILD/bin/test_web_play" \
  --gtest_filter='PlayInBrowser.WholeGames*:PlayInBrowser.APlayerWhoOnlyKeepsChecking*' >&2
step "the Capture Go play page (its README picture goes to docs/img/ directly)"
"$BUILD/bin/test_web_go_play" --gtest_also_run_disabled_tests \
  --gtest_filter='CaptureGoPlayInBrowser.DISABLED_ReadmeScreenshot:CaptureGoPlayInBrowser.AtPhoneWidth*' >&2

# The ones the README shows (every test writes more to build/test-artifacts/).
mkdir -p "$IMG"
for f in tests-desktop tests-phone test-desktop test-phone workers-desktop bench-desktop ladders-desktop \
         ladder-desktop nets-desktop submit-phone run-desktop run-phone runs-desktop submit-run-phone; do
  cp "$ART/web/pages/$f.png" "$IMG/web-$f.png"
done
for f in play-start play-middle play-end play-perpetual-check-phone; do cp "$ART/play/$f.png" "$IMG/$f.png"; done
step "written: $(cd "$IMG" && ls *.png | tr '\n' ' ')"
