#include "notation.h"

#include <algorithm>
#include <vector>

namespace xq {

namespace {

const char* const RedNames[PIECE_TYPE_NB] = {"", "帅", "仕", "相", "马", "车", "炮", "兵"};
const char* const BlackNames[PIECE_TYPE_NB] = {"", "将", "士", "象", "马", "车", "炮", "卒"};
const char* const RedNumbers[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
const char* const BlackNumbers[10] = {"", "１", "２", "３", "４", "５", "６", "７", "８", "９"};

// A file's number 1-9 as the side `c` counts it: from its own right.
int fileNumber(Color c, int file) {
    return c == RED ? FILE_NB - file : file + 1;
}

// How far forward `rank` is for side `c`: larger is nearer the other side.
int forwardness(Color c, int rank) {
    return c == RED ? rank : RANK_NB - 1 - rank;
}

}  // namespace

std::string chineseNotation(const Position& pos, Move m) {
    const Square from = fromSq(m), to = toSq(m);
    const Piece piece = pos.pieceOn(from);
    const Color us = colorOf(piece);
    const PieceType type = typeOf(piece);
    const auto& numbers = us == RED ? RedNumbers : BlackNumbers;
    const std::string name = (us == RED ? RedNames : BlackNames)[type];
    const int file = fileOf(from), toFile = fileOf(to);

    // The same pieces on this file, front first.
    std::vector<int> ranks;
    for (int r = 0; r < RANK_NB; ++r)
        if (pos.pieceOn(makeSquare(file, r)) == piece) ranks.push_back(r);
    std::sort(ranks.begin(), ranks.end(),
              [us](int a, int b) { return forwardness(us, a) > forwardness(us, b); });
    std::string out;
    if (ranks.size() < 2 || type == ADVISOR || type == BISHOP) {
        // Advisors and elephants on one file are told apart by where they go, as players write them.
        out = name + numbers[fileNumber(us, file)];
    } else {
        const auto index = std::size_t(std::find(ranks.begin(), ranks.end(), rankOf(from)) - ranks.begin());
        std::string which;
        if (ranks.size() == 2)
            which = index == 0 ? "前" : "后";
        else if (ranks.size() == 3)
            which = index == 0 ? "前" : index == 1 ? "中" : "后";
        else
            which = RedNumbers[index + 1];
        out = which + name;
        if (type == PAWN) {
            // Several files with stacked pawns: the file says which stack.
            int stacks = 0;
            for (int f = 0; f < FILE_NB; ++f) {
                int n = 0;
                for (int r = 0; r < RANK_NB; ++r) n += pos.pieceOn(makeSquare(f, r)) == piece;
                stacks += n >= 2;
            }
            if (stacks > 1) out += numbers[fileNumber(us, file)];
        }
    }

    const int ahead = forwardness(us, rankOf(to)) - forwardness(us, rankOf(from));
    if (ahead == 0) return out + "平" + numbers[fileNumber(us, toFile)];
    out += ahead > 0 ? "进" : "退";
    const bool straight = type == KING || type == ROOK || type == CANNON || type == PAWN;
    return out + numbers[straight ? std::abs(ahead) : fileNumber(us, toFile)];
}

}  // namespace xq
