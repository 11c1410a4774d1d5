#!/usr/bin/env bash
# Regenerates chess-balanced.epd: 8 random legal plies from the chess start position, kept when Debian's
# Stockfish scores the result within +-60 cp at 20000 nodes (see README.md).
# usage: data/openings/make-chess-openings.sh [BIN_DIR] [ENGINE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/bin}
engine=${2:-/usr/games/stockfish}
"$bin/xq" openings --game chess --engine "$engine" --count 4000 --plies 8 --nodes 20000 --max-score 60 \
  --seed 2026 --out "$here/chess-balanced.epd"
