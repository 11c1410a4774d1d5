#include "goengine/search.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "goengine/tactics.h"

namespace xq::go {

namespace {

int libertyTerm(int libs) {
    switch (libs) {
        case 1:
            return -120;
        case 2:
            return -35;
        case 3:
            return -10;
        default:
            return 0;
    }
}

int resultScore(const Board& b, int ply) {
    Winner w = b.result().winner;
    if (w == Winner::Draw) return 0;
    bool moverWins = (w == Winner::Black) == (b.toMove() == Black);
    return moverWins ? kWinScore - ply : -(kWinScore - ply);
}

}  // namespace

AlphaBeta::AlphaBeta(std::size_t hashMegabytes) {
    std::size_t entries = 1;
    while (entries * 2 * sizeof(Entry) <= (hashMegabytes << 20)) entries *= 2;
    table_.resize(entries);
    mask_ = entries - 1;
    moveStack_.resize(130);
}

void AlphaBeta::clear() {
    std::fill(table_.begin(), table_.end(), Entry{});
    for (auto& k : killers_) k[0] = k[1] = kNoPoint;
    for (auto& h : history_) std::fill(std::begin(h), std::end(h), 0);
}

bool AlphaBeta::timeUp() {
    if (stopped_) return true;
    if (limits_.nodes && nodes_ >= limits_.nodes) stopped_ = true;
    if ((nodes_ & 255) == 0) {
        if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) stopped_ = true;
        if (limits_.seconds > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >=
                limits_.seconds)
            stopped_ = true;
    }
    return stopped_;
}

int AlphaBeta::evaluate(Board& b) {
    const Color me = b.toMove(), opp = opponent(me);
    const Rules& r = b.rules();
    double margin = b.areaMargin();
    if (me == White) margin = -margin;
    if (r.ruleSet == RuleSet::Go) {
        int s = int(margin * 10);
        for (Point p : b.points())
            if (b.at(p) != Empty && b.head(p) == p)
                s += (b.at(p) == me ? 1 : -1) * libertyTerm(b.liberties(p)) * std::min(b.groupSize(p), 4) / 2;
        return s + 5;
    }
    // Area matters when two passes end the game: little in the opening, where one stone "owns" the empty
    // board, more as the board fills.
    int stones = 0;
    for (Point p : b.points()) stones += b.at(p) != Empty;
    int s = 15 + int(margin * 4 * stones / int(b.points().size()));
    s += (b.captures(me) - b.captures(opp)) * 2400 / r.target;
    std::vector<Point> myTwo, oppTwo;
    int minLibs[3] = {0, 9, 9};
    const int n = b.size();
    for (Point p : b.points()) {
        if (b.at(p) == Empty) continue;
        // Stones away from the edge have room to breathe.
        int edge = std::min(std::min(b.col(p), n - 1 - b.col(p)), std::min(b.row(p), n - 1 - b.row(p)));
        s += (b.at(p) == me ? 1 : -1) * 3 * std::min(edge, 2);
        if (b.head(p) != p) continue;
        int libs = b.liberties(p);
        int sign = b.at(p) == me ? 1 : -1;
        int weight = r.target == 1 ? 4 : std::min(b.groupSize(p), 6) + 2;
        s += sign * (libertyTerm(libs) * weight / 4 + 2 * std::min(libs, 6));
        minLibs[b.at(p)] = std::min(minLibs[b.at(p)], libs);
        if (libs == 2) (sign > 0 ? myTwo : oppTwo).push_back(p);
    }
    // The weakest group decides capture races.
    s += 12 * (std::min(minLibs[me], 5) - std::min(minLibs[opp], 5));
    if (r.target == 1) {
        int budget = 60;
        for (std::size_t i = 0; i < oppTwo.size() && i < 6; ++i)
            if (ladderCaptures(b, oppTwo[i], me, budget)) return s + 3000;
        int threatened = 0;
        budget = 60;
        for (std::size_t i = 0; i < myTwo.size() && i < 6; ++i)
            threatened += ladderCaptures(b, myTwo[i], opp, budget);
        if (threatened >= 2)
            s -= 2000;
        else if (threatened == 1)
            s -= 250;
    }
    return s;
}

bool AlphaBeta::generate(Board& b, int ply, Point ttMove, std::vector<Move>& out, int& immediate) {
    out.clear();
    const Color me = b.toMove(), opp = opponent(me);
    const Rules& r = b.rules();
    const bool atariGo = r.atariGo();
    // Our groups in atari, and the opponent's liberties that atari its groups.
    std::vector<Point> saving;
    bool inAtari = false;
    for (Point p : b.points()) {
        if (b.at(p) == Empty || b.head(p) != p) continue;
        if (b.at(p) == me && b.liberties(p) == 1) {
            inAtari = true;
            Point lib;
            b.libertyPoints(p, &lib, 1);
            saving.push_back(lib);
        }
    }
    for (Point p : b.points()) {
        if (b.at(p) != Empty) continue;
        if (b.check(p, me) != MoveError::None) continue;
        Board::Probe pr = b.probe(p, me, 4);
        if (r.ruleSet == RuleSet::Capture && pr.captured > 0 && b.captures(me) + pr.captured >= r.target) {
            immediate = kWinScore - ply - 1;
            return true;
        }
        bool saves = std::find(saving.begin(), saving.end(), p) != saving.end();
        if (atariGo) {
            if (pr.captured == 0 && pr.libs < 2) continue;  // self-atari: the opponent captures
            if (inAtari && !saves) continue;                // leaves a group in atari
        }
        int score = history_[me - 1][p];
        if (p == ttMove) score += 1 << 28;
        if (pr.captured) score += (1 << 26) + pr.captured;
        if (saves) score += 1 << 25;
        if (p == killers_[ply][0] || p == killers_[ply][1]) score += 1 << 24;
        // Ataris: a neighbouring opponent group left with one liberty.
        for (Point q : b.neighbours(p))
            if (b.at(q) == opp && b.liberties(q) == 2) score += 1 << 23;
        if (pr.libs < 2 && pr.captured == 0) score -= 1 << 22;
        if (Point last = b.lastMove(); last > 0 && b.at(last) != Empty) {
            int d = std::abs(b.col(p) - b.col(last)) + std::abs(b.row(p) - b.row(last));
            if (d <= 2) score += (3 - d) << 20;
        }
        score += pr.libs << 18;
        out.push_back({p, score});
    }
    std::sort(out.begin(), out.end(), [](const Move& a, const Move& c) { return a.score > c.score; });
    // Passing: always legal; in Atari Go it loses with a group in atari (unless it ends the game).
    if (!(atariGo && inAtari && b.consecutivePasses() == 0)) out.push_back({kPass, -(1 << 30)});
    return false;
}

