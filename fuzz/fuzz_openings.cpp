// Opening files (EPD, PGN or FEN lines) of either game: read into openings whose moves are legal from their
// FEN, or refused with std::invalid_argument / std::runtime_error naming the source and line. The first
// byte picks the game (even: Xiangqi, odd: chess, whose moves may be UCI or SAN and are kept as UCI).
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "board.h"
#include "openings.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const auto game = data[0] % 2 ? xq::games::Game::Chess : xq::games::Game::Xiangqi;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::vector<xq::match::Opening> checked;
    try {
        checked = xq::match::parseOpenings(text, "fuzz.epd", game);
        for (const auto& opening : checked) {
            auto board = xq::games::makeBoard(game, opening.fen);
            for (const auto& m : opening.moves)
                if (!board->play(m)) __builtin_trap();  // an opening's moves are legal, in engine notation
        }
    } catch (const std::invalid_argument&) {
    } catch (const std::runtime_error&) {
    }
    // A deferred read, each line checked afterwards, comes to the same openings; it may refuse only a book
    // the whole read refused.
    try {
        auto deferred = xq::match::parseOpenings(text, "fuzz.epd", game, xq::match::OpeningCheck::Deferred);
        for (auto& opening : deferred) xq::match::checkOpening(opening, game);
        if (deferred.size() != checked.size()) __builtin_trap();
        for (std::size_t i = 0; i < deferred.size(); ++i)
            if (!(deferred[i] == checked[i]) || deferred[i].origin != checked[i].origin) __builtin_trap();
    } catch (const std::invalid_argument&) {
        if (!checked.empty()) __builtin_trap();
    } catch (const std::runtime_error&) {
        if (!checked.empty()) __builtin_trap();
    }
    return 0;
}
