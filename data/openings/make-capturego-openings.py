#!/usr/bin/env python3
"""Writes the Capture Go / Go opening books, one position text per line (games/capturego/position_text.h),
Black to move. No engine scores them: every pair plays each opening with both colours, which cancels an
imbalance within the pair.

  make-capturego-openings.py [capturego-9x9.txt]   60 Capture Go (target 1) openings, 9x9: two black and
                                                   two white stones on distinct random points of the
                                                   centre 5x5 (rows and columns 3..7)
  make-capturego-openings.py --go5 [go-5x5.txt]    Go (komi 0.5) openings, 5x5: one black and one white
                                                   stone on distinct points, every such position once up to
                                                   the board's eight symmetries, in a seeded random order"""
import random
import sys


def row_text(row):
    text, run = "", 0
    for cell in row:
        if cell == ".":
            run += 1
            continue
        text += (str(run) if run else "") + cell
        run = 0
    return text + (str(run) if run else "")


def board_text(board):
    return "/".join(row_text(row) for row in board)


def capture_9x9(out):
    random.seed(7)
    n = 9
    lines = set()
    while len(lines) < 60:
        board = [["."] * n for _ in range(n)]
        points = random.sample([(r, c) for r in range(2, 7) for c in range(2, 7)], 4)
        for i, (r, c) in enumerate(points):
            board[r][c] = "X" if i % 2 == 0 else "O"
        lines.add(board_text(board) + " b 0 0 0 capture:1 0")
    with open(out, "w") as f:
        f.write("# 60 Capture Go (target 1) openings, 9x9: two black and two white stones in the centre 5x5 "
                "(make-capturego-openings.py)\n")
        f.write("\n".join(sorted(lines)) + "\n")


def go_5x5(out):
    n = 5
    symmetries = [lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
                  lambda r, c: (n - 1 - c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
                  lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r)]
    points = [(r, c) for r in range(n) for c in range(n)]
    seen, lines = set(), []
    for black in points:
        for white in points:
            if black == white:
                continue
            key = min((s(*black), s(*white)) for s in symmetries)
            if key in seen:
                continue
            seen.add(key)
            board = [["."] * n for _ in range(n)]
            board[black[0]][black[1]] = "X"
            board[white[0]][white[1]] = "O"
            lines.append(board_text(board) + " b 0 0 0 go 0.5")
    with open(out, "w") as f:
        f.write("# %d Go (komi 0.5) openings, 5x5: one black and one white stone, every such position once up "
                "to symmetry, in a seeded random order (make-capturego-openings.py --go5)\n" % len(lines))
        f.write("\n".join(random.Random(5).sample(sorted(lines), len(lines))) + "\n")  # mixed, seeded


if len(sys.argv) > 1 and sys.argv[1] == "--go5":
    go_5x5(sys.argv[2] if len(sys.argv) > 2 else "go-5x5.txt")
else:
    capture_9x9(sys.argv[1] if len(sys.argv) > 1 else "capturego-9x9.txt")
