// FEN: a malformed FEN is refused with FenError; a FEN that is read prints back as a FEN that reads to
// the same position, and every legal move of it can be made and judged.
#include <cstdint>
#include <string_view>

#include "movegen.h"
#include "position.h"
#include "rules.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    xq::Position pos;
    try {
        pos.setFen(text);
    } catch (const xq::FenError&) {
        return 0;
    }
    const std::string fen = pos.fen();
    xq::Position again(fen);  // must not throw
    if (again.fen() != fen) __builtin_trap();
    for (xq::Move m : xq::legalMoves(pos)) {
        xq::Position after = pos;
        after.doMove(m);
        (void)xq::adjudicate(after, xq::RuleConfig{});
    }
    return 0;
}
