#include "goengine/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "goengine/tactics.h"

namespace xq::go {

const char* engineName(EngineKind k) {
    switch (k) {
        case EngineKind::Auto:
            return "auto";
        case EngineKind::AlphaBeta:
            return "alphabeta";
        case EngineKind::Mcts:
            return "mcts";
        case EngineKind::RandomMcts:
            return "random-mcts";
    }
    return "?";
}

std::optional<EngineKind> parseEngine(const std::string& name) {
    for (EngineKind k : {EngineKind::Auto, EngineKind::AlphaBeta, EngineKind::Mcts, EngineKind::RandomMcts})
        if (name == engineName(k)) return k;
    return std::nullopt;
}

void GameClock::settings(double main, double byo, int stones) {
    set = true;
    mainTime = main, byoTime = byo, byoStones = stones;
    for (int i = 0; i < 2; ++i) {
        left[i] = main > 0 ? main : byo;
        stonesLeft[i] = main > 0 ? 0 : stones;
    }
}

void GameClock::spend(Color c, double seconds) {
    if (!set || unlimited()) return;
    int i = colorIndex(c);
    left[i] -= seconds;
    if (stonesLeft[i] > 0) {
        if (--stonesLeft[i] == 0) left[i] = byoTime, stonesLeft[i] = byoStones;  // a new period
    } else if (left[i] <= 0 && byoTime > 0) {
        left[i] = byoTime, stonesLeft[i] = byoStones;
    }
}

Player::Player(PlayerOptions options) : o_(options), rng_(options.seed) {}
Player::~Player() = default;

void Player::newGame() {
    if (alphaBeta_) alphaBeta_->clear();
}

EngineKind Player::effectiveEngine(const Board& b) const {
    if (o_.engine != EngineKind::Auto) return o_.engine;
    return b.rules().ruleSet == RuleSet::Capture ? EngineKind::AlphaBeta : EngineKind::Mcts;
}

double Player::budget(const Board& b, const GameClock& clock) const {
    if (o_.moveTime > 0) return o_.moveTime;
    if (clock.unlimited()) return o_.nodes ? 0.0 : o_.defaultMoveTime;
    const int i = colorIndex(b.toMove());
    const double left = std::max(0.0, clock.left[i]);
    double t;
    if (clock.stonesLeft[i] > 0) {
        t = left / clock.stonesLeft[i] * 0.85;
    } else {
        int empties = 0;
        for (Point p : b.points()) empties += b.at(p) == Empty;
        double share = clock.byoTime > 0 && clock.byoStones > 0 ? clock.byoTime / clock.byoStones * 0.8 : 0.0;
        t = std::min(left / std::max(8, empties / 2) + share, left * 0.4 + share);
    }
    return std::max(0.01, t - 0.03);
}

Point Player::randomSaneMove(Board& b) {
    const Color me = b.toMove();
    // Answer an atari: one of the moves that save the largest group that can be saved.
    const std::vector<Rescue> saving = rescues(b, me);
    if (!saving.empty()) {
        std::size_t n = 1;
        while (n < saving.size() && saving[n].stones == saving[0].stones) ++n;
        return saving[rng_() % n].move;
    }
    std::vector<Point> sane;
    for (Point p : b.legalMoves()) {
        if (b.rules().ruleSet == RuleSet::Go && b.isOwnEye(p, me)) continue;
        if (!isSelfAtari(b, p, me)) sane.push_back(p);
    }
    return sane.empty() ? kPass : sane[rng_() % sane.size()];
}

Point Player::steady(Board& b, Point move) {
    const Color me = b.toMove();
    const Rules& r = b.rules();
    if (r.ruleSet == RuleSet::Capture) {  // a capture that wins at once comes first
        auto wins = [&](Point p) {
            const Board::Probe pr = b.probe(p, me, 1);
            return pr.captured > 0 && b.captures(me) + pr.captured >= r.target;
        };
        if (move != kPass && wins(move)) return move;
        for (Point p : b.legalMoves())
            if (wins(p)) return p;
    }
    const std::vector<Rescue> saving = rescues(b, me);
    if (!saving.empty()) {
        // The largest group saved, and among its rescues one that puts no other group of 3 in atari if any.
        std::vector<Point> best, clean;
        for (const Rescue& s : saving)
            if (s.stones == saving[0].stones) {
                best.push_back(s.move);
                if (!ataris(b, s.move, me, 3)) clean.push_back(s.move);
            }
        const std::vector<Point>& pick = clean.empty() ? best : clean;
        for (Point p : pick)
            if (p == move) return move;
        return pick[rng_() % pick.size()];
    }
    if (move == kPass || !ataris(b, move, me, 3)) return move;
    std::vector<Point> others, smallSelfAtari;
    for (Point p : b.legalMoves()) {
        if (ataris(b, p, me, 3)) continue;
        (isSelfAtari(b, p, me) ? smallSelfAtari : others).push_back(p);
    }
    // A stone or two in atari rather than a group of three or more.
    if (others.empty()) others = std::move(smallSelfAtari);
    return others.empty() ? move : others[rng_() % others.size()];
}

std::optional<Decision> Player::trySolver(Board& b, double seconds) {
    const int n = b.size();
    if (!o_.solver || o_.level < kMaxLevel || n > kSmallMaxSize || !b.rules().atariGo()) return std::nullopt;
    if (!solver_ || solverSize_ != n || solverKomi_ != b.rules().komi) {
        SolverOptions so;
        so.rules = b.rules();
        so.hashMegabytes = std::max<std::size_t>(16, o_.hashMegabytes);
        so.iterativeDeepening = false;
        solver_ = std::make_unique<Solver>(n, so);
        solverSize_ = n;
        solverKomi_ = b.rules().komi;
    }
    const SmallGeometry& g = solver_->geometry();
    SmallPos pos;
    for (Point p : b.points())
        if (b.at(p) != Empty) pos.addStone(g, colorIndex(b.at(p)), g.index(b.col(p), b.row(p)));
    pos.toMove = std::uint8_t(colorIndex(b.toMove()));
    pos.passed = b.consecutivePasses() > 0;
    SolveResult r = solver_->solve(pos, {}, seconds, o_.nodes);
    if (!r.solved || r.move < -1) return std::nullopt;
    const bool win = r.winner == (b.toMove() == Black ? Winner::Black : Winner::White);
    if (!win && r.winner != Winner::Draw) return std::nullopt;  // lost: let the search resist
    Decision d;
    d.move = r.move < 0 ? kPass : b.point(g.col(r.move), g.row(r.move));
    d.info = std::string("solver ") + (win ? "win" : "draw") + " nodes " + std::to_string(r.nodes);
    return d;
}

Decision Player::genmove(Board& b, const GameClock& clock) {
    Decision d;
    if (b.gameOver()) return d;
    const auto start = std::chrono::steady_clock::now();
    const double seconds = budget(b, clock);
    // Weaker levels: sometimes a random sane move.
    if (o_.level < kMaxLevel) {
        double p = 0.6 * std::pow(double(kMaxLevel - o_.level) / kMaxLevel, 2);
        if (std::uniform_real_distribution<double>(0, 1)(rng_) < p) {
            d.move = steady(b, randomSaneMove(b));
            d.info = "level " + std::to_string(o_.level) + " random move";
            return d;
        }
    }
    const EngineKind kind = effectiveEngine(b);
    if (kind == EngineKind::AlphaBeta) {
        double solverTime = seconds > 0 ? seconds * 0.4 : 0.0;
        if (auto s = trySolver(b, solverTime)) return *s;
    }
    if (kind == EngineKind::AlphaBeta && !alphaBeta_)
        alphaBeta_ = std::make_unique<AlphaBeta>(o_.hashMegabytes);
    const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    SearchLimits limits;
    limits.seconds = seconds > 0 ? std::max(0.005, seconds - used) : 0.0;
    limits.nodes = o_.nodes;
    if (o_.level < kMaxLevel) {
        double scale = std::pow(1.6, o_.level);
        std::uint64_t cap = std::uint64_t((kind == EngineKind::AlphaBeta ? 200.0 : 20.0) * scale);
        limits.nodes = limits.nodes ? std::min(limits.nodes, cap) : cap;
    }
    SearchResult r;
    if (kind == EngineKind::AlphaBeta) {
        r = alphaBeta_->search(b, limits);
    } else {
        MctsOptions mo;
        mo.playout = kind == EngineKind::RandomMcts ? Playout::Random : Playout::Tactical;
        mo.seed = rng_();
        Mcts mcts(mo);
        r = mcts.search(b, limits);
    }
    // Full strength trusts its reading, unless it proved the game lost: every move is then as good, so it
    // plays on with a move that looks like play (it resigns only where engine.h says).
    d.move = o_.level < kMaxLevel || r.score < -kWinBound ? steady(b, r.move) : r.move;
    // Resign only on a proof that holds whatever came before: the alpha-beta table's keys leave out the
    // game's history, exact under Atari Go (no position recurs before the first capture ends the game),
    // but not where superko can ban a move (target 2 and above, the go rules).
    d.resign = r.resign && o_.level == kMaxLevel && (kind != EngineKind::AlphaBeta || b.rules().atariGo());
    d.info = r.info;
    return d;
}

}  // namespace xq::go
