// Positions for the engine tests: random playouts and colour-flipped FENs.
#pragma once

#include <cctype>
#include <random>
#include <string>
#include <vector>

#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

namespace xq::test {

// Positions reached by random legal moves from the start (and from each other), skipping finished games.
inline std::vector<std::string> randomPositions(unsigned seed, int count, int maxPlies = 120) {
    std::mt19937 rng(seed);
    std::vector<std::string> fens;
    while (int(fens.size()) < count) {
        Position pos;
        int plies = 1 + int(rng() % unsigned(maxPlies));
        for (int i = 0; i < plies; ++i) {
            MoveList moves = legalMoves(pos);
            if (moves.size == 0) break;
            pos.doMove(moves.moves[rng() % unsigned(moves.size)]);
        }
        if (legalMoves(pos).size > 0) fens.push_back(pos.fen());
    }
    return fens;
}

// The same position with the colours swapped (and the board turned), so Black has what Red had.
inline std::string flipColors(const std::string& fen) {
    std::string board = fen.substr(0, fen.find(' ')), rest = fen.substr(fen.find(' ') + 1);
    std::vector<std::string> ranks;
    for (std::size_t start = 0;;) {
        std::size_t slash = board.find('/', start);
        ranks.push_back(board.substr(start, slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    std::string out;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
        if (!out.empty()) out += '/';
        for (char c : *it) out += std::isalpha(static_cast<unsigned char>(c)) ? char(c ^ 0x20) : c;
    }
    char side = rest[0] == 'b' ? 'w' : 'b';
    return out + " " + side + rest.substr(1);
}

}  // namespace xq::test
