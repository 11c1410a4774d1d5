#!/usr/bin/env bash
# Closes the network loop on this machine: self-play data from the engine (`xq datagen`, scores and
# results), a network trained on it (`xq-tuner nnue`), then an SPRT of the engine with that network
# (EvalFile) against a base (`xq match`): the hand-written evaluation by default, or another network.
# Every figure lands in WORKDIR (JSON reports and logs) and a summary is printed at the end; the exit
# status is the match's (0 when it ran; the verdict is in the summary and in WORKDIR/match.json).
#
#   scripts/nnue-loop.sh [WORKDIR]
#
# Settings (environment), with the values that trained the shipped network (engine/nets/, docs/nnue.md):
#   GAMES (datagen games, 2000; the shipped network used 57,000), NODES (per move, 5000), SAMPLE_RATE (1.0),
#   DATA (a file or directory of `FEN ; result ; score` data: skips datagen; it is added to with MORE=1),
#   HIDDEN (128), EPOCHS (4), LAMBDA (0.8: the target is 0.8 search score + 0.2 game result),
#   VALIDATION (0.03, the last positions: whole games), THREADS (1; see tuner/README.md),
#   BASE_NET (a network for the base side; default: the hand-written evaluation),
#   MATCH_GAMES (upper bound of the SPRT, 400), EACH (the clock or nodes, "tc=10+0.1"),
#   SPRT ("elo0=0 elo1=10"), CONCURRENCY (nproc), OPENINGS (data/openings/xq-balanced.epd).
# XQ, XQ_TUNER and ENGINE override the binaries (default: BUILD/bin/xq, xq-tuner, xq-engine).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
BIN="$BUILD/bin"
WORK="${1:-$BUILD/nnue-loop}"
GAMES="${GAMES:-2000}"
NODES="${NODES:-5000}"
SAMPLE_RATE="${SAMPLE_RATE:-1.0}"
DATA="${DATA:-}"
MORE="${MORE:-0}"
HIDDEN="${HIDDEN:-128}"
EPOCHS="${EPOCHS:-4}"
LAMBDA="${LAMBDA:-0.8}"
VALIDATION="${VALIDATION:-0.03}"
THREADS="${THREADS:-1}"
BASE_NET="${BASE_NET:-}"
MATCH_GAMES="${MATCH_GAMES:-400}"
EACH="${EACH:-tc=10+0.1}"
SPRT="${SPRT:-elo0=0 elo1=10}"
CONCURRENCY="${CONCURRENCY:-$(nproc)}"
OPENINGS="${OPENINGS:-$ROOT/data/openings/xq-balanced.epd}"

XQ="${XQ:-$BIN/xq}"
XQ_TUNER="${XQ_TUNER:-$BIN/xq-tuner}"
ENGINE="${ENGINE:-$BIN/xq-engine}"
for b in "$XQ" "$XQ_TUNER" "$ENGINE"; do
  if [ ! -x "$b" ]; then
    echo "nnue-loop: $b is missing; build first: cmake -S $ROOT -B $BUILD -G Ninja && ninja -C $BUILD xq xq-tuner xq-engine" >&2
    exit 2
  fi
done
if [ -n "$BASE_NET" ] && [ ! -f "$BASE_NET" ]; then
  echo "nnue-loop: BASE_NET=$BASE_NET is not a file" >&2
  exit 2
fi
mkdir -p "$WORK"
say() { echo "[$(date -u +%H:%M:%S)] nnue-loop: $*" >&2; }

# 1. Self-play data: one gzip slice per run in WORK/data (a new slice each run with MORE=1).
if [ -z "$DATA" ] || [ "$MORE" = 1 ]; then
  DATA="${DATA:-$WORK/data}"
  mkdir -p "$DATA"
  n=$(find "$DATA" -maxdepth 1 -name 'slice-*.txt.gz' | wc -l)
  slice=$(printf '%s/slice-%04d' "$DATA" "$n")
  say "datagen: $GAMES games at $NODES nodes, sample rate $SAMPLE_RATE -> $slice.txt.gz"
  "$XQ" datagen --engine "$ENGINE" --games "$GAMES" --nodes "$NODES" --sample-rate "$SAMPLE_RATE" \
    --first-game $((n * GAMES)) --concurrency "$CONCURRENCY" --out "$slice.tmp.gz" \
    --json >"$slice.json" 2>"$slice.log"
  mv "$slice.tmp.gz" "$slice.txt.gz"
  tail -n 1 "$slice.log" >&2
