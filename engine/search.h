// The alpha-beta searcher: one Worker per thread (Lazy SMP), sharing the transposition table and the stop
// flag through SearchShared.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "evaluate.h"
#include "movepick.h"
#include "nnue_accumulator.h"
#include "timeman.h"
#include "tt.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"

namespace xq::search {

constexpr int MAX_PLY = 128;
constexpr int VALUE_DRAW = 0;
constexpr int VALUE_MATE = 32000;
constexpr int VALUE_INFINITE = 32001;
constexpr int VALUE_NONE = 32002;
constexpr int VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr int VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
static_assert(eval::EVAL_LIMIT < VALUE_MATE_IN_MAX_PLY, "an evaluation must never look like a mate");

constexpr int mateIn(int ply) {
    return VALUE_MATE - ply;
}
constexpr int matedIn(int ply) {
    return -VALUE_MATE + ply;
}

struct RootMove {
    explicit RootMove(Move m) : pv{m} {}
    bool operator==(Move m) const { return pv[0] == m; }

    int score = -VALUE_INFINITE;
    int previousScore = -VALUE_INFINITE;
    int selDepth = 0;
    bool scoreLowerbound = false;
    bool scoreUpperbound = false;
    std::vector<Move> pv;
};

// One line of search progress, as `info` reports it.
struct InfoLine {
    int depth = 0;
    int selDepth = 0;
    int multiPV = 1;
    int score = 0;  // internal units, side to move's view
    bool lowerbound = false;
    bool upperbound = false;
    std::uint64_t nodes = 0;
    TimePoint time = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

// Search features that can be switched off, to measure what each is worth in self-play (UCI option
// "Disable", e.g. "nullmove,lmr"). All on by default.
struct Features {
    bool nullMove = true;
    bool lmr = true;
    bool futility = true;  // futility, move-count and history pruning of quiet moves
    bool reverseFutility = true;
    bool checkExtension = true;
    bool aspiration = true;
    bool seePruning = true;  // of captures that lose material
    bool killers = true;
    bool history = true;              // butterfly history (ordering and LMR)
    bool continuationHistory = true;  // history of a move after the previous one and two
    bool mateDistance = true;         // mate distance pruning
    bool quietChecks = true;          // quiet checks on the first quiescence ply
    // Parses "nullmove,lmr,..." (or "none"); false with the unknown name in *bad.
    bool parse(const std::string& list, std::string* bad);
};

// What every thread of one search shares.
struct SearchShared {
    Features features;
    // The rules the search scores repetitions and the move limit by (UCI option Repetition Rule).
    RuleSet ruleSet = RuleSet::ASIAN;
    TranspositionTable tt;
    std::atomic<bool> stop{false};
    // Set once the main thread has searched every root move at depth 1: before that the clock and the node
    // limit do not stop the search, so even a tiny budget answers with a searched move, not the first one.
    std::atomic<bool> rootSearched{false};
    SearchLimits limits;
    TimeManager time;
    int multiPV = 1;
    int maxDepth = MAX_PLY - 1;
    // Sum of the nodes of all workers; set by the thread pool.
    std::function<std::uint64_t()> totalNodes;
    // Progress reports from the main thread (may be empty: bench is silent).
    std::function<void(const InfoLine&)> onInfo;
    // The network the search evaluates with; null for the hand-written evaluation.
    std::shared_ptr<const nnue::Network> network;
};

// The per-ply search state.
struct Stack {
    Move* pv = nullptr;
    PieceToHistory* contHist = nullptr;
    int ply = 0;
    Move currentMove = MOVE_NONE;
    Move killers[2] = {MOVE_NONE, MOVE_NONE};
    int staticEval = VALUE_NONE;
    int statScore = 0;
    int moveCount = 0;
    bool inCheck = false;
    eval::Accumulator acc;  // material and piece squares of the position at this ply (hand-written eval)
};

class Worker {
  public:
    Worker(int id, SearchShared& shared);
    void clearHistory();
    // Sets up a search from pos (its history is kept: repetitions reach back into the game).
    void prepare(const Position& pos, const std::vector<Move>& rootMoves);
    void iterativeDeepening();

    int id() const { return id_; }
    bool isMain() const { return id_ == 0; }
    std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    int completedDepth() const { return completedDepth_; }
    const std::vector<RootMove>& rootMoves() const { return rootMoves_; }

  private:
    enum NodeType { NON_PV, PV, ROOT };

    template <NodeType Type>
    int search(Position& pos, Stack* ss, int alpha, int beta, int depth, bool cutNode);
    template <NodeType Type>
    int qsearch(Position& pos, Stack* ss, int alpha, int beta, int depth = 0);

    void checkTime();
    void reportPVs(int depth);
    void updateQuietStats(const Position& pos, Stack* ss, Move move, int bonus);
    void updateContinuation(Stack* ss, Piece pc, Square to, int bonus);
    int reduction(bool improving, int depth, int moveCount) const;
    // The static evaluation of pos (the position at ss->ply) from the side to move's view, within
    // +-EVAL_LIMIT: the network's when the search has one, else the hand-written one.
    // The hand-written path stays inline as it was; the network's is a call, small beside its work.
    int evaluate(const Position& pos, Stack* ss) {
        if (net_) return evaluateNnue(pos, ss);
        return eval::evaluateForSideToMove(pos, ss->acc);
    }
    int evaluateNnue(const Position& pos, Stack* ss);
    // Records a move about to be made (moved goes from `from` to `to`, taking captured or NO_PIECE) for the
    // evaluation at the next ply.
    void pushMove(Stack* ss, Piece moved, Square from, Square to, Piece captured) {
        if (net_)
            nnue_.push(ss->ply + 1, moved, from, to, captured);
        else
            (ss + 1)->acc = eval::afterMove(ss->acc, moved, from, to, captured);
    }
    void pushNullMove(Stack* ss) {
        if (net_)
            nnue_.pushNull(ss->ply + 1);
        else
            (ss + 1)->acc = ss->acc;
    }

    const int id_;
    SearchShared& shared_;
    Position rootPos_;
    std::vector<RootMove> rootMoves_;
    std::atomic<std::uint64_t> nodes_{0};
    int rootDepth_ = 0;
    int completedDepth_ = 0;
    int selDepth_ = 0;
    int pvIndex_ = 0;
    int callsCount_ = 0;
    int nmpMinPly_ = 0;  // null moves are off below this ply while a null-move result is verified
    std::unique_ptr<ButterflyHistory> history_;
    std::unique_ptr<ContinuationHistory> contHistory_;
    // The network of this search (shared_.network, read at prepare) and its accumulators by ply.
    const nnue::Network* net_ = nullptr;
    nnue::AccumulatorStack nnue_;
};

// ICCS text of a PV.
std::string pvString(const std::vector<Move>& pv);

}  // namespace xq::search
