#include "search.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "evaluate.h"
#include "search_params.h"
#include "xiangqi/rules.h"

namespace xq::search {

namespace {

constexpr int DEPTH_QS = 0;
constexpr int DEPTH_QS_NO_CHECK = -1;
constexpr int DEPTH_UNSEARCHED = -2;  // an entry holding only a static evaluation

int futilityMargin(int depth, bool improving) {
    return Params.rfpMargin * (depth - improving);
}
// Reverse futility pruning: far above beta with little depth left, trust the static evaluation.
bool reverseFutile(int eval, int beta, int depth, bool improving) {
    return depth < Params.rfpMaxDepth && eval - futilityMargin(depth, improving) >= beta &&
           eval < VALUE_MATE_IN_MAX_PLY && std::abs(beta) < VALUE_MATE_IN_MAX_PLY;
}
// Whether the static evaluation rose since our previous move (VALUE_NONE: we were in check).
bool isImproving(const Stack* ss, int staticEval) {
    return (ss - 2)->staticEval == VALUE_NONE || staticEval > (ss - 2)->staticEval;
}
int futilityMoveCount(bool improving, int depth) {
    return (3 + depth * depth) / (2 - improving);
}
int statBonus(int depth) {
    return std::min(20 * depth * depth + 40 * depth - 30, 2000);
}

// Mate scores in the table are stored relative to the node, not the root.
int valueToTT(int v, int ply) {
    return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= VALUE_MATED_IN_MAX_PLY ? v - ply : v;
}
int valueFromTT(int v, int ply) {
    if (v == VALUE_NONE) return VALUE_NONE;
    return v >= VALUE_MATE_IN_MAX_PLY ? v - ply : v <= VALUE_MATED_IN_MAX_PLY ? v + ply : v;
}

void updatePV(Move* pv, Move move, const Move* childPv) {
    *pv++ = move;
    while (childPv && *childPv != MOVE_NONE) *pv++ = *childPv++;
    *pv = MOVE_NONE;
}

// The Zobrist key after m, so the table entry can be fetched while the move is being made.
std::uint64_t keyAfter(const Position& pos, Move m) {
    const Square from = fromSq(m), to = toSq(m);
    const Piece pc = pos.pieceOn(from), captured = pos.pieceOn(to);
    std::uint64_t k =
        pos.key() ^ zobrist::side() ^ zobrist::pieceSquare(pc, from) ^ zobrist::pieceSquare(pc, to);
    return captured != NO_PIECE ? k ^ zobrist::pieceSquare(captured, to) : k;
}

bool hasNonPawnMaterial(const Position& pos, Color c) {
    return pos.pieces(c, ROOK) | pos.pieces(c, KNIGHT) | pos.pieces(c, CANNON);
}

// The score of a position the rules decide by repetition or move limit, or VALUE_NONE. A perpetual check
// or chase (or under the Chinese rules any perpetual threat) loses for the side that kept it up; any other
// repetition and the move limit draw.
int rulesScore(Position& pos, int ply, RuleSet rules) {
    switch (searchRepetition(pos, rules)) {
        case RepetitionOutcome::DRAW:
            return VALUE_DRAW;
        case RepetitionOutcome::WIN:
            return mateIn(ply);
        case RepetitionOutcome::LOSS:
            return matedIn(ply);
        case RepetitionOutcome::NONE:
            break;
    }
    if (pos.rule60() >= defaultMoveLimitPlies(rules))
        return pos.inCheck() && !hasLegalMove(pos) ? matedIn(ply) : VALUE_DRAW;
    return VALUE_NONE;
}

}  // namespace

bool Features::parse(const std::string& list, std::string* bad) {
    Features f;
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t comma = list.find(',', start);
        std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? list.size() + 1 : comma + 1;
        if (name.empty() || name == "none") continue;
        bool* flag = name == "nullmove"          ? &f.nullMove
                     : name == "lmr"             ? &f.lmr
                     : name == "futility"        ? &f.futility
                     : name == "reversefutility" ? &f.reverseFutility
                     : name == "checkextension"  ? &f.checkExtension
                     : name == "aspiration"      ? &f.aspiration
                     : name == "seepruning"      ? &f.seePruning
                     : name == "killers"         ? &f.killers
                     : name == "history"         ? &f.history
                     : name == "conthistory"     ? &f.continuationHistory
                     : name == "matedistance"    ? &f.mateDistance
                     : name == "qchecks"         ? &f.quietChecks
                                                 : nullptr;
        if (!flag) {
            if (bad) *bad = name;
            return false;
        }
        *flag = false;
    }
    *this = f;
    return true;
}

