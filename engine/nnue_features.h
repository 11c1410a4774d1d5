// The network's input features, PS-1260 (docs/nnue.md): each piece is one active feature per perspective,
//     feature = (relColor * 7 + kind) * 90 + square
// with relColor 0 for the perspective's own pieces, kind in FEN order K A B N R C P, and the square turned by
// 180 degrees for Black's perspective. The rules core knows nothing of this; the searcher and the trainer
// call these functions.
#pragma once

#include <array>
#include <cstdint>

#include "xiangqi/position.h"
#include "xiangqi/types.h"

namespace xq::nnue {

constexpr int KINDS = 7;
constexpr int MAX_ACTIVE_FEATURES = 32;
// The most pieces of one kind and colour a position can hold (the starting numbers, K A B N R C P).
inline constexpr int MaxPiecesOfKind[KINDS] = {1, 2, 2, 2, 2, 2, 5};

// The kind index of a piece type: KING 0 .. PAWN 6 (the engine's PieceType order is already K A B N R C P).
constexpr int kindOf(PieceType pt) {
    return int(pt) - int(KING);
}

constexpr int featureIndex(Color perspective, Piece pc, Square s) {
    const int relColor = colorOf(pc) != perspective;
    const Square seen = perspective == RED ? s : SQUARE_NB - 1 - s;  // 89 - s turns the board
    return (relColor * KINDS + kindOf(typeOf(pc))) * SQUARE_NB + seen;
}

// Every feature index in one table, so a move costs a load per feature: [perspective][piece][square].
struct FeatureTable {
    std::uint16_t index[COLOR_NB][PIECE_NB][SQUARE_NB];
};
inline constexpr FeatureTable Features = [] {
    FeatureTable t{};
    for (Color p : {RED, BLACK})
        for (Color c : {RED, BLACK})
            for (int pt = KING; pt <= PAWN; ++pt)
                for (Square s = 0; s < SQUARE_NB; ++s)
                    t.index[p][makePiece(c, PieceType(pt))][s] =
                        std::uint16_t(featureIndex(p, makePiece(c, PieceType(pt)), s));
    return t;
}();

// The active features of pos from one perspective, in square order; returns how many.
inline int activeFeatures(const Position& pos, Color perspective, std::array<int, MAX_ACTIVE_FEATURES>& out) {
    int n = 0;
    forEachSquare(pos.occupied(), [&](Square s) {
        if (n < MAX_ACTIVE_FEATURES) out[n++] = Features.index[perspective][pos.pieceOn(s)][s];
    });
    return n;
}

}  // namespace xq::nnue
