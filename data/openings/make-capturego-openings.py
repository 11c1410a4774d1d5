#!/usr/bin/env python3
"""Writes the Capture Go / Go opening books, one position text per line (games/capturego/position_text.h),
Black to move. No engine scores them: every pair plays each opening with both colours, which cancels an
imbalance within the pair.

  make-capturego-openings.py [capturego-9x9.txt]   60 Capture Go (target 1) openings, 9x9: two black and
                                                   two white stones on distinct random points of the
                                                   centre 5x5 (rows and columns 3..7)
  make-capturego-openings.py --go5 [go-5x5.txt]    Go (komi 0.5) openings, 5x5: one black and one white
                                                   stone on distinct points, every such position once up to
                                                   the board's eight symmetries, in a seeded random order
  make-capturego-openings.py --solved6 XQ_GO [capturego-6x6-solved.txt]
                                                   Capture Go (target 1) openings, 6x6, whose result xq-go's
                                                   solver proves: the crosscut plus one black and one white
                                                   stone anywhere, no group in atari, once up to
                                                   symmetry; each line follows a comment with the proved
                                                   result and winning move (a ladder's book: which versions
                                                   convert a proved win)"""
import json
import random
import subprocess
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


def symmetries(n):
    return [lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
            lambda r, c: (n - 1 - c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
            lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r)]


def least_liberties(board):
    n, seen, least = len(board), set(), 99
    for r in range(n):
        for c in range(n):
            if board[r][c] == "." or (r, c) in seen:
                continue
            group, liberties, todo = {(r, c)}, set(), [(r, c)]
            while todo:
                y, x = todo.pop()
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if not (0 <= ny < n and 0 <= nx < n):
                        continue
                    if board[ny][nx] == ".":
                        liberties.add((ny, nx))
                    elif board[ny][nx] == board[r][c] and (ny, nx) not in group:
                        group.add((ny, nx))
                        todo.append((ny, nx))
            seen |= group
            least = min(least, len(liberties))
    return least


def solved_6x6(xq_go, out):
    n = 6
    crosscut = [["."] * n for _ in range(n)]
    crosscut[3][2] = crosscut[2][3] = "X"  # C3 and D4 (text rows run from the top, row 6)
    crosscut[2][2] = crosscut[3][3] = "O"  # C4 and D3
    points = [(r, c) for r in range(n) for c in range(n) if crosscut[r][c] == "."]
    seen, entries = set(), []
    for black in points:
        for white in points:
            if black == white:
                continue
            board = [row[:] for row in crosscut]
            board[black[0]][black[1]] = "X"
            board[white[0]][white[1]] = "O"
            if least_liberties(board) < 2:
                continue
            key = min(board_text([[board[s(r, c)[0]][s(r, c)[1]] for c in range(n)] for r in range(n)])
                      for s in symmetries(n))
            if key in seen:
                continue
            seen.add(key)
            text = board_text(board) + " b 0 0 0 capture:1 0"
            run = subprocess.run([xq_go, "solve", "--size", "6", "--start", text, "--json", "--quiet", "--time",
                                  "10"], capture_output=True, text=True, check=True)
            verdict = json.loads(run.stdout)
            if verdict["solved"]:
                entries.append((text, verdict))
    wins = sum(1 for _, v in entries if v["result"] == "black")
    losses = sum(1 for _, v in entries if v["result"] == "white")
    with open(out, "w") as f:
        f.write("# %d Capture Go (target 1) openings, 6x6, Black to move, each proved by xq-go's solver: the "
                "crosscut plus one black and one white stone anywhere, no group in atari, once up to "
                "symmetry; %d are wins for Black, %d for White, %d a draw (make-capturego-openings.py --solved6)\n"
                % (len(entries), wins, losses, len(entries) - wins - losses))
        for text, v in entries:
            verdict = ("black wins with %s" % v["move"] if v["result"] == "black" else
                       "white wins" if v["result"] == "white" else "a draw")
            f.write("# %s (%d nodes)\n%s\n" % (verdict, v["nodes"], text))


if len(sys.argv) > 2 and sys.argv[1] == "--solved6":
    solved_6x6(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "capturego-6x6-solved.txt")
elif len(sys.argv) > 1 and sys.argv[1] == "--go5":
    go_5x5(sys.argv[2] if len(sys.argv) > 2 else "go-5x5.txt")
else:
    capture_9x9(sys.argv[1] if len(sys.argv) > 1 else "capturego-9x9.txt")