std::string pvString(const std::vector<Move>& pv) {
    std::string s;
    for (Move m : pv) {
        if (!s.empty()) s += ' ';
        s += moveToString(m);
    }
    return s;
}

Worker::Worker(int id, SearchShared& shared)
    : id_(id),
      shared_(shared),
      history_(std::make_unique<ButterflyHistory>()),
      contHistory_(std::make_unique<ContinuationHistory>()) {}

void Worker::clearHistory() {
    *history_ = ButterflyHistory{};
    *contHistory_ = ContinuationHistory{};
}

void Worker::prepare(const Position& pos, const std::vector<Move>& rootMoves) {
    rootPos_ = pos;
    net_ = shared_.network.get();
    rootMoves_.clear();
    for (Move m : rootMoves) rootMoves_.emplace_back(m);
    nodes_.store(0, std::memory_order_relaxed);
    rootDepth_ = completedDepth_ = selDepth_ = pvIndex_ = 0;
    callsCount_ = 0;
}

int Worker::evaluateNnue(const Position& pos, Stack* ss) {
    return std::clamp(nnue_.evaluate(pos, ss->ply), -eval::EVAL_LIMIT, eval::EVAL_LIMIT);
}

int Worker::reduction(bool improving, int depth, int moveCount) const {
    int r = Reductions[std::min(depth, MAX_MOVES - 1)] * Reductions[std::min(moveCount, MAX_MOVES - 1)];
    return (r + 550) / 1024 + (!improving && r > 900);
}

