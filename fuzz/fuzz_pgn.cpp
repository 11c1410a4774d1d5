// PGN text: every game is read, or std::invalid_argument names the line that is wrong.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "pgn.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto games = xq::match::readPgnGames(text);
        const auto tags = xq::match::readPgnTags(text);  // of the games that have tags
        std::size_t tagged = 0;
        for (const auto& g : games) tagged += !g.tags.empty();
        if (tags.size() != tagged) __builtin_trap();
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
