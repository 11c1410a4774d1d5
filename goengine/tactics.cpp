#include "goengine/tactics.h"

#include <algorithm>

namespace xq::go {

namespace {

// Whether an attacker group next to the group of `target` has a single liberty.
bool neighbourInAtari(const Board& b, Point target, Color attacker) {
    bool found = false;
    b.forEachStone(target, [&](Point s) {
        for (Point q : b.neighbours(s))
            if (b.at(q) == attacker && b.liberties(q) == 1) found = true;
    });
    return found;
}

}  // namespace

std::vector<Point> groupsWithLiberties(const Board& b, Color c, int libs) {
    std::vector<Point> heads;
    for (Point p : b.points())
        if (b.at(p) == c && b.head(p) == p && b.liberties(p) == libs) heads.push_back(p);
    return heads;
}

std::vector<Rescue> rescues(Board& b, Color c) {
    std::vector<Rescue> out;
    for (Point h : groupsWithLiberties(b, c, 1)) {
        std::vector<Point> tries(1);
        b.libertyPoints(h, &tries[0], 1);
        b.forEachStone(h, [&](Point s) {
            for (Point q : b.neighbours(s))
                if (b.at(q) == opponent(c) && b.liberties(q) == 1) {
                    Point lib;
                    b.libertyPoints(q, &lib, 1);
                    tries.push_back(lib);
                }
        });
        const int stones = b.groupSize(h);
        for (Point x : tries) {
            if (std::any_of(out.begin(), out.end(), [&](const Rescue& r) { return r.move == x; })) continue;
            if (b.play(x, c) != MoveError::None) continue;
            const bool saved = b.gameOver() || (b.at(h) == c && b.liberties(h) >= 2);
            b.undo();
            if (saved) out.push_back({x, stones});
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Rescue& a, const Rescue& r) { return a.stones > r.stones; });
    return out;
}

bool ataris(Board& b, Point p, Color c, int stones) {
    if (b.play(p, c) != MoveError::None) return false;
    const bool bad = !b.gameOver() && b.liberties(p) == 1 && b.groupSize(p) >= stones;
    b.undo();
    return bad;
}

bool ladderCaptures(Board& b, Point target, Color attacker, int& budget) {
    if (b.at(target) != opponent(attacker) || b.liberties(target) != 2) return false;
    const Color defender = opponent(attacker);
    Point libs[2];
    b.libertyPoints(target, libs, 2);
    for (Point x : libs) {
        if (--budget < 0) return false;
        if (b.play(x, attacker) != MoveError::None) continue;
        bool captured = false;
        if (b.at(target) == Empty) {
            captured = true;  // the atari captured it (cannot happen with two liberties, but be safe)
        } else if (b.liberties(x) >= 2 && !neighbourInAtari(b, target, attacker) && !b.gameOver()) {
            Point y;
            b.libertyPoints(target, &y, 1);
            if (b.play(y, defender) != MoveError::None) {
                captured = true;  // the defender cannot extend
            } else {
                if (!b.gameOver()) {
                    int l = b.liberties(y);
                    if (l <= 1)
                        captured = true;
                    else if (l == 2)
                        captured = ladderCaptures(b, y, attacker, budget);
                }
                b.undo();
            }
        }
        b.undo();
        if (captured) return true;
    }
    return false;
}

bool escapesAtari(Board& b, Point target, int& budget) {
    const Color owner = b.at(target);
    const Color attacker = opponent(owner);
    // Capturing a neighbour in atari gives liberties.
    if (neighbourInAtari(b, target, attacker)) return true;
    Point y;
    if (b.libertyPoints(target, &y, 1) != 1) return true;
    if (b.play(y, owner) != MoveError::None) return false;
    bool escaped = false;
    if (b.gameOver()) {
        escaped = b.result().winner == (owner == Black ? Winner::Black : Winner::White);
    } else {
        int l = b.liberties(y);
        escaped = l >= 3 || (l == 2 && !ladderCaptures(b, y, attacker, budget));
    }
    b.undo();
    return escaped;
}

}  // namespace xq::go
