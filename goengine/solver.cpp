#include "goengine/solver.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <ostream>

#include "goengine/zobrist.h"

namespace xq::go {

namespace {

double now() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

struct ScoredMove {
    int move;  // point, -1 pass
    std::uint32_t score;
};

void sortMoves(ScoredMove* m, int n) {
    for (int i = 1; i < n; ++i) {
        ScoredMove x = m[i];
        int j = i - 1;
        while (j >= 0 && m[j].score < x.score) m[j + 1] = m[j], --j;
        m[j + 1] = x;
    }
}

const char* winnerName(Winner w) {
    switch (w) {
        case Winner::Black:
            return "black";
        case Winner::White:
            return "white";
        case Winner::Draw:
            return "draw";
        default:
            return "unknown";
    }
}

}  // namespace

std::string SolveResult::toString() const {
    char buf[256];
    const char* verdict = !solved                   ? "unknown (stopped by a limit)"
                          : winner == Winner::Black ? "win for black"
                          : winner == Winner::White ? "win for white"
                                                    : "draw";
    std::snprintf(buf, sizeof buf, "result: %s\nmove: %s\nnodes: %llu\ntime: %.2f s\nnps: %.0f\n", verdict,
                  moveName.empty() ? "none" : moveName.c_str(), static_cast<unsigned long long>(nodes),
                  seconds, seconds > 0 ? double(nodes) / seconds : 0.0);
    std::string s = buf;
    if (depth > 0) s += "iterative deepening depth: " + std::to_string(depth) + "\n";
    if (superkoConflicts) s += "note: superko bans were met (the proof accounts for them)\n";
    return s;
}

std::string SolveResult::toJson() const {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "\"solved\": %s, \"result\": \"%s\", \"move\": %s%s%s, \"nodes\": %llu, \"seconds\": %.3f, "
                  "\"depth\": %d, \"superko_conflicts\": %s",
                  solved ? "true" : "false", solved ? winnerName(winner) : "unknown",
                  moveName.empty() ? "" : "\"", moveName.empty() ? "null" : moveName.c_str(),
                  moveName.empty() ? "" : "\"", static_cast<unsigned long long>(nodes), seconds, depth,
                  superkoConflicts ? "true" : "false");
    return buf;
}

Solver::Solver(int size, SolverOptions options)
    : g_(SmallGeometry::of(size)),
      o_(options),
      atariMode_(options.rules.ruleSet == RuleSet::Capture && options.rules.target == 1 &&
                 !options.plainSearch),
      table_(std::make_unique<SolverTable>(options.hashMegabytes)) {}

Solver::~Solver() = default;

int Solver::passValue(const SmallPos& pos) const {
    int me = pos.toMove;
    if (o_.rules.ruleSet == RuleSet::Capture && pos.captures[0] != pos.captures[1])
        return pos.captures[me] > pos.captures[me ^ 1] ? 1 : -1;
    double margin = pos.area(g_, 0) - pos.area(g_, 1) - o_.rules.komi;
    int v = margin > 0 ? 1 : margin < 0 ? -1 : 0;
    return me == 0 ? v : -v;
}

bool Solver::stopNow() {
    double t = now();
    if ((o_.nodeLimit && nodes_ >= o_.nodeLimit) || (o_.timeLimit > 0 && t - start_ >= o_.timeLimit))
        aborted_ = true;
    if (o_.progress && t - lastReport_ >= o_.progressInterval) report("progress");
    return aborted_;
}

void Solver::report(const char* what) {
    if (!o_.progress) return;
    double t = now();
    lastReport_ = t;
    double elapsed = t - start_;
    char depth[32] = "";
    if (o_.iterativeDeepening) std::snprintf(depth, sizeof depth, " depth %d", iteration_);
    char buf[256];
    std::snprintf(buf, sizeof buf, "[solve] %s%s nodes %llu time %.1fs nps %.0f table %.1f%%\n", what, depth,
                  static_cast<unsigned long long>(nodes_), elapsed,
                  elapsed > 0 ? double(nodes_) / elapsed : 0.0,
                  100.0 * double(table_->used()) / double(table_->capacity()));
    *o_.progress << buf << std::flush;
}

