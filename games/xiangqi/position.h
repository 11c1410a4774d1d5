// The board: pieces, side to move, Zobrist key, make/unmake with a history of states.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "attacks.h"
#include "types.h"

namespace xq {

// Thrown for a FEN that cannot be a Xiangqi position; what() names what and where.
struct FenError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What one ply changed, kept so the move can be undone and repetitions judged.
struct StateInfo {
    std::uint64_t key = 0;      // Zobrist key of the position after the move
    Move move = MOVE_NONE;      // the move that led here (MOVE_NONE for the root)
    Piece captured = NO_PIECE;  // what the move took
    bool checkGiven = false;    // the side to move is in check in this position
    int rule60 = 0;             // plies since the last capture (the move-limit counter)
    int pliesFromNull = 0;      // plies since a null move or the root; bounds repetition look-back

    // Filled on first use by the legal move generator: pieces of the side to move whose leaving their square
    // may expose its king, and empty squares where any piece would become a cannon's screen against it.
    mutable bool safetyKnown = false;
    mutable Bitboard kingBlockers = 0, screenSquares = 0;
};

class Position {
  public:
    static constexpr const char* StartFEN =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    Position();  // the start position
    explicit Position(std::string_view fen) { setFen(fen); }

    // Strict parsing: throws FenError naming what is wrong and where. "r" is accepted for Red.
    void setFen(std::string_view fen);
    std::string fen() const;
    std::string pretty() const;  // ASCII diagram for humans

    Piece pieceOn(Square s) const { return board_[s]; }
    Color sideToMove() const { return side_; }
    Bitboard occupied() const { return sets_.occupied(); }
    Bitboard pieces(Color c) const { return sets_.byColor[c]; }
    Bitboard pieces(Color c, PieceType pt) const { return sets_.of(c, pt); }
    Bitboard pieces(PieceType pt) const { return sets_.byType[pt]; }
    const PieceSets& pieceSets() const { return sets_; }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }
    Square kingSquare(Color c) const { return kingSq_[c]; }
    // Occupancy of one rank (bit = file) or one file (bit = rank), for the line tables (attacks.h).
    unsigned rankOcc(int rank) const { return rankBits_[RED][rank] | rankBits_[BLACK][rank]; }
    unsigned fileOcc(int file) const { return fileBits_[RED][file] | fileBits_[BLACK][file]; }
    unsigned rankOcc(Color c, int rank) const { return rankBits_[c][rank]; }
    unsigned fileOcc(Color c, int file) const { return fileBits_[c][file]; }
    // The rank and the file through s packed into one word (packLines, attacks.h): every piece, or colour
    // c's.
    std::uint32_t linesThrough(Square s) const { return packLines(rankOcc(rankOf(s)), fileOcc(fileOf(s))); }
    std::uint32_t linesThrough(Color c, Square s) const {
        return packLines(rankOcc(c, rankOf(s)), fileOcc(c, fileOf(s)));
    }

    std::uint64_t key() const { return st().key; }
    bool inCheck() const { return st().checkGiven; }
    int rule60() const { return st().rule60; }  // plies since the last capture
    int gamePly() const { return gamePly_; }    // plies since the FEN's move number
    int fullmoveNumber() const { return 1 + gamePly_ / 2; }

    // Moves made since setFen, in order, and the states after each (index 0 is the root).
    int historyLength() const { return int(history_.size()) - 1; }
    const StateInfo& state(int pliesAgo = 0) const { return history_[history_.size() - 1 - pliesAgo]; }

    void doMove(Move m);
    // The same for a legal move whose check status the caller already knows (givesCheck(m)).
    void doMove(Move m, bool givesCheck);
    void undoMove();
    void doNullMove();
    void undoNullMove();

