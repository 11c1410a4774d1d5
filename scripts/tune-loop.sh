#!/usr/bin/env bash
# Closes the tuning loop on this machine: self-play data from the default engine (`xq datagen`), a fit
# of the evaluation weights (`xq-tuner`), then an SPRT of the tuned engine (EvalFile=tuned weights)
# against the default one (`xq match`). Every figure lands in WORKDIR (JSON reports and logs) and a
# summary is printed at the end.
#
#   scripts/tune-loop.sh [WORKDIR]
#
# Settings (environment): BUILD (build directory, default build), GAMES and NODES (datagen games and
# nodes per move), RANDOM_PLIES, SAMPLE_RATE, EPOCHS, OPTIMIZER, LR, BATCH, MATCH_GAMES (upper bound of
# the SPRT), MATCH_NODES, SPRT ("elo0=.. elo1=.."), CONCURRENCY. DATA=file skips datagen and tunes on it.
# XQ, XQ_TUNER and ENGINE override the binaries (default: BUILD/bin/xq, xq-tuner, xq-engine).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
BIN="$BUILD/bin"
WORK="${1:-$BUILD/tune-loop}"
GAMES="${GAMES:-6000}"
NODES="${NODES:-1000}"
RANDOM_PLIES="${RANDOM_PLIES:-8}"
SAMPLE_RATE="${SAMPLE_RATE:-1.0}"
EPOCHS="${EPOCHS:-200}"
OPTIMIZER="${OPTIMIZER:-adam}"
LR="${LR:-1}"
BATCH="${BATCH:-4096}"
MATCH_GAMES="${MATCH_GAMES:-3000}"
MATCH_NODES="${MATCH_NODES:-$NODES}"
SPRT="${SPRT:-elo0=0 elo1=15}"
CONCURRENCY="${CONCURRENCY:-$(nproc)}"

XQ="${XQ:-$BIN/xq}"
XQ_TUNER="${XQ_TUNER:-$BIN/xq-tuner}"
ENGINE="${ENGINE:-$BIN/xq-engine}"
for b in "$XQ" "$XQ_TUNER" "$ENGINE"; do
  if [ ! -x "$b" ]; then
    echo "tune-loop: $b is missing; build first: cmake -S $ROOT -B $BUILD -G Ninja && ninja -C $BUILD xq xq-tuner xq-engine" >&2
    exit 2
  fi
done
mkdir -p "$WORK"
say() { echo "[$(date -u +%H:%M:%S)] tune-loop: $*" >&2; }

# 1. Self-play data with the default weights.
DATA="${DATA:-}"
if [ -z "$DATA" ]; then
  DATA="$WORK/data.txt.gz"
  say "datagen: $GAMES games at $NODES nodes, $RANDOM_PLIES random plies, sample rate $SAMPLE_RATE"
  "$XQ" datagen --engine "$ENGINE" --games "$GAMES" --nodes "$NODES" --out "$DATA" \
    --random-plies "$RANDOM_PLIES" --sample-rate "$SAMPLE_RATE" --concurrency "$CONCURRENCY" --seed 1 \
    --json >"$WORK/datagen.json" 2>"$WORK/datagen.log"
  tail -n 1 "$WORK/datagen.log" >&2
fi
"$XQ" data stats "$DATA" --json >"$WORK/data-stats.json"

# 2. Fit the weights.
say "tuning on $DATA"
"$XQ_TUNER" --data "$DATA" --out "$WORK/tuned.xqw" --json "$WORK/tune.json" --epochs "$EPOCHS" \
  --optimizer "$OPTIMIZER" --lr "$LR" --batch "$BATCH" --emit-defaults "$WORK/weights_default_tuned.cpp" \
  >"$WORK/tune.out" 2>"$WORK/tune.log"
cat "$WORK/tune.out" >&2

# 3. Balanced openings scored by the default engine, then the SPRT: tuned against default.
if [ ! -s "$WORK/openings.epd" ]; then
  say "openings"
  "$XQ" openings --engine "$ENGINE" --count 1000 --plies 8 --nodes 2000 --max-score 80 --seed 7 \
    --out "$WORK/openings.epd" 2>"$WORK/openings.log"
fi
# Both sides evaluate by hand: the default side turns the engine's network off (a weights file as EvalFile
# does that for the tuned side).
say "match: tuned vs default, nodes=$MATCH_NODES, up to $MATCH_GAMES games, SPRT $SPRT"
read -r -a SPRT_ARGS <<<"$SPRT"
rm -f "$WORK/match.pgn"
set +e
"$XQ" match \
  --engine name=tuned "cmd=$ENGINE" "option.EvalFile=$WORK/tuned.xqw" \
  --engine name=default "cmd=$ENGINE" "option.Use NNUE=false" \
  --each "nodes=$MATCH_NODES" --games "$MATCH_GAMES" --concurrency "$CONCURRENCY" \
  --openings "file=$WORK/openings.epd" order=random seed=3 \
  --sprt "${SPRT_ARGS[@]}" --pgnout "$WORK/match.pgn" --json "$WORK/match.json" \
  >"$WORK/match.out" 2>"$WORK/match.log"
MATCH_RC=$?
set -e
cat "$WORK/match.out" >&2

# 4. The figures in one place.
python3 - "$WORK" <<'PY'
import json, os, sys
w = sys.argv[1]
def load(name):
    p = os.path.join(w, name)
    return json.load(open(p)) if os.path.exists(p) else None
d, s, t, m = load("datagen.json"), load("data-stats.json"), load("tune.json"), load("match.json")
print("== tune-loop summary (%s) ==" % w)
if d:
    print("datagen: %d games (red %d, draws %d, black %d), %d plies, %d positions kept of %d sampled "
          "(in check %d, noisy %d, mate score %d, duplicate %d), %.0f s" % (
          d["games"], d["red_wins"], d["draws"], d["black_wins"], d["plies"], d["positions"], d["sampled"],
          d["rejected_in_check"], d["rejected_noisy"], d["rejected_mate_score"], d["rejected_duplicate"],
          d["seconds"]))
if s:
    print("data: %d positions (red wins %d, draws %d, black wins %d)" % (
          s["positions"], s["red_wins"], s["draws"], s["black_wins"]))
if t:
    print("tuner: K=%.6f, %d train / %d validation positions, %d epochs (best %d%s), %d weights changed" % (
          t["k"], t["train_positions"], t["validation_positions"], t["epochs"], t["best_epoch"],
          ", stopped early" if t["stopped_early"] else "", t["weights_changed"]))
    print("loss: train %.6f -> %.6f, validation %.6f -> %.6f (rounded weights)" % (
          t["initial_train_loss"], t["final_train_loss"], t["initial_validation_loss"], t["final_validation_loss"]))
    curve = list(zip(t["train_loss"], t["validation_loss"]))
    step = max(1, len(curve) // 10)
    for i in list(range(0, len(curve), step)) + ([len(curve) - 1] if (len(curve) - 1) % step else []):
        print("  epoch %3d: train %.6f validation %.6f" % (i + 1, curve[i][0], curve[i][1]))
if m:
    print("match (tuned vs default): %d games, W/D/L %s, pentanomial %s, Elo %.1f +- %.1f, LLR %s, SPRT %s" % (
          m.get("games", 0), m.get("wdl"), m.get("penta"), m.get("elo", 0), m.get("elo_error", 0), m.get("llr"),
          json.dumps(m.get("sprt"))))
PY
exit $MATCH_RC
