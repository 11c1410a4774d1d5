#!/usr/bin/env bash
# Measures what one search feature or one group of evaluation weights is worth: a self-play match of the
# engine as built against the same binary with that feature switched off (UCI option Disable) or with
# that group's weights set to 0 0 (UCI option EvalFile). The Elo printed is engine A's, so a positive
# value means the feature helps.
#
#   scripts/feature-values.sh NAME [GAMES] [NODES]
#
# NAME is a Disable switch (nullmove lmr futility reversefutility checkextension aspiration seepruning
# killers history conthistory matedistance qchecks) or a weights group (mobility kingsafety cannon rookfile
# knightleg pawnconnected tempo). GAMES defaults to 400 (0: only write and check the weights file), NODES
# (per move, both engines) to 5000.
# Environment: BUILD (default build), ENGINE (default $BUILD/bin/xq-engine; copy it elsewhere first if
# others rebuild it meanwhile), OUT (directory for weights, JSON and logs; default $BUILD/feature-values),
# OPENINGS (default data/openings/xq-balanced.epd), SEED (default 7), CONCURRENCY (default 1).
# Prints one markdown table row on the last line of stdout.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
ENGINE="${ENGINE:-$BUILD/bin/xq-engine}"
XQ="${XQ:-$BUILD/bin/xq}"
OUT="${OUT:-$BUILD/feature-values}"
OPENINGS="${OPENINGS:-$ROOT/data/openings/xq-balanced.epd}"
SEED="${SEED:-7}"
CONCURRENCY="${CONCURRENCY:-1}"

NAME="${1:-}"
GAMES="${2:-400}"
NODES="${3:-5000}"
if [ -z "$NAME" ]; then
  echo "usage: $0 NAME [GAMES] [NODES]" >&2
  exit 2
fi
for tool in "$ENGINE" "$XQ"; do
  [ -x "$tool" ] || { echo "error: $tool is not an executable (build it, or set ENGINE / XQ / BUILD)" >&2; exit 2; }
done
mkdir -p "$OUT"
# The weights the engine under test has built in (not the checkout's file, which may be newer than ENGINE).
DEFAULT_WEIGHTS="$OUT/default-export.xqw"
"$ENGINE" weights export "$DEFAULT_WEIGHTS" >/dev/null

# Weight names (extended regular expressions) of each evaluation group.
case "$NAME" in
  mobility) GROUP='^Mobility\.' ;;
  kingsafety) GROUP='^(PalaceAttacker\.|PalaceSquareAttacked|AdvisorMissing|BishopMissing)' ;;
  cannon) GROUP='^(CannonHollow|CannonScreen)' ;;
  rookfile) GROUP='^(RookOpenFile|RookSemiOpenFile)' ;;
  knightleg) GROUP='^KnightLegBlocked' ;;
  pawnconnected) GROUP='^PawnConnected' ;;
  tempo) GROUP='^Tempo' ;;
  nullmove | lmr | futility | reversefutility | checkextension | aspiration | seepruning | killers | \
    history | conthistory | matedistance | qchecks) GROUP='' ;;
  *)
    echo "error: unknown feature or weights group '$NAME'" >&2
    exit 2
    ;;
esac

# Openings are only 8 plies deep; these later positions show terms the openings lack (connected pawns).
EXTRA_POSITIONS=("startpos moves c3c4 a9a8 c4c5 a8a9 c5d5 a9a8 e3e4 a8a9 e4e5")

# One engine process: print its eval of every opening (each line is a FEN, maybe with moves) and extra position.
eval_openings() {  # $1: weights file or empty
  {
    echo uci
    echo "setoption name Use NNUE value false"  # the hand-written evaluation, also in a build with a network
    [ -n "$1" ] && echo "setoption name EvalFile value $1"
    echo isready
    grep -v '^#' "$OPENINGS" | grep -v '^[[:space:]]*$' | while IFS= read -r line; do
      echo "position fen $line"
      echo eval
    done
    for p in "${EXTRA_POSITIONS[@]}"; do
      echo "position $p"
      echo eval
    done
    echo quit
  } | "$ENGINE"
}

