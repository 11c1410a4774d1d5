// Time-control text: parsed, or std::invalid_argument names the bad part; what parses prints back as
// text that parses to the same control.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "time_control.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    xq::match::TimeControl tc;
    try {
        tc = xq::match::TimeControl::parse(text);
    } catch (const std::invalid_argument&) {
        return 0;
    }
    const std::string canonical = tc.toString();
    xq::match::TimeControl again;
    try {
        again = xq::match::TimeControl::parse(canonical);
    } catch (const std::invalid_argument&) {
        __builtin_trap();  // its own text must read back
    }
    if (!(again == tc)) __builtin_trap();
    return 0;
}
