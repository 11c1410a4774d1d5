#!/usr/bin/env python3
# Writes repetition_rules.txt (run from this directory: python3 make_repetition_rules.py repetition_rules.txt).
# Each entry: (pattern, FEN, lead-in moves, one cycle, AXF result, Chinese result); the cycle is played twice.
# Some entries are derived (mirrored left-right, or colours swapped) from an original, and say so.

import sys
W,B,D='1-0','0-1','1/2-1/2'
spec = [
# ---- Chases made by any piece of the mover (both rule sets) ----
("chase uncovered behind the moved piece (a horse steps off a rook's file, then off a rook's rank)", "3ak4/9/9/9/2n3R2/9/2N6/9/9/2R2K3 w - - 0 1", "", "c3d5 d9e8 d5c3 e8d9", B, B),
("chase through a cannon screen the moved piece adds", "5k3/9/9/9/C1N1n4/9/9/9/9/3KC4 w - - 0 1", "", "c5e4 f9f8 e4c5 f8f9", B, B),
("chase through a cannon screen the moved piece takes away", "5k3/9/9/9/CPN1n4/9/9/9/4A4/3KC4 w - - 0 1", "", "c5e4 f9f8 e4c5 f8f9", B, B),
("chase by a horse whose leg the moved piece clears", "4k4/9/9/9/4c4/2NR2N2/9/9/9/3K5 w - - 0 1", "", "d4f4 e9e8 f4d4 e8e9", B, B),
("chase by an elephant whose eye the moved piece clears", "4k4/9/9/9/9/9/9/4c4/3R5/2B1K1B2 w - - 0 1", "", "d1f1 e9e8 f1d1 e8e9", B, B),
("chase of a rook pinned by a horse leg, by rooks of its own kind (it cannot take back)", "4k4/R2N1rN2/9/9/9/9/p8/5R3/9/3K5 w - - 0 1", "", "d8f7 a3b3 f7d8 b3a3", B, B),
# ---- Chinese rules: forbidden ----
("perpetual check by a rook", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a9", "e9e8 a9a8 e8e9 a8a9", B, B),
("perpetual check by a horse", "4k4/2N6/9/9/9/9/9/9/9/5K3 b - - 0 1", "", "e9d9 c8e7 d9e9 e7c8", B, B),
("perpetual check by a pawn (a pawn may attack every move, never check)", "5k3/R3P4/9/9/9/9/9/9/9/3K5 w - - 0 1", "", "e8f8 f9e9 f8e8 e9f9", B, B),
("perpetual mate threat: a rook threatens mate on rank 9 from two files", "4k4/R8/9/9/1r7/9/9/9/3K5/1R7 w - - 0 1", "", "b0h0 b5h5 h0b0 h5b5", D, B),
("perpetual mate threat, the king on the d-file", "3k5/8R/9/9/9/2c6/9/9/4K4/2R6 w - - 0 1", "", "c0g0 c4g4 g0c0 g4c4", D, B),
("one piece chasing two in turn (rook and horse, a cannon and a horse)", "4k4/9/1n5c1/9/9/9/9/1R7/9/3K5 w - - 0 1", "", "b2h2 e9e8 h2b2 e8e9", D, B),
("one piece chasing two crossed pawns in turn", "4k4/9/9/9/9/1p5p1/9/1R7/9/3K5 w - - 0 1", "", "b2h2 e9e8 h2b2 e8e9", D, B),
("no chase: a rook attacking two uncrossed pawns in turn", "4k4/9/9/2p3p2/9/9/9/2R6/9/3K5 w - - 0 1", "", "c2g2 e9e8 g2c2 e8e9", D, D),
("one check one chase by a rook", "4k4/9/c5R2/9/9/9/9/9/9/3K5 w - - 0 1", "", "g7g9 e9e8 g9g7 e8e9", D, B),
("one check one chase by a horse", "4k4/9/9/1N7/9/2c6/9/9/9/5K3 w - - 0 1", "", "b6c8 e9d9 c8b6 d9e9", D, B),
("perpetual threat to win material by a discovered check (cannon before a rook)", "r3k4/9/9/c1P6/2P1C4/9/9/9/4R4/3K5 w - - 0 1", "", "e5e6 a6a5 e6e5 a5a6", D, B),
("perpetual mate threat, a horse blocking the files in turn", "5k3/R8/9/9/9/9/1n7/9/9/1R2K4 w - - 0 1", "", "b0c0 b3c5 c0b0 c5b3", D, B),
("no chase: a rook attacking two uncrossed pawns from one rank", "5k3/4a4/9/p3p4/9/9/9/R8/9/3K5 w - - 0 1", "", "a2e2 e8d9 e2a2 d9e8", D, D),
("no chase: a horse attacking two uncrossed pawns in turn", "4k4/9/9/p8/6p2/4N4/9/9/9/3K5 w - - 0 1", "", "e4c5 e9e8 c5e4 e8e9", D, D),
("one check one mate threat: a horse checks, a rook threatens mate", "5k3/R5N2/9/9/2n6/9/9/9/9/2RK5 w - - 0 1", "", "g8e7 f9e9 c0b0 c5b3 e7g8 e9f9 b0c0 b3c5", D, B),
("one mate threat one chase: a rook threatens mate, a horse chases two cannons", "5k3/R8/9/9/5c3/6N2/1n6c/9/9/1R1K5 w - - 0 1", "", "g4h6 f9e9 b0c0 b3c5 h6g4 e9f9 c0b0 c5b3", D, B),
# ---- Chinese rules: allowed ----
("check answered by check: both cannons check through the rook in turn, a rook behind", "9/4c4/5k3/5r3/9/9/4C4/9/4K4/5R3 w - - 0 1", "", "e3f3 f6e6 f3e3 e6f6", D, D),
("check answered by check: black checks every move, red answers one check in two with a check", "9/4c4/5k3/5r3/9/9/4C4/9/4K4/9 w - - 0 1", "", "e3f3 f6e6 f3e3 e6f6", W, D),
("perpetual blocking: a rook keeps closing the file a rook would use", "4k4/9/9/9/1r7/9/9/9/3K5/1R7 w - - 0 1", "", "b0h0 b5h5 h0b0 h5b5", D, D),
("perpetual following of a protected cannon", "4k4/9/9/9/c7r/9/9/R8/9/3K5 b - - 0 1", "", "a5b5 a2b2 b5a5 b2a2", D, D),
("perpetual offering: a rook offers itself for exchange", "4k4/9/2r6/9/9/9/9/2R6/9/5K3 b - - 0 1", "", "c7d7 c2d2 d7c7 d2c2", D, D),
("one attack one idle by a rook", "4k4/6R2/c8/9/9/9/9/9/9/5K3 w - - 0 1", "", "g8g7 e9d9 g7g8 d9e9", D, D),
("one attack one idle by a horse", "4k4/N8/9/9/9/2c6/9/9/9/5K3 w - - 0 1", "", "a8b6 e9d9 b6a8 d9e9", D, D),
("one attack one idle along a rank", "4k4/9/9/9/9/9/9/9/8n/R4K3 w - - 0 1", "", "a0a1 e9d9 a1a0 d9e9", D, D),
("the king attacks a piece every move", "4k4/9/9/4p4/9/9/9/9/3n5/3cK4 w - - 0 1", "", "e0e1 e9d9 e1e0 d9e9", D, D),
("a pawn attacks a piece every move", "4k4/9/3nc4/3P5/9/9/9/9/9/5K3 w - - 0 1", "", "d6e6 e9d9 e6d6 d9e9", D, D),
("two attacks answered by one: a horse chases a rook that attacks a cannon as it escapes", "4k4/9/5n3/2c6/6R2/9/9/9/9/3K5 w - - 0 1", "", "g5g6 f7h8 g6g5 h8f7", W, D),
("attacking the chaser of a trapped pawn that cannot be protected", "4k4/9/9/1n7/9/C8/9/N8/9/p2K5 w - - 0 1", "", "a4a5 b6c4 a5a4 c4b6", W, D),
]
FILES = "abcdefghi"
def expand(rank):
    out = ""
    for ch in rank: out += "." * int(ch) if ch.isdigit() else ch
    return out
def compress(row):
    out, n = "", 0
    for ch in row:
        if ch == ".": n += 1
        else:
            if n: out += str(n); n = 0
            out += ch
    return out + (str(n) if n else "")
def mirror(fen, moves, result):
    parts = fen.split()
    parts[0] = "/".join(compress(expand(r)[::-1]) for r in parts[0].split("/"))
    mm = " ".join("".join(FILES[8 - FILES.index(c)] if c in FILES else c for c in m) for m in moves.split())
    return " ".join(parts), mm, result
def flip(fen, moves, result):
    parts = fen.split()
    ranks = [expand(r)[::-1].swapcase() for r in parts[0].split("/")][::-1]
    parts[0] = "/".join(compress(r) for r in ranks)
    parts[1] = "b" if parts[1] == "w" else "w"
    def sq(f, r): return FILES[8 - FILES.index(f)] + str(9 - int(r))
    mm = " ".join(sq(m[0], m[1]) + sq(m[2], m[3]) for m in moves.split())
    res = {W: B, B: W, D: D}[result]
    return " ".join(parts), mm, res
derived = [
  # (pattern index by its text prefix, transform, label)
  ("one check one mate threat", mirror, "mirrored"), ("one check one mate threat", flip, "colours swapped"),
  ("one check one chase by a rook", flip, "colours swapped"),
  ("perpetual threat to win material", mirror, "mirrored"), ("perpetual threat to win material", flip, "colours swapped"),
  ("one mate threat one chase", flip, "colours swapped"), ("one mate threat one chase", mirror, "mirrored"),
  ("check answered by check: black checks", mirror, "mirrored"), ("check answered by check: black checks", flip, "colours swapped"),
  ("perpetual blocking", mirror, "mirrored"), ("perpetual blocking", flip, "colours swapped"),
  ("perpetual following", mirror, "mirrored"), ("perpetual following", flip, "colours swapped"),
  ("perpetual offering", mirror, "mirrored"), ("perpetual offering", flip, "colours swapped"),
  ("the king attacks", mirror, "mirrored"), ("the king attacks", flip, "colours swapped"),
  ("a pawn attacks", mirror, "mirrored"), ("a pawn attacks", flip, "colours swapped"),
  ("two attacks answered by one", mirror, "mirrored"), ("two attacks answered by one", flip, "colours swapped"),
  ("attacking the chaser of a trapped", mirror, "mirrored"), ("attacking the chaser of a trapped", flip, "colours swapped"),
]
for prefix, fn, label in derived:
    base = next(x for x in spec if x[0].startswith(prefix))
    pat, fen, lead, cyc, asian, chinese = base
    f2, c2, a2 = fn(fen, cyc, asian)
    _, l2, ch2 = fn(fen, lead, chinese) if lead else (None, "", fn(fen, cyc, chinese)[2])
    spec.append((pat + " (" + label + ")", f2, l2, c2, a2, ch2))
out = ["# Repetition verdicts under both rule sets, in positions of our own (issue 23).",
       "# Each line: rules | FEN | moves (ICCS) | result after the moves | the pattern it shows.",
       "# The moves play a cycle twice, so that the last position occurs for the third time.",
       "# Written by make_repetition_rules.py from its spec; each verdict checked by hand against the rules text."]
for pat, fen, lead, cyc, asian, chinese in spec:
    moves = " ".join(x for x in [lead, cyc, cyc] if x)
    out.append(f"asian | {fen} | {moves} | {asian} | {pat}")
    out.append(f"chinese | {fen} | {moves} | {chinese} | {pat}")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
