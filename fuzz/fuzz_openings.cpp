// Opening files (EPD, PGN or FEN lines): read into openings whose moves are legal from their FEN, or
// refused with std::invalid_argument / std::runtime_error naming the source and line.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "openings.h"
#include "position.h"
#include "rules.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        for (const auto& opening : xq::match::parseOpenings(text, "fuzz.epd")) {
            xq::Position pos(opening.fen);
            for (const auto& m : opening.moves) {
                const auto move = xq::parseMove(pos, m);
                if (!move) __builtin_trap();  // an opening's moves are legal
                pos.doMove(*move);
            }
        }
    } catch (const std::invalid_argument&) {
    } catch (const std::runtime_error&) {
    }
    return 0;
}
