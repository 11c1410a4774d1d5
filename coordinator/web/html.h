// Small pieces for writing HTML safely: every text that comes from a user, a worker or an engine goes
// through escape() (element text and quoted attribute values alike), and numbers and times are
// formatted in one place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/text.h"

namespace xq::coord::html {

// Escapes &, <, >, " and ' so the text is inert in element content and in quoted attributes.
std::string escape(std::string_view text);
// Percent-encodes for a URL query value.
std::string urlEncode(std::string_view text);
// printf-style for one number, e.g. fixed(3.14159, 2) == "3.14", never "-0.0" (util/text.h).
using ::xq::fixed;
// "12 s", "5 min", "3 h", "2 d" since the given Unix time (seconds); "-" for 0.
std::string age(std::int64_t unixSeconds, std::int64_t nowUnix);
// A span of time: "0.4 s" (under 10 s with a fraction), "12 s", "5 min", "3 h", "2 d"; "-" when negative
// or not a number.
std::string duration(double seconds);
// "2026-12-02 03:04 UTC"; "-" for 0.
std::string utcTime(std::int64_t unixSeconds);
// 1234567 -> "1.23M", 12345 -> "12.3k".
std::string compact(double v);

}  // namespace xq::coord::html
