// What an engine prints, in each dialect: `info` lines are read into a search's figures and move text
// into ICCS (or nothing), whatever the engine sends.
#include <cstdint>
#include <string_view>

#include "protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const auto adapters = [] {
        std::vector<std::unique_ptr<xq::match::ProtocolAdapter>> a;
        for (auto p : {xq::match::Protocol::Uci, xq::match::Protocol::Ucci, xq::match::Protocol::Fairy})
            a.push_back(xq::match::makeProtocolAdapter(p));
        return a;
    }();
    const auto& adapter = *adapters[data[0] % adapters.size()];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    xq::match::SearchInfo info;
    adapter.parseInfo(text, info);
    const std::string move = adapter.fromEngine(text);
    if (!move.empty() && move.size() != 4) __builtin_trap();  // ICCS or nothing
    return 0;
}
