// What a move threatens, as the repetition rules judge it: the checks, chases, mate threats and threats to
// win material by a discovered check that a side keeps up through a repeated cycle of positions.
#pragma once

#include "position.h"

namespace xq {

// The threats of the move that led to the current position (its mover is the side not to move).
struct MoveThreats {
    bool check = false;
    // Moving again, the mover would mate at once, and could not before this move.
    bool mateThreat = false;
    // Moving again, the mover would give a discovered check (the check by another piece than the one that
    // moves) that captures, or leaves the moving piece threatening, a piece the checked side cannot save:
    // the Chinese rules' "threat to win material by a discovered check". New with this move, as above.
    bool discoveredWin = false;
    // The pieces the move chases (squares in the current position): see chasedByLastMove.
    Bitboard chased = 0;
};

// The pieces side `chaser` chases with the move that led to the current position. A chase is a threat to
// capture that did not exist before the move, by any piece of the mover: the moved piece, a piece whose
// line it uncovered, a cannon whose screen it added or took away, a horse whose leg or an elephant whose eye
// it cleared; and also an attack that existed but now wins the piece because the move took its
// protection away. A threat is a legal capture of a piece that cannot be taken back by a legal recapture,
// or of a rook by a horse or cannon, or of a rook, horse or cannon by an advisor or elephant. Never the king
// or an uncrossed pawn; never by the king, a pawn, or a piece pinned to its own king (which cannot leave
// its square without exposing the king, even to take its pinner); an attack on a piece of the attacker's
// own kind that can legally take back is an offer to exchange, not a threat.
Bitboard chasedByLastMove(Position& pos);

// The pieces of the side not to move that threaten (as chasedByLastMove counts threats) a trapped piece of
// the side to move: one that cannot be protected and whose every move lands where it can be captured. The
// Chinese rules let a side keep attacking such a chaser to save its piece.
Bitboard chasersOfTrappedPieces(Position& pos);

// Everything the last move threatens; the mate and discovered-check threats only when `deep` (they search
// one move ahead, and only the Chinese rules ask for them), and not after a check, nor after a chase unless
// `allKinds` (whether a move threatens is all a verdict needs; which kinds, only its wording).
MoveThreats threatsOfLastMove(Position& pos, bool deep, bool allKinds = true);

}  // namespace xq