void Worker::iterativeDeepening() {
    Stack stack[MAX_PLY + 12];
    Stack* ss = stack + 7;
    Move pv[MAX_PLY + 1];
    for (int i = 7; i > 0; --i) (ss - i)->contHist = &contHistory_->table[NO_PIECE][0];
    for (int i = 0; i <= MAX_PLY + 2; ++i) (ss + i)->ply = i;
    ss->pv = pv;
    ss->acc = eval::accumulate(rootPos_);
    if (net_) nnue_.reset(*net_, rootPos_, MAX_PLY + 4);

    // Helper threads skip some depths so that threads spread over different depths (Lazy SMP).
    static const int SkipSize[] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static const int SkipPhase[] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

    const SearchLimits& limits = shared_.limits;
    const int multiPV = std::min<int>(shared_.multiPV, int(rootMoves_.size()));
    Move lastBestMove = MOVE_NONE;
    int lastBestMoveDepth = 0;

    // Helpers wait for the main thread's first iteration, which neither the clock nor the node limit stops:
    // the nodes they searched meanwhile would overrun the limit.
    if (!isMain())
        while (!shared_.rootSearched.load(std::memory_order_relaxed) && !shared_.stop)
            std::this_thread::yield();

    while (++rootDepth_ < MAX_PLY && rootDepth_ <= shared_.maxDepth && !shared_.stop) {
        if (isMain() && limits.depth && rootDepth_ > limits.depth) break;
        if (!isMain()) {
            int i = (id_ - 1) % 20;
            if (((rootDepth_ + SkipPhase[i]) / SkipSize[i]) % 2) continue;
        }
        for (RootMove& rm : rootMoves_) rm.previousScore = rm.score;

        for (pvIndex_ = 0; pvIndex_ < multiPV && !shared_.stop; ++pvIndex_) {
            selDepth_ = 0;
            int alpha = -VALUE_INFINITE, beta = VALUE_INFINITE, delta = 0;
            if (rootDepth_ >= 4 && shared_.features.aspiration) {
                int prev = rootMoves_[pvIndex_].previousScore;
                delta = Params.aspirationDelta + std::abs(prev) / 50;
                alpha = std::max(prev - delta, -VALUE_INFINITE);
                beta = std::min(prev + delta, VALUE_INFINITE);
            }
            for (;;) {
                int value = search<ROOT>(rootPos_, ss, alpha, beta, rootDepth_, false);
                std::stable_sort(rootMoves_.begin() + pvIndex_, rootMoves_.end(),
                                 [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
                if (shared_.stop) break;
                if (isMain() && multiPV == 1 && (value <= alpha || value >= beta) &&
                    shared_.time.elapsed(limits) > 3000)
                    reportPVs(rootDepth_);
                if (value <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(value - delta, -VALUE_INFINITE);
                } else if (value >= beta) {
                    beta = std::min(value + delta, VALUE_INFINITE);
                } else
                    break;
                delta += delta / 2 + 5;
            }
            std::stable_sort(rootMoves_.begin(), rootMoves_.begin() + pvIndex_ + 1,
                             [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
            if (isMain() && (shared_.stop || pvIndex_ + 1 == multiPV || shared_.time.elapsed(limits) > 3000))
                reportPVs(rootDepth_);
        }
        if (!shared_.stop) completedDepth_ = rootDepth_;
        if (isMain() && completedDepth_ >= 1) shared_.rootSearched.store(true, std::memory_order_relaxed);
        if (!isMain()) continue;

        if (limits.depth && rootDepth_ >= limits.depth) break;
        // A best move that keeps changing deserves more time; a stable one less.
        if (rootMoves_[0].pv[0] != lastBestMove) {
            lastBestMove = rootMoves_[0].pv[0];
            lastBestMoveDepth = rootDepth_;
        }
        if (shared_.time.enabled() && !limits.infinite && !limits.movetime && !shared_.stop) {
            double stability = rootDepth_ - lastBestMoveDepth < 3 ? 1.25 : 0.75;
            // Stop if the next iteration would probably not finish before the time runs out.
            if (shared_.time.elapsed(limits) >
                shared_.time.optimum() * stability * Params.timeNextIteration / 100)
                shared_.stop = true;
        }
    }
}

void Worker::checkTime() {
    if (--callsCount_ > 0) return;
    const SearchLimits& limits = shared_.limits;
    // Often enough that a busy machine (a process may get a fraction of a core) still sees the clock in time.
    callsCount_ = limits.nodes ? int(std::min<std::uint64_t>(512, limits.nodes / 1024 + 1)) : 512;
    if (!shared_.rootSearched.load(std::memory_order_relaxed)) return;
    // Every thread watches the node limit: a helper can run on alone while the main thread waits for a CPU.
    if (limits.nodes && shared_.totalNodes() >= limits.nodes) shared_.stop = true;
    if (!isMain()) return;
    if (shared_.time.enabled() && !limits.infinite && shared_.time.elapsed(limits) >= shared_.time.maximum())
        shared_.stop = true;
}

void Worker::reportPVs(int depth) {
    if (!shared_.onInfo) return;
    const int multiPV = std::min<int>(shared_.multiPV, int(rootMoves_.size()));
    for (int i = 0; i < multiPV; ++i) {
        const RootMove& rm = rootMoves_[i];
        bool updated = rm.score != -VALUE_INFINITE;
        if (depth == 1 && !updated && i > 0) continue;
        InfoLine line;
        line.depth = updated ? depth : std::max(1, depth - 1);
        line.selDepth = rm.selDepth;
        line.multiPV = i + 1;
        line.score = updated ? rm.score : rm.previousScore;
        if (line.score == -VALUE_INFINITE) line.score = 0;
        line.lowerbound = i == pvIndex_ && rm.scoreLowerbound;
        line.upperbound = i == pvIndex_ && rm.scoreUpperbound;
        line.nodes = shared_.totalNodes();
        line.time = shared_.time.elapsed(shared_.limits);
        line.hashfull = shared_.tt.hashfull();
        line.pv = rm.pv;
        shared_.onInfo(line);
    }
}

void Worker::updateContinuation(Stack* ss, Piece pc, Square to, int bonus) {
    if (!shared_.features.continuationHistory) return;
    for (int i : {1, 2}) {
        if (ss->inCheck && i > 1) break;
        if (isOk((ss - i)->currentMove)) (ss - i)->contHist->table[pc][to].update(bonus);
    }
}

void Worker::updateQuietStats(const Position& pos, Stack* ss, Move move, int bonus) {
    if (ss->killers[0] != move && shared_.features.killers) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = move;
    }
    if (shared_.features.history) history_->table[pos.sideToMove()][moveIndex(move)].update(bonus);
    updateContinuation(ss, pos.movedPiece(move), toSq(move), bonus);
}

template <Worker::NodeType Type>
int Worker::search(Position& pos, Stack* ss, int alpha, int beta, int depth, bool cutNode) {
    constexpr bool PvNode = Type != NON_PV;
    constexpr bool rootNode = Type == ROOT;

    if (depth <= 0) return qsearch < PvNode ? PV : NON_PV > (pos, ss, alpha, beta);
    depth = std::min(depth, MAX_PLY - 1);

    Move pv[MAX_PLY + 1];
    Move quietsSearched[64];
    int quietCount = 0;
    const Color us = pos.sideToMove();
    ss->inCheck = pos.inCheck();
    ss->moveCount = 0;
    int bestValue = -VALUE_INFINITE;
    Move bestMove = MOVE_NONE;

    checkTime();
    if (PvNode && selDepth_ < ss->ply + 1) selDepth_ = ss->ply + 1;

    if (!rootNode) {
        if (shared_.stop.load(std::memory_order_relaxed)) return VALUE_DRAW;
        if (int v = rulesScore(pos, ss->ply, shared_.ruleSet); v != VALUE_NONE) return v;
        if (ss->ply >= MAX_PLY) return ss->inCheck ? VALUE_DRAW : evaluate(pos, ss);
        // Mate distance pruning: no line from here can beat a shorter mate already found.
        if (shared_.features.mateDistance) {
            alpha = std::max(matedIn(ss->ply), alpha);
            beta = std::min(mateIn(ss->ply + 1), beta);
            if (alpha >= beta) return alpha;
        }
    }
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    ss->statScore = 0;

    // Transposition table
    const std::uint64_t key = pos.key();
    // Evaluated before the probe, as in qsearch: the entry the parent prefetched has more time to arrive,
    // and the evaluation runs while it does instead of after a stall. A table cut-off wastes it, which costs
    // less: +1.8% +- 0.4% nodes per second (bench/nps-ab.sh, 24 ABBA blocks of 3M nodes, Bench unchanged).
    const int earlyEval = ss->inCheck ? VALUE_NONE : evaluate(pos, ss);
    // At depth 1 reverse futility pruning (below) is tried before the probe, on the static evaluation alone,
    // so a node it ends does not wait for its table entry: +2.2% +- 0.4% nodes per second (bench/nps-ab.sh),
    // and in self-play against the probe-first order +2.7 +- 10 Elo at 5000 nodes (3000 games), +9.7 +- 17.2
    // and -3.1 +- 17.0 at 20000 nodes (1000 games each): neutral at equal nodes. At every depth it pruned
    // was 4% faster but -8.3 +- 16.7 at 5000 nodes.
    if (!PvNode && depth == 1 && !ss->inCheck && shared_.features.reverseFutility &&
        reverseFutile(earlyEval, beta, depth, isImproving(ss, earlyEval))) {
        ss->staticEval = earlyEval;
        return earlyEval;
    }
    bool ttHit;
    TTEntry* tte = shared_.tt.probe(key, ttHit);
    int ttValue = ttHit ? valueFromTT(tte->value(), ss->ply) : VALUE_NONE;
    Move ttMove = rootNode ? rootMoves_[pvIndex_].pv[0] : ttHit ? tte->move() : MOVE_NONE;
    if (!rootNode && ttMove != MOVE_NONE && !pos.isPseudoLegal(ttMove)) ttMove = MOVE_NONE;
    const bool ttPv = PvNode || (ttHit && tte->isPv());
    const bool ttCapture = ttMove != MOVE_NONE && pos.isCapture(ttMove);

    if (!PvNode && ttHit && tte->depth() >= depth && ttValue != VALUE_NONE &&
        (tte->bound() & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER)) &&
        pos.rule60() < defaultMoveLimitPlies(shared_.ruleSet) - 10) {
        if (ttMove != MOVE_NONE && ttValue >= beta && !ttCapture)
            updateQuietStats(pos, ss, ttMove, statBonus(depth));
        return ttValue;
    }

    // Static evaluation
    int eval;
    bool improving = false;
    if (ss->inCheck) {
        ss->staticEval = eval = VALUE_NONE;
    } else {
        if (ttHit) {
            ss->staticEval = eval = tte->eval() != VALUE_NONE ? tte->eval() : earlyEval;
            if (ttValue != VALUE_NONE && (tte->bound() & (ttValue > eval ? BOUND_LOWER : BOUND_UPPER)))
                eval = ttValue;
        } else {
            ss->staticEval = eval = earlyEval;
            tte->save(key, VALUE_NONE, ttPv, BOUND_NONE, DEPTH_UNSEARCHED, MOVE_NONE, ss->staticEval,
                      shared_.tt.generation());
        }
        improving = isImproving(ss, ss->staticEval);

        if (!PvNode && shared_.features.reverseFutility && reverseFutile(eval, beta, depth, improving))
            return eval;

        // Null move pruning: if passing still fails high, the position is good enough. Measured against
        // Disable=nullmove: +37 +- 39 Elo (200 games) and +15 +- 26 (400) at 5000 nodes, +26 +- 41 (200)
        // at 20000 nodes; on distinct games (4000-opening book, 1000 games each) +12.9 +- 18.9 at 5000 nodes
        // and +16.3 +- 17.9 at 20000. Stricter variants all measured worse against this one (400 games, 5000
        // nodes): a rook or two horses/cannons required -10 +- 13, that plus R = 4 + depth / 3 -20 +- 26, cut
        // nodes only -21 +- 28, both -8 +- 28.
        if (!PvNode && shared_.features.nullMove && (ss - 1)->currentMove != MOVE_NULL && eval >= beta &&
            ss->staticEval >= beta - Params.nmpDepthMargin * depth + Params.nmpBase &&
            ss->ply >= nmpMinPly_ && hasNonPawnMaterial(pos, us) && std::abs(beta) < VALUE_MATE_IN_MAX_PLY) {
            int R = 3 + depth / 4 + std::min((eval - beta) / Params.nmpEvalDivisor, 3);
            ss->currentMove = MOVE_NULL;
            ss->contHist = &contHistory_->table[NO_PIECE][0];
            pushNullMove(ss);
            pos.doNullMove();
            int nullValue = -search<NON_PV>(pos, ss + 1, -beta, -beta + 1, depth - R, !cutNode);
            pos.undoNullMove();
            if (nullValue >= beta) {
                if (nullValue >= VALUE_MATE_IN_MAX_PLY) nullValue = beta;
                if (nmpMinPly_ || depth < 12) return nullValue;
                // Deep nodes: verify with a real search without null moves near here (zugzwang guard).
                nmpMinPly_ = ss->ply + 3 * (depth - R) / 4;
                int v = search<NON_PV>(pos, ss, beta - 1, beta, depth - R, false);
                nmpMinPly_ = 0;
                if (v >= beta) return nullValue;
            }
        }
    }

    const PieceToHistory* contHist[] = {(ss - 1)->contHist, (ss - 2)->contHist};
    MovePicker picker(pos, ttMove, history_.get(), contHist, ss->killers);
    bool skipQuiets = false;
    int moveCount = 0;
    int value = bestValue;

    for (Move move; (move = picker.next(skipQuiets)) != MOVE_NONE;) {
        if (rootNode && std::find(rootMoves_.begin() + pvIndex_, rootMoves_.end(), move) == rootMoves_.end())
            continue;
        // The child's table entry starts loading before the pruning tests, which then run while it comes
        // (a pruned move wastes the fetch, not time): +2% nodes per second on fixed-node searches.
        shared_.tt.prefetch(keyAfter(pos, move));
        if (!pos.isLegal(move)) continue;
        ss->moveCount = ++moveCount;
        if (PvNode) (ss + 1)->pv = nullptr;

        const bool capture = pos.isCapture(move);
        const bool goodCapture = picker.pickedGoodCapture();  // SEE >= 0 already known
        const Piece moved = pos.movedPiece(move);
        const Square to = toSq(move);
        int newDepth = depth - 1;

        // Pruning at shallow depth, once a move has saved us from being mated. Whether a move gives check
        // costs a king-safety test, so it is asked only of moves about to be pruned and of moves searched.
        if (!rootNode && bestValue > VALUE_MATED_IN_MAX_PLY && hasNonPawnMaterial(pos, us)) {
            const Features& on = shared_.features;
            if (on.futility && moveCount >= futilityMoveCount(improving, depth)) skipQuiets = true;
            // Captures that lose material by SEE are pruned; quiet moves are not. Self-play, same binary,
            // without any SEE pruning against with it for both: +20.8 +- 13.4 Elo at 5000 nodes (1822 games,
            // SPRT [0, 10] H1), +26.1 +- 16.7 at 20000 nodes (1200 games). Captures only against none, 5000
            // nodes: +26.8 +- 15.5 (1284 games, SPRT [0, 10] H1). These runs drew on the 200-opening book,
            // and at a node limit a repeated pair replays identically: at most 400 distinct games, so the
            // true error is about +-29. On the 4000-opening book, same binary with and without
            // Disable=seepruning, 5000 nodes: +10.9 +- 10.3 (3000 distinct games, LOS 98%, SPRT [0, 10]
            // undecided at LLR 2.02).
            if (capture) {
                if (on.seePruning && !goodCapture && !seeGE(pos, move, -Params.seeCaptureMargin * depth))
                    continue;
            } else {
                const int lmrDepth = std::max(newDepth - reduction(improving, depth, moveCount), 0);
                int h = contHist[0]->table[moved][to] + contHist[1]->table[moved][to];
                bool prune =
                    on.futility &&
                    (skipQuiets || (lmrDepth < 4 && h < -Params.historyPruning * depth) ||
                     (!ss->inCheck && lmrDepth < 7 &&
                      ss->staticEval + Params.futilityBase + Params.futilityPerDepth * lmrDepth <= alpha &&
                      alpha < VALUE_MATE_IN_MAX_PLY));
                if (prune && !givesCheckFast(pos, move)) continue;
            }
        }
        const bool givesCheck = givesCheckFast(pos, move);

        // Check extension, for checks that do not simply lose the checking piece.
        if (givesCheck && shared_.features.checkExtension && ss->ply < 2 * rootDepth_ &&
            (PvNode || goodCapture || seeGE(pos, move, 0)))
            newDepth += 1;

        ss->currentMove = move;
        ss->contHist = &contHistory_->table[moved][to];
        nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        pushMove(ss, moved, fromSq(move), to, pos.pieceOn(to));
        pos.doMove(move, givesCheck);

        // Late move reductions, with a full-depth re-search when the reduced search beats alpha.
        if (shared_.features.lmr && depth >= 2 && moveCount > 1 + rootNode && (!capture || !ttPv)) {
            int r = reduction(improving, depth, moveCount);
            r -= ttPv;
            r += cutNode * 2;
            r += ttCapture;
            if (move == ss->killers[0] || move == ss->killers[1]) --r;
            ss->statScore = history_->table[us][moveIndex(move)] + contHist[0]->table[moved][to] +
                            contHist[1]->table[moved][to] - 4000;
            r -= ss->statScore / Params.lmrHistoryDivisor;
            int d = std::clamp(newDepth - r, 1, std::max(newDepth, 1));
            value = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, d, true);
            if (value > alpha && d < newDepth)
                value = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, newDepth, !cutNode);
        } else if (!PvNode || moveCount > 1) {
            value = -search<NON_PV>(pos, ss + 1, -(alpha + 1), -alpha, newDepth, !cutNode);
        }
        if (PvNode && (moveCount == 1 || (value > alpha && (rootNode || value < beta)))) {
            (ss + 1)->pv = pv;
            pv[0] = MOVE_NONE;
            value = -search<PV>(pos, ss + 1, -beta, -alpha, newDepth, false);
        }
        pos.undoMove();

        if (shared_.stop.load(std::memory_order_relaxed)) return VALUE_DRAW;

        if (rootNode) {
            RootMove& rm = *std::find(rootMoves_.begin(), rootMoves_.end(), move);
            if (moveCount == 1 || value > alpha) {
                rm.score = value;
                rm.selDepth = selDepth_;
                rm.scoreLowerbound = value >= beta;
                rm.scoreUpperbound = value <= alpha;
                rm.pv.resize(1);
                for (const Move* m = pv; *m != MOVE_NONE; ++m) rm.pv.push_back(*m);
            } else {
                rm.score = -VALUE_INFINITE;
            }
        }

        if (value > bestValue) {
            bestValue = value;
            if (value > alpha) {
                bestMove = move;
                if (PvNode && !rootNode) updatePV(ss->pv, move, pv);
                if (value >= beta) break;
                alpha = value;
            }
        }
        if (move != bestMove && !capture && quietCount < 64) quietsSearched[quietCount++] = move;
    }

    // No legal move: checkmated or stalemated, and both lose in Xiangqi.
    if (moveCount == 0) return matedIn(ss->ply);

    if (bestMove != MOVE_NONE && !pos.isCapture(bestMove)) {
        int bonus = statBonus(depth + (bestValue > beta + 150));
        updateQuietStats(pos, ss, bestMove, bonus);
        for (int i = 0; i < quietCount; ++i) {
            if (shared_.features.history) history_->table[us][moveIndex(quietsSearched[i])].update(-bonus);
            updateContinuation(ss, pos.movedPiece(quietsSearched[i]), toSq(quietsSearched[i]), -bonus);
        }
    }

    if (!(rootNode && pvIndex_ > 0))
        tte->save(key, valueToTT(bestValue, ss->ply), ttPv,
                  bestValue >= beta                 ? BOUND_LOWER
                  : PvNode && bestMove != MOVE_NONE ? BOUND_EXACT
                                                    : BOUND_UPPER,
                  depth, bestMove, ss->staticEval, shared_.tt.generation());
    return bestValue;
}