fi

# 2. The network.
say "training H=$HIDDEN, $EPOCHS epochs, lambda $LAMBDA on $DATA"
"$XQ_TUNER" nnue "$DATA" --hidden "$HIDDEN" --epochs "$EPOCHS" --lambda "$LAMBDA" --threads "$THREADS" \
  --validation "$VALIDATION" --validation-split tail --out "$WORK/nets" --json \
  >"$WORK/train.json" 2>"$WORK/train.log"
tail -n 1 "$WORK/train.log" >&2
NET="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["network"])' "$WORK/train.json")"

# 3. The SPRT: the new network against the base.
if [ -n "$BASE_NET" ]; then
  BASE=(--engine name=base "cmd=$ENGINE" "option.EvalFile=$BASE_NET")
else
  BASE=(--engine name=hce "cmd=$ENGINE" "option.Use NNUE=false")
fi
read -r -a SPRT_ARGS <<<"$SPRT"
read -r -a EACH_ARGS <<<"$EACH"
say "match: $(basename "$NET") vs ${BASE_NET:-the hand-written evaluation}, $EACH, up to $MATCH_GAMES games, SPRT $SPRT"
rm -f "$WORK/match.pgn"
set +e
"$XQ" match --engine name=net "cmd=$ENGINE" "option.EvalFile=$NET" "${BASE[@]}" \
  --each "${EACH_ARGS[@]}" option.Hash=16 --games "$MATCH_GAMES" --concurrency "$CONCURRENCY" \
  --openings "file=$OPENINGS" order=random seed=7 --resign score=1000 moves=4 \
  --sprt "${SPRT_ARGS[@]}" --pgnout "$WORK/match.pgn" --json "$WORK/match.json" \
  >"$WORK/match.out" 2>"$WORK/match.log"
MATCH_RC=$?
set -e
cat "$WORK/match.out" >&2

# 4. The figures in one place.
python3 - "$WORK" "$DATA" <<'PY'
import glob, json, os, sys
w, data = sys.argv[1], sys.argv[2]
def load(p):
    return json.load(open(p)) if os.path.exists(p) else None
print("== nnue-loop summary (%s) ==" % w)
slices = [load(p) for p in sorted(glob.glob(os.path.join(data, "slice-*.json")))] if os.path.isdir(data) else []
slices = [s for s in slices if s]
if slices:
    print("datagen: %d slices, %d games, %d positions, %.0f s" % (
        len(slices), sum(s["games"] for s in slices), sum(s["positions"] for s in slices),
        sum(s["seconds"] for s in slices)))
t = load(os.path.join(w, "train.json"))
if t:
    print("network: %s (%d bytes), H=%d, %d positions (%d validation), %d epochs, lambda %.2f, %.0f positions/s" % (
        t["network"], t["bytes"], t["hidden"], t["positions"], t["validation_positions"], t["epochs"], t["lambda"],
        t["positions_per_second"]))
    print("loss: validation %.6f at the start -> %.6f (float), %.6f (quantised)" % (
        t["start_validation_loss"], t["final_validation_loss_float"], t["final_validation_loss_quantised"]))
    for e in t["loss_curve"]:
        print("  epoch %3d: train %.6f validation %.6f" % (e["epoch"], e["train_loss"], e["validation_loss"]))
m = load(os.path.join(w, "match.json"))
if m:
    s = m.get("sprt") or {}
    print("match (network vs base): %d games, W/D/L %s, pentanomial %s, Elo %.1f +- %.1f, LLR %.2f, SPRT [%s, %s] %s: %s" % (
        m.get("games", 0), m.get("wdl"), m.get("penta"), m.get("elo", 0), m.get("elo_error", 0), m.get("llr", 0),
        s.get("elo0"), s.get("elo1"), s.get("model"), s.get("decision") or "no verdict"))
PY
exit $MATCH_RC
