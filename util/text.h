// Small text helpers every part may use: trimming the whitespace around a field of a line.
#pragma once

#include <string>
#include <string_view>

namespace xq {

// s without the spaces, tabs, carriage returns and line feeds at either end.
inline std::string trim(std::string_view s) {
    constexpr std::string_view space = " \t\r\n\f\v";
    const auto first = s.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    return std::string(s.substr(first, s.find_last_not_of(space) - first + 1));
}

}  // namespace xq
