// The network's evaluation of a position, and the searcher's accumulators: one per ply, each holding both
// perspectives' hidden sums. A move records what it changed (the moved piece, its two squares, the captured
// piece); the accumulator of a ply is computed from its parent's only when the ply is evaluated (or a
// deeper ply needs it), and unmaking a move is leaving the ply (its parent's accumulator is untouched). A
// full refresh from the position is the fallback when no recent ancestor was computed.
#pragma once

#include <cstdint>

#include "nnue_features.h"
#include "nnue_kernels.h"
#include "nnue_network.h"
#include "xiangqi/position.h"

namespace xq::nnue {

// The debug check of the searcher's incremental updates: compiled in when NDEBUG is not defined or
// XQ_NNUE_VERIFY is (the CMake option XQ_NNUE_VERIFY; tests/engine's test_nnue_verify), it compares every
// evaluation of an AccumulatorStack with a full refresh of the position (both accumulators and the output
// sum) and aborts on a difference, naming the position, the ply, the move and the hidden unit. A release
// build has no trace of it. These are the checks made so far in this process (zero when not compiled in):
// evaluations checked, and those whose last move was a capture.
struct IncrementalChecks {
    std::uint64_t evaluations = 0, captures = 0;
};
IncrementalChecks incrementalChecks();

// The network's evaluation of pos in centipawns, side to move's view, from a full refresh (for `eval`,
// tools and tests; the search uses an AccumulatorStack).
int evaluate(const Network& net, const Position& pos, Backend backend = BEST_BACKEND);
// Both perspectives' accumulators of pos from scratch: out[perspective * H + i].
void refresh(const Network& net, const Position& pos, std::int16_t* out, Backend backend = BEST_BACKEND);

// What a move changed on the board; moved == NO_PIECE for a null move.
struct DirtyPiece {
    Piece moved = NO_PIECE;
    Square from = SQ_NONE, to = SQ_NONE;
    Piece captured = NO_PIECE;
};

class AccumulatorStack {
  public:
    explicit AccumulatorStack(Backend backend = BEST_BACKEND) : backend_(backend) {}

    // Sets the network and computes ply 0 from root; plies 0 .. plies - 1 can be used.
    void reset(const Network& net, const Position& root, int plies);
    const Network* network() const { return net_; }

    // The move from the position at ply - 1 to the one at ply, given before it is made (Position::doMove).
    void push(int ply, Piece moved, Square from, Square to, Piece captured) {
        dirty_[std::size_t(ply)] = {moved, from, to, captured};
        computed_[std::size_t(ply)] = false;
        prefetchRows(dirty_[std::size_t(ply)]);
    }
    void pushNull(int ply) { push(ply, NO_PIECE, SQ_NONE, SQ_NONE, NO_PIECE); }

    // The evaluation of pos, the position at ply, in centipawns from the side to move's view.
    int evaluate(const Position& pos, int ply);
    // The accumulator of one perspective at ply, computed if it was not (for tests).
    const std::int16_t* accumulator(const Position& pos, int ply, Color perspective) {
        if (!computed_[std::size_t(ply)]) compute(pos, ply);
        return entry(ply, perspective);
    }
    // How many plies back the lazy update may reach before a full refresh is cheaper.
    static constexpr int MAX_UPDATE_DISTANCE = 8;

  private:
    // The weight rows a move's update will read start loading now, while the move is made: the update comes
    // when the child is evaluated, and otherwise waits on the rows (W1 is 630 KB at H = 256).
    void prefetchRows(const DirtyPiece& d) const {
        if (d.moved == NO_PIECE) return;
        const std::size_t rowBytes = std::size_t(hidden_) * sizeof(std::int16_t);
        for (Color p : {RED, BLACK}) {
            const auto& index = Features.index[p];
            prefetchRow(net_->row(index[d.moved][d.to]), rowBytes);
            prefetchRow(net_->row(index[d.moved][d.from]), rowBytes);
            if (d.captured != NO_PIECE) prefetchRow(net_->row(index[d.captured][d.to]), rowBytes);
        }
    }
    static void prefetchRow(const std::int16_t* row, std::size_t bytes) {
        const char* p = reinterpret_cast<const char*>(row);
        for (std::size_t at = 0; at < bytes; at += 64) __builtin_prefetch(p + at);
    }
    std::int16_t* entry(int ply, Color perspective) {
        return acc_.data() + (std::size_t(ply) * 2 + std::size_t(perspective)) * std::size_t(hidden_);
    }
    void compute(const Position& pos, int ply);
    template <Backend B>
    void computeWith(const Position& pos, int ply);
    template <Backend B>
    void updateFrom(int ply);
    template <Backend B>
    int evaluateWith(const Position& pos, int ply);
    // The debug check (IncrementalChecks above); defined only when compiled in.
    void checkAgainstRefresh(const Position& pos, int ply, std::int32_t sum);
    UpdateRows rowsOf(int ply, Color perspective) {
        const DirtyPiece& d = dirty_[std::size_t(ply)];
        const auto& index = Features.index[perspective];
        return {entry(ply - 1, perspective), entry(ply, perspective), net_->row(index[d.moved][d.to]),
                net_->row(index[d.moved][d.from]),
                d.captured != NO_PIECE ? net_->row(index[d.captured][d.to]) : nullptr};
    }

    Backend backend_;
    const Network* net_ = nullptr;
    int hidden_ = 0;
    AlignedVector<std::int16_t> acc_;  // [ply][perspective][H]
    std::vector<DirtyPiece> dirty_;
    std::vector<char> computed_;
};

}  // namespace xq::nnue
