// Small text helpers every part may use: trimming the whitespace around a field of a line, splitting a line
// into its words, reading a setting's whole number, printing a number with fixed decimals, counting a noun.
#pragma once

#include <charconv>
#include <cstdio>
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

// Whether c separates words (words(), wordViews()): a space, tab, carriage return, line feed, form feed
// or vertical tab.
constexpr bool isWordSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

// The words of s, as words() below splits them, into `out` (cleared first) as views of s: for a reader of
// many lines that keeps one vector and copies no word. One test a character (find_first_of calls memchr on
// the set of spaces at every character).
inline void wordViews(std::string_view s, std::vector<std::string_view>& out) {
    out.clear();
    const char* p = s.data();
    const char* const end = p + s.size();
    while (true) {
        while (p != end && isWordSpace(*p)) ++p;
        if (p == end) return;
        const char* first = p;
        while (p != end && !isWordSpace(*p)) ++p;
        out.emplace_back(first, std::size_t(p - first));
    }
}

// The words of s: the runs between spaces, tabs, carriage returns and line feeds (as `>>` reads them, without
// a stream per line).
inline std::vector<std::string> words(std::string_view s) {
    std::vector<std::string_view> views;
    wordViews(s, views);
    return std::vector<std::string>(views.begin(), views.end());
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

// v with `decimals` digits after the point (printf's %.*f), never "-0.0": a value that rounds to zero
// prints as zero whatever its sign. The one formatter of figures people read (Elo, LLR, scores).
inline std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string out = buf;
    if (out[0] == '-' && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);
    return out;
}

// "1 worker", "3 workers": the count and the noun, plural unless the count is one; `plural` when the noun
// does not just take an "s" ("crash", "crashes").
inline std::string counted(long long n, std::string_view noun, std::string_view plural = {}) {
    if (n == 1) return "1 " + std::string(noun);
    return std::to_string(n) + " " + (plural.empty() ? std::string(noun) + "s" : std::string(plural));
}

}  // namespace xq
