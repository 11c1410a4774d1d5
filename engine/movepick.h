// Move ordering: history tables, static exchange evaluation and the staged move picker.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <limits>

#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

namespace xq {

// Piece values for ordering and exchanges (not the evaluation's weights: these must stay fixed).
constexpr int SeeValue[PIECE_TYPE_NB] = {0, 20000, 200, 200, 400, 900, 450, 100};

// Static exchange evaluation: the material balance of the capture sequence on m's target square, from
// the mover's view, both sides always recapturing with their least valuable piece when it pays.
int see(const Position& pos, Move m);
// Whether see(pos, m) >= threshold, stopping the exchange as soon as the answer is known.
bool seeAtLeast(const Position& pos, Move m, int threshold);
inline bool seeGE(const Position& pos, Move m, int threshold) {
    // Cheap bounds first: the exchange never wins more than the victim, and never loses more than the mover
    // after winning the victim.
    int victim = SeeValue[typeOf(pos.pieceOn(toSq(m)))];
    if (victim < threshold) return false;
    if (victim - SeeValue[typeOf(pos.movedPiece(m))] >= threshold) return true;
    return seeAtLeast(pos, m, threshold);
}

// givesCheckFast for a move that passed mayCheck.
bool givesCheckNearKing(const Position& pos, Move m);
// Whether the pseudo-legal move m checks the opponent's king: the same answer as Position::givesCheck in a
// legal position (the opponent not in check already), read off the mailbox without building the board after
// the move (the searcher asks this of most moves it makes).
// The mayCheck filter, which most moves fail, is inline: a call that returns at once still saves and
// restores the registers the full test needs.
inline bool givesCheckFast(const Position& pos, Move m) {
    const Color us = colorOf(pos.pieceOn(fromSq(m)));
    return mayCheck(pos.kingSquare(~us), fromSq(m), toSq(m)) && givesCheckNearKing(pos, m);
}

// The quiet pseudo-legal moves that check the opponent's king (givesCheckFast), in the order generate<QUIETS>
// gives them; the side to move must not be in check. Most moves are settled by a bitboard test of their
// target: only pieces on the king's lines or horse legs, which may uncover a check, take the full test.
void generateQuietChecks(const Position& pos, MoveList& list);

inline int moveIndex(Move m) {
    return fromSq(m) * SQUARE_NB + toSq(m);
}

// A history counter that saturates: each update moves it by bonus and pulls it back towards zero.
template <int Limit>
struct StatEntry {
    std::int16_t value = 0;
    operator int() const { return value; }
    void update(int bonus) {
        bonus = bonus > Limit ? Limit : bonus < -Limit ? -Limit : bonus;
        value = std::int16_t(value + bonus - value * std::abs(bonus) / Limit);
    }
};

constexpr int HISTORY_LIMIT = 16384;
using HistoryEntry = StatEntry<HISTORY_LIMIT>;

// Quiet-move history by side and from/to squares.
struct ButterflyHistory {
    HistoryEntry table[COLOR_NB][SQUARE_NB * SQUARE_NB];
};
// History of a move by moved piece and target square, in the context of an earlier move.
struct PieceToHistory {
    HistoryEntry table[PIECE_NB][SQUARE_NB];
};
struct ContinuationHistory {
    PieceToHistory table[PIECE_NB][SQUARE_NB];
};

// Hands out moves one at a time in a promising order, generating lazily by stage. Moves are pseudo-legal;
// the caller tests legality.
class MovePicker {
  public:
    // Main search.
    MovePicker(const Position& pos, Move ttMove, const ButterflyHistory* history,
               const PieceToHistory** contHist, const Move* killers);
    // Quiescence search: captures only, or every evasion when in check.
    MovePicker(const Position& pos, Move ttMove, const ButterflyHistory* history,
               const PieceToHistory** contHist);

    Move next(bool skipQuiets = false);
    // Whether the move next() just returned came from the good captures, so is known not to lose material
    // (SEE >= 0): the search need not run the exchange again.
    bool pickedGoodCapture() const { return stage_ == GOOD_CAPTURE; }

  private:
    enum Stage {
        MAIN_TT,
        CAPTURE_INIT,
        GOOD_CAPTURE,
        KILLER_0,
        KILLER_1,
        QUIET_INIT,
        QUIET,
        BAD_CAPTURE,
        EVASION_TT,
        EVASION_INIT,
        EVASION,
        QSEARCH_TT,
        QCAPTURE_INIT,
        QCAPTURE,
        DONE
    };

    // The score in the high half and the move in the low 16 bits of one integer. Quiet entries also carry,
    // in bits 24-31, their rank in generation order (counting down) and, in bits 16-23, their index in
    // moves_: the largest key is then the first of the highest scores, found by a plain maximum (vector
    // instructions), and it says where it is.
    struct ScoredMove {
        std::int64_t key;
        Move move() const { return Move(key & 0xFFFF); }
        int score() const { return int(key >> 32); }
    };
    static ScoredMove scored(Move m, int score) { return {std::int64_t(std::uint64_t(score) << 32) | m}; }
    void takeQuiet(ScoredMove* p);
    static constexpr std::int64_t NoKey = std::numeric_limits<std::int64_t>::min();  // no score is this low
    struct QuietSink;
    struct CaptureSink;
    struct EvasionSink;
    template <GenType T>
    void generateAndScore();
    Move pickBest(ScoredMove* end);
    Move pickBestQuiet();
    bool isKiller(Move m) const { return killers_ && (m == killers_[0] || m == killers_[1]); }

    const Position& pos_;
    const ButterflyHistory* history_;
    const PieceToHistory** contHist_;
    const Move* killers_ = nullptr;
    Move ttMove_;
    int stage_;
    ScoredMove* cur_;
    ScoredMove* end_;
    ScoredMove* badCapturesEnd_;
    std::int64_t firstQuietKey_;  // the largest quiet key if known from generation, else NoKey
    ScoredMove moves_[MAX_MOVES];
};

}  // namespace xq
