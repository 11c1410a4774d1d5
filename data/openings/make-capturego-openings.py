#!/usr/bin/env python3
"""Writes capturego-9x9.txt: 60 Capture Go (target 1) openings for xq match --game capturego, one position
text per line (games/capturego/position_text.h): two black and two white stones on distinct random points
of the centre 5x5 (rows and columns 3..7), Black to move. No engine scores them: every pair plays each
opening with both colours, which cancels an imbalance within the pair."""
import random
import sys

random.seed(7)
N = 9
lines = set()
while len(lines) < 60:
    board = [["."] * N for _ in range(N)]
    points = random.sample([(r, c) for r in range(2, 7) for c in range(2, 7)], 4)
    for i, (r, c) in enumerate(points):
        board[r][c] = "X" if i % 2 == 0 else "O"
    rows = []
    for row in board:
        text, run = "", 0
        for cell in row:
            if cell == ".":
                run += 1
                continue
            text += (str(run) if run else "") + cell
            run = 0
        rows.append(text + (str(run) if run else ""))
    lines.add("/".join(rows) + " b 0 0 0 capture:1 0")
out = sys.argv[1] if len(sys.argv) > 1 else "capturego-9x9.txt"
with open(out, "w") as f:
    f.write("# 60 Capture Go (target 1) openings, 9x9: two black and two white stones in the centre 5x5 "
            "(make-capturego-openings.py)\n")
    f.write("\n".join(sorted(lines)) + "\n")
