#include "goengine/mcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "goengine/tactics.h"

namespace xq::go {

Mcts::Mcts(MctsOptions options) : o_(options), rng_(options.seed), scratch_(2) {}

void Mcts::expand(Board& b, int node) {
    Node& n = nodes_[std::size_t(node)];
    n.expanded = true;
    if (b.gameOver() || nodes_.size() + std::size_t(kMaxCells) > o_.maxNodes) return;
    const Color me = b.toMove();
    const bool tactical = o_.playout == Playout::Tactical;
    const bool atariGo = b.rules().atariGo();
    std::vector<Point> moves;
    bool inAtari = false;
    std::vector<Point> saving;
    if (tactical && atariGo)
        for (Point h : groupsWithLiberties(b, me, 1)) {
            Point lib;
            b.libertyPoints(h, &lib, 1);
            saving.push_back(lib);
            inAtari = true;
        }
    for (Point p : b.points()) {
        if (b.at(p) != Empty || b.check(p, me) != MoveError::None) continue;
        if (b.rules().ruleSet == RuleSet::Go && b.isOwnEye(p, me)) continue;
        if (tactical && atariGo) {
            Board::Probe pr = b.probe(p, me, 2);
            if (pr.captured > 0) {  // a winning capture: the only move worth a node
                moves.assign(1, p);
                break;
            }
            if (pr.libs < 2) continue;
            if (inAtari && std::find(saving.begin(), saving.end(), p) == saving.end()) continue;
        }
        moves.push_back(p);
    }
    bool winningCapture = moves.size() == 1 && tactical && atariGo && b.probe(moves[0], me, 1).captured > 0;
    if (!winningCapture && !(tactical && atariGo && inAtari && b.consecutivePasses() == 0))
        moves.push_back(kPass);
    if (moves.empty()) moves.push_back(kPass);  // passing loses, but it is a move
    std::shuffle(moves.begin(), moves.end(), rng_);
    const int first = int(nodes_.size());
    for (Point m : moves) {
        Node c;
        c.move = m;
        c.mover = me;
        nodes_.push_back(c);
    }
    nodes_[std::size_t(node)].firstChild = first;
    nodes_[std::size_t(node)].childCount = int(moves.size());
}

int Mcts::select(int node) const {
    const Node& n = nodes_[std::size_t(node)];
    const double logN = std::log(double(n.visits) + 1.0);
    int best = n.firstChild;
    double bestValue = -1;
    for (int i = n.firstChild; i < n.firstChild + n.childCount; ++i) {
        const Node& c = nodes_[std::size_t(i)];
        if (c.visits == 0) return i;  // children are in random order
        double v = c.wins / c.visits + o_.exploration * std::sqrt(logN / c.visits);
        if (v > bestValue) bestValue = v, best = i;
    }
    return best;
}

Point Mcts::randomMove(Board& pb, bool avoidSelfAtari) {
    const Color me = pb.toMove();
    const bool go = pb.rules().ruleSet == RuleSet::Go;
    empties_.clear();
    for (Point p : pb.points())
        if (pb.at(p) == Empty) empties_.push_back(p);
    Point fallback = kPass;
    while (!empties_.empty()) {
        std::size_t i = rng_() % empties_.size();
        Point p = empties_[i];
        empties_[i] = empties_.back();
        empties_.pop_back();
        if (go && pb.isOwnEye(p, me)) continue;
        Board::Probe pr = pb.probe(p, me, 2);
        if (pr.captured == 0 && pr.libs == 0) continue;  // suicide
        if (avoidSelfAtari && pr.captured == 0 && pr.libs < 2) {
            if (fallback == kPass && go) fallback = p;  // in go a self-atari may still be the only move
            continue;
        }
        return p;
    }
    return fallback;
}

Point Mcts::playoutMove(Board& pb) {
    if (o_.playout == Playout::Random) return randomMove(pb, false);
    const Color me = pb.toMove(), opp = opponent(me);
    // Capture the largest opponent group in atari.
    Point best = kNoPoint;
    int bestSize = 0;
    Point saveAt = kNoPoint;
    for (Point p : pb.points()) {
        if (pb.at(p) == Empty || pb.head(p) != p || pb.liberties(p) != 1) continue;
        Point lib = kNoPoint;
        pb.libertyPoints(p, &lib, 1);
        if (pb.at(p) == opp) {
            Board::Probe pr = pb.probe(lib, me, 1);
            if ((pr.captured || pr.libs) && pb.groupSize(p) > bestSize)
                best = lib, bestSize = pb.groupSize(p);
        } else if (saveAt == kNoPoint && pb.probe(lib, me, 2).libs >= 2) {
            saveAt = lib;
        }
    }
    if (best != kNoPoint) return best;
    if (saveAt != kNoPoint) return saveAt;
    return randomMove(pb, true);
}

Winner Mcts::playout(Board& pb) {
    const int cap = 3 * pb.size() * pb.size() + 20;
    for (int i = 0; i < cap && !pb.gameOver(); ++i) pb.playUnchecked(playoutMove(pb), pb.toMove());
    return pb.gameOver() ? pb.result().winner : pb.scoreByPasses().winner;
}

SearchResult Mcts::search(Board& b, const SearchLimits& limits) {
    const auto start = std::chrono::steady_clock::now();
    SearchResult result;
    nodes_.clear();
    nodes_.push_back(Node{});
    nodes_[0].mover = opponent(b.toMove());
    if (b.gameOver()) return result;
    std::uint64_t playouts = 0;
    std::vector<int> path;
    int moved = 0;
    for (;;) {
        if (limits.nodes && playouts >= limits.nodes) break;
        if ((playouts & 31) == 0) {
            if (limits.stop && limits.stop->load(std::memory_order_relaxed)) break;
            if (limits.seconds > 0 &&
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
                    limits.seconds)
                break;
        }
        // Selection and expansion on the real board (full legality, superko), undone afterwards.
        path.assign(1, 0);
        moved = 0;
        int node = 0;
        for (;;) {
            if (b.gameOver()) break;
            if (!nodes_[std::size_t(node)].expanded) {
                expand(b, node);
                if (nodes_[std::size_t(node)].childCount == 0) break;
            }
            if (nodes_[std::size_t(node)].childCount == 0) break;
            int child = select(node);
            bool fresh = nodes_[std::size_t(child)].visits == 0;
            if (b.play(nodes_[std::size_t(child)].move, nodes_[std::size_t(child)].mover) != MoveError::None)
                break;
            ++moved;
            node = child;
            path.push_back(node);
            if (fresh) break;
        }
        Winner w;
        if (b.gameOver()) {
            w = b.result().winner;
        } else {
            scratch_.copyPositionFrom(b);
            w = playout(scratch_);
        }
        ++playouts;
        for (int n : path) {
            Node& nd = nodes_[std::size_t(n)];
            ++nd.visits;
            if (w == Winner::Draw)
                nd.wins += 0.5f;
            else if ((w == Winner::Black) == (nd.mover == Black))
                nd.wins += 1.0f;
        }
        for (int i = 0; i < moved; ++i) b.undo();
    }
    const Node& root = nodes_[0];
    int best = -1;
    for (int i = root.firstChild; i < root.firstChild + root.childCount; ++i)
        if (best < 0 || nodes_[std::size_t(i)].visits > nodes_[std::size_t(best)].visits) best = i;
    if (best >= 0) {
        const Node& c = nodes_[std::size_t(best)];
        result.move = c.move;
        double rate = c.visits ? c.wins / c.visits : 0.5;
        result.score = int((rate - 0.5) * 2000);
        result.resign = o_.resignBelow > 0 && c.visits >= 500 && rate < o_.resignBelow;
    }
    result.nodes = playouts;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char buf[160];
    std::snprintf(buf, sizeof buf, "mcts playouts %llu winrate %.3f time %.3f",
                  static_cast<unsigned long long>(playouts), (result.score / 2000.0) + 0.5, result.seconds);
    result.info = buf;
    return result;
}

}  // namespace xq::go
