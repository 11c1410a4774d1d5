#!/usr/bin/env bash
# The README's main job: from a fresh checkout, install the dependencies, build, and run a real
# regression test of two engine builds with `xq regress` (embedded coordinator + local workers on
# 127.0.0.1, SQLite under regress-data/) to an SPRT verdict. Fixed nodes per move keep it well under ten
# minutes on 2 cores.
#
#   scripts/regress.sh [extra xq regress options]
#
# The two builds: dev is the engine as built (its embedded network); base is the same engine run with a
# weights file whose piece-square and mobility terms are blanked (written with `xq-engine weights export`
# and edited below; a weights file as EvalFile selects the hand-written evaluation), standing in for an
# earlier, weaker evaluation. Override with BASE=/path/engine DEV=/path/engine, the node count
# with NODES=, the build directory with BUILD=, the results' directory (regress-data/) with DATA=.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
NODES="${NODES:-3000}"
SPRT="${SPRT:-elo0=0,elo1=40}"
DATA="${DATA:-regress-data}"

# A line per step on stderr, and the build's own progress: the first build takes minutes.
step() { echo "regress.sh: $*" >&2; }
step "checking the Debian packages (scripts/install-deps.sh)"
"$ROOT/scripts/install-deps.sh"
step "configuring $BUILD"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
step "building xq, xq-engine, xq-coordinator and xq-worker (about 5 minutes the first time on 2 cores)"
# ninja's [done/total] lines, one a step when not on a terminal.
ninja -C "$BUILD" -j"$(nproc)" xq xq-engine xq-coordinator xq-worker >&2

DEV="${DEV:-$BUILD/bin/xq-engine}"
EXTRA_BASE=()
if [ -z "${BASE:-}" ]; then
  BASE="$BUILD/bin/xq-engine"
  WEIGHTS="$BUILD/regress-base-weights.txt"
  "$BUILD/bin/xq-engine" weights export "$WEIGHTS"
  # Blank the piece-square tables and mobility: material stays, positional knowledge goes.
  python3 - "$WEIGHTS" <<'PY'
import re, sys
path = sys.argv[1]
lines = open(path).read().splitlines()
out = []
for line in lines:
    name = line.split()[0] if line.split() else ""
    if re.match(r"(Pst|Mobility)\.", name):
        parts = line.split()
        line = " ".join([parts[0]] + ["0" if re.fullmatch(r"-?\d+", p) else p for p in parts[1:]])
    out.append(line)
open(path, "w").write("\n".join(out) + "\n")
PY
  EXTRA_BASE=(--base-weights "$WEIGHTS")
fi

cd "$ROOT"
rm -rf "$DATA"
step "playing dev against base at $NODES nodes a move until the SPRT [$SPRT] decides"
exec "$BUILD/bin/xq" regress --base "$BASE" --dev "$DEV" "${EXTRA_BASE[@]}" \
  --each "nodes=$NODES" --sprt "$SPRT" --max-moves 150 --workers 1 --concurrency "$(nproc)" \
  --data "$DATA" --json "$DATA/result.json" "$@"
