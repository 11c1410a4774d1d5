// Small text helpers every part may use: trimming the whitespace around a field of a line, splitting a line
// into its words, reading a setting's whole number.
#pragma once

#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xq {

// s without the spaces, tabs, carriage returns and line feeds at either end.
inline std::string trim(std::string_view s) {
    constexpr std::string_view space = " \t\r\n\f\v";
    const auto first = s.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    return std::string(s.substr(first, s.find_last_not_of(space) - first + 1));
}

// The words of s: the runs between spaces, tabs, carriage returns and line feeds (as `>>` reads them, without
// a stream per line).
inline std::vector<std::string> words(std::string_view s) {
    constexpr std::string_view space = " \t\r\n\f\v";
    std::vector<std::string> out;
    for (auto first = s.find_first_not_of(space); first != std::string_view::npos;) {
        const auto end = s.find_first_of(space, first);
        out.emplace_back(s.substr(first, end == std::string_view::npos ? end : end - first));
        first = end == std::string_view::npos ? end : s.find_first_not_of(space, end);
    }
    return out;
}

// The whole number of a `key=value` setting given to `flag`, within [min, max]; throws std::invalid_argument
// "<flag>: <key> must be a whole number from MIN to MAX, got 'VALUE'" (a long value cut to 100 characters).
inline long settingNumber(const std::string& flag, const std::string& key, std::string_view value, long min,
                          long max) {
    long v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || v < min || v > max)
        throw std::invalid_argument(flag + ": " + key + " must be a whole number from " +
                                    std::to_string(min) + " to " + std::to_string(max) + ", got '" +
                                    std::string(value.substr(0, 100)) + (value.size() > 100 ? "...'" : "'"));
    return v;
}

}  // namespace xq