if [ -n "$GROUP" ]; then
  WEIGHTS="$OUT/no-$NAME.xqw"
  awk -v re="$GROUP" '$0 !~ /^#/ && NF == 3 && $1 ~ re { $2 = 0; $3 = 0; n++ } { print } END { exit n ? 0 : 1 }' \
    "$DEFAULT_WEIGHTS" >"$WEIGHTS" || { echo "error: no weight of group $NAME in $DEFAULT_WEIGHTS" >&2; exit 1; }
  zeroed=$(diff "$DEFAULT_WEIGHTS" "$WEIGHTS" | grep -c '^>' || true)
  # The engine must accept the file, and the file must change the evaluation of some openings.
  base_eval="$(eval_openings "")"
  test_eval="$(eval_openings "$WEIGHTS")"
  if ! grep -q "EvalFile: loaded" <<<"$test_eval"; then
    echo "error: the engine did not load $WEIGHTS:" >&2
    grep 'info string' <<<"$test_eval" >&2 || true
    exit 1
  fi
  # Per opening, pair the two reports line by line: how many openings changed, and which report terms.
  changes="$(paste -d'|' <(grep -E '^[A-Z][a-z ]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+$|^Final evaluation' <<<"$base_eval") \
    <(grep -E '^[A-Z][a-z ]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+$|^Final evaluation' <<<"$test_eval") |
    awk -F'|' '$1 != $2 { term = $1; sub(/:? +-?[0-9].*$/, "", term); n[term]++ } END { for (t in n) printf "%s: %d; ", t, n[t] }')"
  changed=$(grep -o 'Final evaluation: [0-9]*' <<<"$changes" | grep -o '[0-9]*$' || echo 0)
  echo "$NAME: $zeroed weights zeroed in $WEIGHTS; positions whose report line changed: $changes" >&2
  if [ "$changed" -eq 0 ]; then
    echo "error: zeroing $NAME changes no evaluation of the test positions; is the group right?" >&2
    exit 1
  fi
  B_NAME="no-$NAME"
  B_OPTION="option.EvalFile=$WEIGHTS"
  A_OPTION="option.Use NNUE=false"  # weights are measured against the hand-written evaluation, not a network
else
  B_NAME="no-$NAME"
  B_OPTION="option.Disable=$NAME"
  A_OPTION="option.Disable=none"
fi

[ "$GAMES" = 0 ] && exit 0  # GAMES 0: only write and check the weights file

JSON="$OUT/$NAME.json"
CMD=("$XQ" match --engine name=base "cmd=$ENGINE" "$A_OPTION" --engine "name=$B_NAME" "cmd=$ENGINE" "$B_OPTION"
  --each "nodes=$NODES" --games "$GAMES" --concurrency "$CONCURRENCY"
  --openings "file=$OPENINGS" order=random "seed=$SEED" --json "$JSON")
echo "${CMD[*]}" >&2
start=$(date +%s)
"${CMD[@]}" >"$OUT/$NAME.log" 2>&1 || { echo "error: the match failed; see $OUT/$NAME.log" >&2; tail -5 "$OUT/$NAME.log" >&2; exit 1; }
seconds=$(($(date +%s) - start))

python3 - "$JSON" "$NAME" "$NODES" "$seconds" "${CMD[*]}" <<'PY'
import json, sys
path, name, nodes, seconds, cmd = sys.argv[1:6]
r = json.load(open(path))
w, d, l = r["wdl"]
fails = "; ".join(f"{eng}: {f['crashes']} crashes, {f['time_losses']} time losses, "
                  f"{f['illegal_moves']} illegal moves, {f['stalls']} stalls"
                  for eng, f in zip(r["engines"], r["failures"]))
print(f"{name}: {r['games']} games, W-L-D {w}-{l}-{d}, Elo {r['elo']:+.1f} +- {r['elo_error']:.1f}, "
      f"{int(seconds)} s; {fails}", file=sys.stderr)
print(f"| {name} | {r['games']} | {w}-{l}-{d} | {r['elo']:+.1f} ± {r['elo_error']:.1f} | {nodes} | `{cmd}` |")
PY
