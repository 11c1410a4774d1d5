// Move text (ICCS) against a few positions: parseMove accepts only a legal move, which can then be
// made and written in Chinese notation; anything else is refused with a reason.
#include <cstdint>
#include <string>
#include <string_view>

#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "rules.h"

namespace {
const char* const Fens[] = {
    xq::Position::StartFEN,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
    "1r2k4/9/9/9/1r5C1/9/9/7C1/9/3K5 b - - 0 1",
    "4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1",
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const xq::Position pos(Fens[data[0] % (sizeof Fens / sizeof *Fens)]);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
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
