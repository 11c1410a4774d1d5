// Move text against a few positions: ICCS for Xiangqi (parseMove accepts only a legal move, which can then
// be made and written in Chinese notation), and UCI and SAN for chess (a move read is legal, and its SAN
// reads back to it); anything else is refused with a reason. The first byte picks the position.
#include <cstdint>
#include <string>
#include <string_view>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "xiangqi/movegen.h"
#include "xiangqi/notation.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"

namespace {
const char* const Fens[] = {
    xq::Position::StartFEN,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
    "1r2k4/9/9/9/1r5C1/9/9/7C1/9/3K5 b - - 0 1",
    "4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1",
};
const char* const ChessFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "k7/8/8/8/8/2Q1Q3/8/2Q3K1 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
};

void chessMoveText(int which, std::string_view text) {
    xq::chess::Position pos;
    if (!pos.setFen(ChessFens[which])) __builtin_trap();
    const auto legal = xq::chess::legalMoves(pos);
    for (bool isSan : {false, true}) {
        std::string why;
        auto move = isSan ? xq::chess::parseSan(pos, text, &why) : xq::chess::parseUciMove(pos, text, &why);
        if (!move) {
            if (why.empty()) __builtin_trap();
            continue;
        }
        if (!legal.contains(*move)) __builtin_trap();
        if (xq::chess::parseSan(pos, xq::chess::san(pos, *move)) != move) __builtin_trap();
        if (xq::chess::parseUciMove(pos, xq::chess::uciMove(*move)) != move) __builtin_trap();
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    constexpr int xiangqi = sizeof Fens / sizeof *Fens, chess = sizeof ChessFens / sizeof *ChessFens;
    if (const int which = data[0] % (xiangqi + chess); which >= xiangqi) {
        chessMoveText(which - xiangqi, text);
        return 0;
    }
    const xq::Position pos(Fens[data[0] % xiangqi]);
    std::string why;
    const auto move = xq::parseMove(pos, text, &why);
    if (!move) {
        if (why.empty()) __builtin_trap();  // a refusal names its reason
        return 0;
    }
    bool legal = false;
    for (xq::Move m : xq::legalMoves(pos)) legal |= m == *move;
    if (!legal) __builtin_trap();
    if (xq::chineseNotation(pos, *move).empty()) __builtin_trap();
    xq::Position after = pos;
    after.doMove(*move);
    return 0;
}