void Solver::store(std::uint64_t key, int symmetry, int beta, Tri r, int move, int depth,
                   std::uint64_t work) {
    SolverEntry* e = table_->acquire(key);
    if (r == Tri::True) e->lo = std::int8_t(std::max<int>(e->lo, beta));
    if (r == Tri::False) e->hi = std::int8_t(std::min<int>(e->hi, beta - 1));
    if (r == Tri::Unknown) e->unknownDepth[beta] = std::uint8_t(std::max<int>(e->unknownDepth[beta], depth));
    if (move >= 0) e->move = g_.sym[symmetry][move];
    if (move == -1) e->move = SolverEntry::kPass;
    e->work = std::max<std::uint8_t>(e->work, std::uint8_t(std::bit_width(work)));
}

bool Solver::hasStoneMove(const SmallPos& pos) const {
    const Bits me = pos.stones[pos.toMove], op = pos.stones[pos.toMove ^ 1];
    for (Bits c = g_.mask & ~(me | op); c; c &= c - 1) {
        SmallPos child = pos;
        if (child.play(g_, lowestBit(c))) return true;
    }
    return false;
}

Solver::PathEntry Solver::pathEntry(const SmallPos& pos) {
    PathEntry e{{pos.stones[0], pos.stones[1]}, {}};
    std::copy(std::begin(pos.hash), std::end(pos.hash), e.hash);
    return e;
}

bool Solver::repeats(const SmallPos& pos) const {
    for (const PathEntry& q : path_)
        if (q.stones[0] == pos.stones[0] && q.stones[1] == pos.stones[1]) return true;
    return false;
}

namespace {

// Whether an earlier position Q can come back below a node, from the stones of the node that Q lacks
// and the stones Q has that the node lacks (per colour) and the stones of each colour the opponent may
// still capture before the last capture of the game (`mayGo`). Counting stones: after pb black and pw
// white stones are placed, White has captured cw = lacks[0] - extra[0] + pb black stones and Black
// cb = lacks[1] - extra[1] + pw white ones; every capture takes a stone of its player, and Q comes back
// by a stone move. The last capture of the game is unbounded but places a stone of its player.
bool mayRecur(const int lacks[2], const int extra[2], const int mayGo[2]) {
    const int a0 = lacks[0] - extra[0], a1 = lacks[1] - extra[1];
    if (a0 + 1 <= mayGo[0] || a1 + 1 <= mayGo[1]) return true;  // by Black's last capture, or White's
    // No last capture: the fewest placements that agree with the captures they imply.
    int pb = std::max(0, -a0), pw = std::max(0, -a1);
    if (pb + pw == 0) pb = 1;  // at least the move that brings Q back
    for (int i = 0; i < 3; ++i) {
        if (a1 + pw > 0 && pb == 0) pb = 1;  // Black captured: it placed a stone
        if (a0 + pb > 0 && pw == 0) pw = 1;
    }
    return a0 + pb <= mayGo[0] && a1 + pw <= mayGo[1];
}

}  // namespace