int AlphaBeta::negamax(Board& b, int depth, int alpha, int beta, int ply) {
    ++nodes_;
    if (b.gameOver()) return resultScore(b, ply);
    if (ply > 0 && timeUp()) return 0;
    if (ply >= 120) return evaluate(b);

    const std::uint64_t key = b.key();
    Entry& e = table_[key & mask_];
    Point ttMove = kNoPoint;
    if (e.key == key) {
        ttMove = e.move;
        if (ply > 0 && e.depth >= depth) {
            int s = e.score;
            if (s > kWinBound) s -= ply;
            if (s < -kWinBound) s += ply;
            if (e.bound == 3 || (e.bound == 1 && s >= beta) || (e.bound == 2 && s <= alpha)) return s;
        }
    }
    std::vector<Move>& moves = moveStack_[std::size_t(ply)];
    int immediate = 0;
    if (generate(b, ply, ttMove, moves, immediate)) return immediate;
    if (moves.empty()) return -(kWinScore - ply - 1);  // every move loses at once
    if (depth <= 0) {
        int s = evaluate(b);
        return s;
    }
    const int origAlpha = alpha;
    int best = -kWinScore - 1;
    Point bestMove = moves[0].p;
    const Color me = b.toMove();
    // A single reply is forced: it does not use up depth.
    const int childDepth = moves.size() == 1 ? depth : depth - 1;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Point m = moves[i].p;
        if (b.play(m, me) != MoveError::None) continue;
        int s = -negamax(b, childDepth, -beta, -alpha, ply + 1);
        b.undo();
        if (stopped_) return best > -kWinScore - 1 ? best : 0;
        if (s > best) {
            best = s, bestMove = m;
            if (s > alpha) alpha = s;
            if (alpha >= beta) {
                if (m != kPass) {
                    history_[me - 1][m] += depth * depth;
                    if (killers_[ply][0] != m) killers_[ply][1] = killers_[ply][0], killers_[ply][0] = m;
                }
                break;
            }
        }
    }
    int stored = best;
    if (stored > kWinBound) stored += ply;
    if (stored < -kWinBound) stored -= ply;
    e.key = key;
    e.score = std::int16_t(stored);
    e.move = std::int16_t(bestMove);
    e.depth = std::int8_t(depth);
    e.bound = best >= beta ? 1 : best <= origAlpha ? 2 : 3;
    if (ply == 0) rootBest_ = bestMove;
    return best;
}

SearchResult AlphaBeta::search(Board& b, const SearchLimits& limits) {
    limits_ = limits;
    start_ = std::chrono::steady_clock::now();
    stopped_ = false;
    nodes_ = 0;
    for (auto& k : killers_) k[0] = k[1] = kNoPoint;
    SearchResult result;
    std::vector<Move> rootMoves;
    int immediate = 0;
    if (b.gameOver()) return result;
    if (generate(b, 0, kNoPoint, rootMoves, immediate)) {
        // An immediate winning capture: find it.
        for (Point p : b.points())
            if (b.at(p) == Empty && b.check(p, b.toMove()) == MoveError::None) {
                Board::Probe pr = b.probe(p, b.toMove(), 1);
                if (pr.captured > 0 && b.captures(b.toMove()) + pr.captured >= b.rules().target) {
                    result.move = p;
                    break;
                }
            }
        result.score = kWinScore - 1;
        result.depth = 1;
        result.nodes = 1;
        return result;
    }
    result.move = rootMoves.empty() ? kPass : rootMoves[0].p;
    const int maxDepth = limits.depth > 0 ? limits.depth : 64;
    for (int depth = 1; depth <= maxDepth; ++depth) {
        rootBest_ = kNoPoint;
        int s = negamax(b, depth, -kWinScore - 1, kWinScore + 1, 0);
        if (stopped_ && depth > 1) break;
        if (rootBest_ != kNoPoint) result.move = rootBest_;
        result.score = s;
        result.depth = depth;
        if (s > kWinBound || s < -kWinBound) break;  // proven
        if (stopped_) break;
    }
    result.nodes = nodes_;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    result.resign = result.score < -kWinBound;
    char buf[160];
    std::snprintf(buf, sizeof buf, "alphabeta depth %d score %d nodes %llu time %.3f", result.depth,
                  result.score, static_cast<unsigned long long>(result.nodes), result.seconds);
    result.info = buf;
    return result;
}

}  // namespace xq::go
