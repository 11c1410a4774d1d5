// Tactical reading on the general board, shared by the alpha-beta engine and the tactical playouts:
// a ladder reader (can the attacker capture a two-liberty group by a chain of ataris?), and quick
// per-position facts (groups in atari, capture and escape points).
#pragma once

#include <vector>

#include "goengine/board.h"

namespace xq::go {

// Whether `attacker`, to move, captures the group at `target` (which has exactly two liberties) by a
// ladder: every atari is safe (the attacker's stone keeps two liberties), the defender's only replies
// are the extensions, and the defender cannot capture a surrounding stone. `budget` counts moves read.
// The board is left as it was.
bool ladderCaptures(Board& b, Point target, Color attacker, int& budget);

// Whether the group at `target` (one liberty, its owner to move) escapes: its extension reaches three
// liberties, or two that do not fall to a ladder, or it captures a neighbour in atari.
bool escapesAtari(Board& b, Point target, int& budget);

// The moves of c that save a group of c in atari: the group's liberty, or the liberty of an opponent
// group in atari next to it (capturing back), when the group has two liberties or more afterwards (a
// capture that ends the game counts too). `stones` is the size of the group saved; largest first.
struct Rescue {
    Point move;
    int stones;
};
std::vector<Rescue> rescues(Board& b, Color c);

// Whether a stone of c at p would leave its group, of `stones` stones or more, with a single liberty.
bool ataris(Board& b, Point p, Color c, int stones);

// The heads of the groups of colour c with exactly `libs` liberties.
std::vector<Point> groupsWithLiberties(const Board& b, Color c, int libs);

// Whether a stone of c at p would capture nothing and leave its group with a single liberty.
inline bool isSelfAtari(const Board& b, Point p, Color c) {
    Board::Probe pr = b.probe(p, c, 2);
    return pr.captured == 0 && pr.libs < 2;
}

}  // namespace xq::go