template <Worker::NodeType Type>
int Worker::qsearch(Position& pos, Stack* ss, int alpha, int beta, int depth) {
    constexpr bool PvNode = Type == PV;
    Move pv[MAX_PLY + 1];
    if (PvNode) {
        (ss + 1)->pv = pv;
        ss->pv[0] = MOVE_NONE;
        if (selDepth_ < ss->ply + 1) selDepth_ = ss->ply + 1;
    }
    ss->inCheck = pos.inCheck();
    Move bestMove = MOVE_NONE;
    checkTime();

    if (int v = rulesScore(pos, ss->ply, shared_.ruleSet); v != VALUE_NONE) return v;
    if (ss->ply >= MAX_PLY) return ss->inCheck ? VALUE_DRAW : evaluate(pos, ss);

    const int ttDepth = ss->inCheck || depth >= DEPTH_QS ? DEPTH_QS : DEPTH_QS_NO_CHECK;
    const std::uint64_t key = pos.key();
    // Evaluated before the table probe: the entry is seldom in cache yet (the parent's prefetch was issued
    // only a little earlier) and nearly every quiescence node needs the evaluation, so the two overlap
    // instead of the probe stalling (+4% nodes per second at the same tree: the table's stored evaluation
    // still wins when there is one).
    const int earlyEval = ss->inCheck ? VALUE_NONE : evaluate(pos, ss);
    bool ttHit;
    TTEntry* tte = shared_.tt.probe(key, ttHit);
    int ttValue = ttHit ? valueFromTT(tte->value(), ss->ply) : VALUE_NONE;
    Move ttMove = ttHit ? tte->move() : MOVE_NONE;
    const bool ttPv = ttHit && tte->isPv();
    if (!PvNode && ttHit && tte->depth() >= ttDepth && ttValue != VALUE_NONE &&
        (tte->bound() & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER)))
        return ttValue;

    int bestValue, futilityBase;
    if (ss->inCheck) {
        ss->staticEval = VALUE_NONE;
        bestValue = futilityBase = -VALUE_INFINITE;
    } else {
        if (ttHit) {
            ss->staticEval = bestValue = tte->eval() != VALUE_NONE ? tte->eval() : earlyEval;
            if (ttValue != VALUE_NONE && (tte->bound() & (ttValue > bestValue ? BOUND_LOWER : BOUND_UPPER)))
                bestValue = ttValue;
        } else {
            ss->staticEval = bestValue = earlyEval;
        }
        // Stand pat: the side to move need not capture.
        if (bestValue >= beta) {
            if (!ttHit)
                tte->save(key, valueToTT(bestValue, ss->ply), false, BOUND_LOWER, DEPTH_UNSEARCHED, MOVE_NONE,
                          ss->staticEval, shared_.tt.generation());
            return bestValue;
        }
        if (bestValue > alpha) alpha = bestValue;
        futilityBase = bestValue + 160;
    }

    // Makes the move, searches it and keeps the best; true on a cut-off.
    auto searchMove = [&](Move move) {
        const Piece moved = pos.movedPiece(move);
        ss->currentMove = move;
        ss->contHist = &contHistory_->table[moved][toSq(move)];
        nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        pushMove(ss, moved, fromSq(move), toSq(move), pos.pieceOn(toSq(move)));
        pos.doMove(move);
        const int value = -qsearch<Type>(pos, ss + 1, -beta, -alpha, depth - 1);
        pos.undoMove();
        if (value > bestValue) {
            bestValue = value;
            if (value > alpha) {
                bestMove = move;
                if (PvNode) updatePV(ss->pv, move, pv);
                if (value >= beta) return true;
                alpha = value;
            }
        }
        return false;
    };

    const PieceToHistory* contHist[] = {(ss - 1)->contHist, (ss - 2)->contHist};
    MovePicker picker(pos, ttMove, history_.get(), contHist);
    // Legality is tested after the pruning, which is cheaper and drops most moves; a pruned move only
    // counts towards bestValue if it is legal.
    for (Move move; (move = picker.next()) != MOVE_NONE;) {
        const bool capture = pos.isCapture(move);

        if (bestValue > VALUE_MATED_IN_MAX_PLY) {
            // Futility: even winning the piece for free cannot lift us to alpha (unless it gives check).
            if (capture && futilityBase > -VALUE_INFINITE) {
                int futilityValue = futilityBase + SeeValue[typeOf(pos.pieceOn(toSq(move)))];
                if (futilityValue <= alpha && !givesCheckFast(pos, move)) {
                    if (futilityValue > bestValue && pos.isLegal(move)) bestValue = futilityValue;
                    continue;
                }
            }
        }
        shared_.tt.prefetch(keyAfter(pos, move));  // before the exchange and legality tests, as in search
        // Losing exchanges, and once one evasion holds, losing evasions.
        if (bestValue > VALUE_MATED_IN_MAX_PLY && !seeGE(pos, move, 0)) continue;
        if (!pos.isLegal(move)) continue;
        if (searchMove(move)) break;
    }

    // Quiet checks, on the first quiescence ply only: in Xiangqi a check is often the only threat that
    // matters, and a capture-only search never sees a mate coming. They cost speed (without them the search
    // makes 10.7% +- 1.5% more nodes per second, ABBA on the yardstick positions) and still pay at equal
    // time: the engine with them at nodes=10000 against the engine without at 11070, 2000 games on the
    // 4000-opening book, +10.8 +- 13.2 Elo (LOS 94.5%).
    if (shared_.features.quietChecks && depth >= DEPTH_QS && !ss->inCheck && bestValue < beta) {
        MoveList checks;
        generateQuietChecks(pos, checks);
        for (Move move : checks) {
            shared_.tt.prefetch(keyAfter(pos, move));
            if (seeGE(pos, move, 0) && pos.isLegal(move) && searchMove(move)) break;
        }
    }

    if (ss->inCheck && bestValue == -VALUE_INFINITE) return matedIn(ss->ply);

    tte->save(key, valueToTT(bestValue, ss->ply), ttPv, bestValue >= beta ? BOUND_LOWER : BOUND_UPPER,
              ttDepth, bestMove, ss->staticEval, shared_.tt.generation());
    return bestValue;
}

}  // namespace xq::search
