// Today's date in UTC as text, for the headers of game records (PGN's 2026.12.06, SGF's 2026-12-06).
#pragma once

#include <ctime>
#include <string>

namespace xq {

// Today (UTC) formatted by strftime's format, which must fit 63 characters.
inline std::string utcToday(const char* format) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[64];
    return std::string(buf, std::strftime(buf, sizeof buf, format, &utc));
}

}  // namespace xq