    bool isCapture(Move m) const { return board_[toSq(m)] != NO_PIECE; }
    Piece movedPiece(Move m) const { return board_[fromSq(m)]; }
    // Whether m is a move the piece on its from-square can make here (for TT and killer moves).
    bool isPseudoLegal(Move m) const;
    // Whether a pseudo-legal move leaves the mover's king safe (also rules out facing kings). Out of check, a
    // move of another piece that neither leaves one of the king's lines or horse legs nor lands on one of its
    // lines cannot expose it (mayExpose): that test, which most moves pass, is inline.
    bool isLegal(Move m) const {
        const Square from = fromSq(m), ksq = kingSq_[side_];
        if (from != ksq && !inCheck() && !mayExpose(ksq, from, toSq(m))) return true;
        return isLegalNearKing(m);
    }
    bool givesCheck(Move m) const;

    // Every piece of side `by` that attacks s under occupancy occ (for SEE and the chase rule).
    Bitboard attackersTo(Square s, Color by, Bitboard occ) const {
        return xq::attackersTo(sets_, s, by, occ);
    }
    Bitboard attackersTo(Square s, Color by) const { return xq::attackersTo(sets_, s, by, occupied()); }
    // The squares a piece of type pt and colour c on s attacks under occupancy occ.
    Bitboard attacksFrom(PieceType pt, Color c, Square s, Bitboard occ) const {
        return xq::attacksFrom(pt, c, s, occ);
    }
    // Whether side `by` attacks square s (not counting the flying-general rule, which only concerns kings).
    bool isAttacked(Square s, Color by) const { return attackersTo(s, by) != 0; }
    // Whether the piece on `from` may capture on `to` without exposing its own king (whoever is to move).
    bool captureIsLegal(Square from, Square to) const;
    // Whether the piece on s is pinned to its own king: lifted off the board, it would leave that king
    // attacked (by a rook or the other king on a line, a cannon through a screen, or a horse whose leg it
    // blocks).
    bool isPinned(Square s) const;

    // Material test used by the insufficient-material draw: can side c ever attack across the river?
    bool hasAttackingMaterial(Color c) const;

  private:
    struct EmptyTag {};
    explicit Position(EmptyTag) {}
    const StateInfo& st() const { return history_.back(); }
    void putPiece(Piece p, Square s);
    void removePiece(Square s);
    void movePiece(Square from, Square to);
    void computeKeyAndCheck();
    void computeKingSafety() const;
    bool isLegalNearKing(Move m) const;  // isLegal for the moves its inline filter leaves
    bool isSafeAfter(Move m) const;      // the full test behind isLegal
    // isSafeAfter for a move of another piece than the king out of check: only what the move changes can
    // expose the king, a line through `from` or `to` or a horse leg at `from`.
    bool isSafeAfterOutOfCheck(Move m) const;
    template <GenType>
    friend void generate(const Position&, struct MoveList&);
    friend bool hasLegalMove(const Position&);

    std::array<Piece, SQUARE_NB> board_{};
    PieceSets sets_{};
    Square kingSq_[COLOR_NB]{SQ_NONE, SQ_NONE};
    std::uint16_t rankBits_[COLOR_NB][RANK_NB]{}, fileBits_[COLOR_NB][FILE_NB]{};
    Color side_ = RED;
    int gamePly_ = 0;
    std::vector<StateInfo> history_;
};

namespace zobrist {
// Computed at compile time, so that making a move reads its keys without a call (splitmix64 from a fixed
// seed: the keys, and with them the bench signature, never change).
struct Keys {
    std::uint64_t psq[PIECE_NB][SQUARE_NB];
    std::uint64_t side;
};
inline constexpr Keys keys = [] {
    Keys k{};
    std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
    auto next = [&seed] {
        std::uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    for (auto& row : k.psq)
        for (auto& key : row) key = next();
    k.side = next();
    return k;
}();
inline std::uint64_t pieceSquare(Piece p, Square s) {
    return keys.psq[p][s];
}
inline std::uint64_t side() {
    return keys.side;
}
}  // namespace zobrist

}  // namespace xq
