// Small text tests shared by the match runner's parsers: engine output, option names, opening books.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>

namespace xq::match {

// Whether s is exactly a whole number (no sign beyond '-', no spaces, nothing after it); its value in out.
template <typename Int>
bool toInt(std::string_view s, Int& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

// UCI option names are case-insensitive.
inline bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

}  // namespace xq::match