std::uint64_t Solver::generalKey(const SmallPos& pos, int* symmetry) const {
    // The earlier positions that can still come back below this node (mayRecur; under the go rules
    // captures are unbounded and all of them count) enter the key. (solver.h)
    const bool capture = o_.rules.ruleSet == RuleSet::Capture;
    const int mayGo[2] = {
        capture ? o_.rules.target - 1 - pos.captures[1] : 64,   // black stones White may take
        capture ? o_.rules.target - 1 - pos.captures[0] : 64};  // and white ones Black may
    std::uint64_t earlier[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (const PathEntry& q : path_) {
        int lacks[2], extra[2];
        for (int c = 0; c < 2; ++c) {
            lacks[c] = popcount(pos.stones[c] & ~q.stones[c]);
            extra[c] = popcount(q.stones[c] & ~pos.stones[c]);
        }
        if (!mayRecur(lacks, extra, mayGo)) continue;
        for (int t = 0; t < 8; ++t) earlier[t] += splitMix64(q.hash[t]);
    }
    int best = 0;
    std::uint64_t bestKey = pos.key(g_, 0) ^ earlier[0];
    for (int t = 1; o_.symmetry && t < 8; ++t)
        if (std::uint64_t k = pos.key(g_, t) ^ earlier[t]; k < bestKey) best = t, bestKey = k;
    *symmetry = best;
    return bestKey;
}

bool Solver::ladderWin(const SmallPos& pos, int& budget) const {
    const int A = pos.toMove;
    const Bits att = pos.stones[A], def = pos.stones[A ^ 1];
    const Bits empty = g_.mask & ~(att | def);
    Bits attAtari = 0;
    for (Bits rest = att; rest;) {
        Bits grp = g_.group(rest & -rest, att);
        rest &= ~grp;
        if (popcount(g_.neighbours(grp) & empty) == 1) attAtari |= grp;
    }
    for (Bits rest = def; rest;) {
        Bits grp = g_.group(rest & -rest, def);
        rest &= ~grp;
        Bits libs = g_.neighbours(grp) & empty;
        int c = popcount(libs);
        if (c == 1) return true;  // a capture
        if (c != 2) continue;
        for (Bits l = libs; l; l &= l - 1)
            if (ladderTry(pos, lowestBit(l), attAtari, budget)) return true;
    }
    return false;
}

// The attacker (side to move of pos) ataris at x; true if every defence loses to more forced ataris.
bool Solver::ladderTry(const SmallPos& pos, int x, Bits attAtari, int& budget) const {
    if (--budget < 0) return false;
    const int A = pos.toMove;
    const Bits xb = bit(x);
    const Bits att = pos.stones[A] | xb, def = pos.stones[A ^ 1];
    const Bits empty = g_.mask & ~(att | def);
    const Bits mine = g_.group(xb, att);
    if (popcount(g_.neighbours(mine) & empty) < 2 || (attAtari & ~mine)) return false;  // not safe
    Bits atariDef = 0, replies = 0;
    for (Bits adj = g_.neighbours(xb) & def; adj;) {
        Bits grp = g_.group(adj & -adj, def);
        adj &= ~grp;
        Bits libs = g_.neighbours(grp) & empty;
        int c = popcount(libs);
        if (c == 0) return true;  // x captures
        if (c == 1) atariDef |= grp, replies |= libs;
    }
    if (!atariDef) return false;
    for (Bits r = replies; r; r &= r - 1) {
        const int y = lowestBit(r);
        const Bits yb = bit(y);
        const Bits def2 = def | yb, empty2 = empty & ~yb;
        const Bits saved = g_.group(yb, def2);
        if (atariDef & ~saved) continue;  // a group stays in atari: the attacker captures it
        const Bits libs = g_.neighbours(saved) & empty2;
        const int c = popcount(libs);
        if (c <= 1) continue;      // suicide or self-atari
        if (c >= 3) return false;  // escaped
        Bits attAtari2 = 0;
        for (Bits adj = g_.neighbours(yb) & att; adj;) {
            Bits grp = g_.group(adj & -adj, att);
            adj &= ~grp;
            if (popcount(g_.neighbours(grp) & empty2) == 1) attAtari2 |= grp;
        }
        SmallPos next;
        next.toMove = std::uint8_t(A);
        next.stones[A] = att;
        next.stones[A ^ 1] = def2;
        bool won = false;
        for (Bits l = libs; l && !won; l &= l - 1) won = ladderTry(next, lowestBit(l), attAtari2, budget);
        if (!won) return false;
    }
    return true;
}

Solver::Tri Solver::searchAtari(const SmallPos& pos, int beta, int depth, int ply, std::uint64_t key,
                                int symmetry) {
    ++nodes_;
    if ((nodes_ & 0x3FFF) == 0) stopNow();
    if (aborted_) return Tri::Unknown;
    const int P = pos.toMove, O = P ^ 1;
    const Bits me = pos.stones[P], op = pos.stones[O], empty = g_.mask & ~(me | op);

    // The opponent's groups: a group in atari is captured at once.
    Bits atariOn = 0, atariTwice = 0, threeLibs = 0;
    for (Bits rest = op; rest;) {
        Bits grp = g_.group(rest & -rest, op);
        rest &= ~grp;
        Bits libs = g_.neighbours(grp) & empty;
        int c = popcount(libs);
        if (c == 1) {
            if (ply == 0) rootMove_ = lowestBit(libs);
            return Tri::True;
        }
        if (c == 2) atariTwice |= atariOn & libs, atariOn |= libs;
        if (c == 3) threeLibs |= libs;
    }
    // Our groups: the liberties a stone on each point would join, and our groups in atari.
    Bits joined[64];
    for (int i = 0; i < g_.n * g_.s; ++i) joined[i] = 0;
    Bits myAtari = 0, myAtariLibs = 0, twoLibs = 0;
    for (Bits rest = me; rest;) {
        Bits grp = g_.group(rest & -rest, me);
        rest &= ~grp;
        Bits libs = g_.neighbours(grp) & empty;
        int c = popcount(libs);
        if (c == 1) myAtari |= grp, myAtariLibs |= libs;
        if (c == 2) twoLibs |= libs;
        for (Bits l = libs; l; l &= l - 1) joined[lowestBit(l)] |= libs;
    }

    // A pass after the opponent's pass ends the game.
    if (pos.passed && o_.passAllowed && passValue(pos) >= beta) {
        if (ply == 0) rootMove_ = -1;
        return Tri::True;
    }

    int ttMove = -2;
    if (SolverEntry* e = table_->find(key)) {
        if (ply > 0) {
            if (e->lo >= beta) return Tri::True;
            if (e->hi < beta) return Tri::False;
            if (e->unknownDepth[beta] >= depth) return Tri::Unknown;
        }
        if (e->move == SolverEntry::kPass)
            ttMove = -1;
        else if (e->move != SolverEntry::kNone)
            ttMove = g_.symInv[symmetry][e->move];
    }

    if (o_.ladders && atariOn) {
        int budget = o_.ladderBudget;
        if (ladderWin(pos, budget)) {
            if (ply == 0) {
                // Find the first move of the ladder for the caller.
                for (Bits l = atariOn; l; l &= l - 1) {
                    SmallPos tmp = pos;
                    int b2 = o_.ladderBudget;
                    Bits attAtari = 0;
                    for (Bits rest = me; rest;) {
                        Bits grp = g_.group(rest & -rest, me);
                        rest &= ~grp;
                        if (popcount(g_.neighbours(grp) & empty) == 1) attAtari |= grp;
                    }
                    if (ladderTry(tmp, lowestBit(l), attAtari, b2)) {
                        rootMove_ = lowestBit(l);
                        break;
                    }
                }
            }
            return Tri::True;
        }
    }
    if (depth <= 0) return Tri::Unknown;

    // Candidates: safe stones (own group keeps two liberties; every group in atari saved), then pass.
    ScoredMove moves[65];
    int count = 0;
    const Bits candidates = myAtari ? myAtariLibs : empty;
    for (Bits c = candidates; c; c &= c - 1) {
        const int x = lowestBit(c);
        const Bits xb = bit(x);
        const Bits libsAfter = (joined[x] | (g_.neighbours(xb) & empty)) & ~xb;
        const int nl = popcount(libsAfter);
        if (nl < 2) continue;
        if (myAtari && (myAtari & ~g_.group(xb, me | xb))) continue;
        // Ordering, measured on 5x5 from the empty board (nodes to the proof): contact with the opponent
        // first and away from our own stones (32.9M -> 0.23M), then ataris, liberties, history.
        long sc = std::min<long>(history_[P][x], (1 << 17) - 1);
        if (atariOn & xb) sc += 256l << 16;
        if (atariTwice & xb) sc += 512l << 16;
        if (twoLibs & xb) sc += 64l << 16;
        if (threeLibs & xb) sc += 128l << 16;
        sc += (4l * std::min(nl, 6)) << 16;
        sc += (64l * popcount(g_.neighbours(xb) & op)) << 16;
        sc -= (16l * popcount(g_.neighbours(xb) & me)) << 16;
        if (sc < 0) sc = 0;
        if (sc > (1l << 30) - 1) sc = (1l << 30) - 1;
        std::uint32_t score = std::uint32_t(sc);
        if (x == ttMove) score += 1u << 30;
        moves[count++] = {x, score};
    }
    sortMoves(moves, count);
    // Passing is searched last; with a group in atari it loses, and after a pass it ends the game
    // (already tried above).
    if (o_.passAllowed && !myAtari && !pos.passed) moves[count++] = {-1, 0};
    if (count == 0) {
        // Every move is a self-atari (lost: the opponent captures), or, with passes forbidden, there is no
        // stone move at all: then the game ends as two passes would end it (see solver.h).
        Tri r = Tri::False;
        if (!o_.passAllowed && !hasStoneMove(pos)) r = passValue(pos) >= beta ? Tri::True : Tri::False;
        store(key, symmetry, beta, r, -2, depth, 1);
        return r;
    }

    const std::uint64_t before = nodes_;
    const int childDepth = count == 1 ? depth : depth - 1;
    // The table is far bigger than the caches: fetch the next child's bucket while searching this one.
    auto makeChild = [&](int i, SmallPos& child, std::uint64_t& childKey, int& childSym) {
        child = pos;
        if (moves[i].move >= 0) {
            child.addStone(g_, P, moves[i].move);
            child.toMove = std::uint8_t(O);
            child.passed = 0;
        } else {
            child.pass();
        }
        childKey = child.canonicalKey(g_, o_.symmetry, &childSym);
        table_->prefetch(childKey);
    };
    SmallPos child[2];
    std::uint64_t keys[2];
    int symmetries[2];
    makeChild(0, child[0], keys[0], symmetries[0]);
    bool unknown = false;
    int firstUnknown = -2;
    for (int i = 0; i < count; ++i) {
        const int x = moves[i].move;
        const int cur = i & 1;
        if (i + 1 < count) makeChild(i + 1, child[cur ^ 1], keys[cur ^ 1], symmetries[cur ^ 1]);
        if (ply == 0) rootProgress_ = std::to_string(i + 1) + "/" + std::to_string(count) + " " + g_.name(x);
        Tri r = searchAtari(child[cur], 1 - beta, childDepth, ply + 1, keys[cur], symmetries[cur]);
        if (aborted_) return Tri::Unknown;
        if (ply <= 1 && o_.progress) {
            // The root's moves, and the replies to the root move being searched: how far the proof got.
            char what[160];
            if (ply == 0)
                std::snprintf(what, sizeof what, "root move %s (beta %d): %s", rootProgress_.c_str(), beta,
                              r == Tri::False  ? "proves it"
                              : r == Tri::True ? "refuted"
                                               : "unknown");
            else  // a reply is "refuted" when the root move beats it
                std::snprintf(what, sizeof what, "root move %s (beta %d): reply %d/%d %s %s",
                              rootProgress_.c_str(), 1 - beta, i + 1, count, g_.name(x).c_str(),
                              r == Tri::False  ? "is a defence"
                              : r == Tri::True ? "refuted"
                                               : "unknown");
            report(what);
        }
        if (r == Tri::False) {
            if (x >= 0) history_[P][x] += std::uint32_t(depth * depth);
            if (ply == 0) rootMove_ = x;
            store(key, symmetry, beta, Tri::True, x, depth, nodes_ - before);
            return Tri::True;
        }
        if (r == Tri::Unknown && !unknown) unknown = true, firstUnknown = x;
    }
    if (unknown) {
        store(key, symmetry, beta, Tri::Unknown, firstUnknown, depth, nodes_ - before);
        return Tri::Unknown;
    }
    store(key, symmetry, beta, Tri::False, -2, depth, nodes_ - before);
    return Tri::False;
}

Solver::Tri Solver::searchGeneral(const SmallPos& pos, int beta, int depth, int ply) {
    ++nodes_;
    if ((nodes_ & 0x3FFF) == 0) stopNow();
    if (aborted_) return Tri::Unknown;
    const int P = pos.toMove;

    if (pos.passed && o_.passAllowed && passValue(pos) >= beta) {
        if (ply == 0) rootMove_ = -1;
        return Tri::True;
    }
    int symmetry = 0;
    const std::uint64_t key = generalKey(pos, &symmetry);
    int ttMove = -2;
    if (SolverEntry* e = table_->find(key)) {
        if (ply > 0) {
            if (e->lo >= beta) return Tri::True;
            if (e->hi < beta) return Tri::False;
            if (e->unknownDepth[beta] >= depth) return Tri::Unknown;
        }
        if (e->move == SolverEntry::kPass)
            ttMove = -1;
        else if (e->move != SolverEntry::kNone)
            ttMove = g_.symInv[symmetry][e->move];
    }
    if (depth <= 0) return Tri::Unknown;

    struct Child {
        SmallPos pos;
        int move;
        std::uint32_t score;
    };
    Child children[50];
    int count = 0;
    const Bits empty = g_.mask & ~pos.occupied();
    for (Bits c = empty; c; c &= c - 1) {
        const int x = lowestBit(c);
        Child ch{pos, x, 0};
        int captured = 0;
        if (!ch.pos.play(g_, x, &captured)) continue;
        if (repeats(ch.pos)) {
            superkoConflicts_ = true;
            continue;
        }
        if (o_.rules.ruleSet == RuleSet::Capture && ch.pos.captures[P] >= o_.rules.target) {
            if (ply == 0) rootMove_ = x;
            store(key, symmetry, beta, Tri::True, x, depth, 1);
            return Tri::True;
        }
        ch.score = std::min<std::uint32_t>(history_[P][x], (1u << 20) - 1) + (std::uint32_t(captured) << 22) +
                   (x == ttMove ? 1u << 30 : 0u);
        children[count++] = ch;
    }
    std::sort(children, children + count, [](const Child& a, const Child& b) { return a.score > b.score; });
    if (o_.passAllowed && !pos.passed) {
        Child ch{pos, -1, 0};
        ch.pos.pass();
        children[count++] = ch;
    }
    if (count == 0) {
        // No move at all (with passes forbidden, or only the pass that ends the game): the game ends as two
        // passes would end it (see solver.h).
        Tri r = passValue(pos) >= beta ? Tri::True : Tri::False;
        store(key, symmetry, beta, r, -2, depth, 1);
        return r;
    }
    const std::uint64_t before = nodes_;
    const int childDepth = count == 1 ? depth : depth - 1;
    bool unknown = false;
    int firstUnknown = -2;
    for (int i = 0; i < count; ++i) {
        const Child& ch = children[i];
        if (ch.move >= 0) path_.push_back(pathEntry(ch.pos));
        Tri r = searchGeneral(ch.pos, 1 - beta, childDepth, ply + 1);
        if (ch.move >= 0) path_.pop_back();
        if (aborted_) return Tri::Unknown;
        if (r == Tri::False) {
            if (ch.move >= 0) history_[P][ch.move] += std::uint32_t(depth * depth);
            if (ply == 0) rootMove_ = ch.move;
            store(key, symmetry, beta, Tri::True, ch.move, depth, nodes_ - before);
            return Tri::True;
        }
        if (r == Tri::Unknown && !unknown) unknown = true, firstUnknown = ch.move;
    }
    if (unknown) {
        store(key, symmetry, beta, Tri::Unknown, firstUnknown, depth, nodes_ - before);
        return Tri::Unknown;
    }
    store(key, symmetry, beta, Tri::False, -2, depth, nodes_ - before);
    return Tri::False;
}

Solver::Tri Solver::rootSearch(const SmallPos& root, int beta) {
    if (!o_.iterativeDeepening) {
        iteration_ = 250;
        return search(root, beta, 250, 0);
    }
    for (int depth = 1; depth <= 250; ++depth) {
        iteration_ = depth;
        Tri r = search(root, beta, depth, 0);
        if (o_.progress) {
            char what[64];
            std::snprintf(what, sizeof what, "%s (beta %d)", r == Tri::Unknown ? "iteration" : "resolved",
                          beta);
            report(what);
        }
        if (r != Tri::Unknown || aborted_) return r;
    }
    return Tri::Unknown;
}

SolveResult Solver::solve(const SmallPos& root, const std::vector<SmallPos>& history, double seconds,
                          std::uint64_t nodes) {
    o_.timeLimit = seconds;
    o_.nodeLimit = nodes;
    return solve(root, history);
}

SolveResult Solver::solve(const SmallPos& root, const std::vector<SmallPos>& history) {
    start_ = lastReport_ = now();
    nodes_ = 0;
    aborted_ = false;
    superkoConflicts_ = false;
    path_.clear();
    for (const SmallPos& p : history) path_.push_back(pathEntry(p));
    path_.push_back(pathEntry(root));
    SolveResult result;
    const int stm = root.toMove;
    auto finish = [&](int value, int move) {
        result.solved = true;
        Winner stmWins = stm == 0 ? Winner::Black : Winner::White;
        Winner stmLoses = stm == 0 ? Winner::White : Winner::Black;
        result.winner = value > 0 ? stmWins : value < 0 ? stmLoses : Winner::Draw;
        result.move = move;
        if (move >= -1) result.moveName = g_.name(move);
    };
    if (o_.rules.ruleSet == RuleSet::Capture &&
        (root.captures[0] >= o_.rules.target || root.captures[1] >= o_.rules.target)) {
        // The game is already over.
        result.solved = true;
        result.winner = root.captures[0] >= o_.rules.target ? Winner::Black : Winner::White;
    } else {
        rootMove_ = -2;
        Tri win = rootSearch(root, 1);
        if (win == Tri::True) {
            finish(1, rootMove_);
        } else if (win == Tri::False) {
            rootMove_ = -2;
            Tri draw = rootSearch(root, 0);
            if (draw == Tri::True) finish(0, rootMove_);
            if (draw == Tri::False) finish(-1, -2);
        }
    }
    result.nodes = nodes_;
    result.seconds = now() - start_;
    result.depth = o_.iterativeDeepening ? iteration_ : 0;
    result.superkoConflicts = superkoConflicts_;
    report("done");
    return result;
}

}  // namespace xq::go
