#!/usr/bin/env bash
# Regenerates xq-balanced.epd: 8 random legal plies from the start, kept when xq-engine scores the
# result within +-60 cp at 20000 nodes (see README.md). usage: data/openings/make-openings.sh [BIN_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/bin}
"$bin/xq" openings --engine "$bin/xq-engine" --count 4000 --plies 8 --nodes 20000 --max-score 60 \
  --seed 2026 --out "$here/xq-balanced.epd"
