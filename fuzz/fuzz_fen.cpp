// FEN, of Xiangqi and of chess (the same bytes go to both readers): a malformed FEN is refused (FenError,
// or false with a reason for chess); a FEN that is read prints back as a FEN that reads to the same
// position, and every legal move of it can be made and judged (and, in chess, unmade exactly).
#include <cstdint>
#include <string>
#include <string_view>

#include "chess/movegen.h"
#include "chess/rules.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"

namespace {

void chessFen(std::string_view text) {
    xq::chess::Position pos;
    std::string why;
    if (!pos.setFen(text, &why)) {
        if (why.empty()) __builtin_trap();  // a refusal names its reason
        return;
    }
    const std::string fen = pos.fen();
    xq::chess::Position again;
    if (!again.setFen(fen) || again.fen() != fen || again.key() != pos.key()) __builtin_trap();
    for (xq::chess::Move m : xq::chess::legalMoves(pos)) {
        pos.doMove(m);
        (void)xq::chess::judge(pos);
        xq::chess::Position fresh;  // the key kept by moves equals the key of the FEN reached
        if (!fresh.setFen(pos.fen()) || fresh.key() != pos.key()) __builtin_trap();
        pos.undoMove();
        if (pos.fen() != fen || pos.key() != again.key()) __builtin_trap();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    chessFen(text);
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
