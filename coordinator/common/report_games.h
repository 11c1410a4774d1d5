// The games a worker sends with a report: gzip-compressed game records, with the limits and the check both
// sides apply (the worker before it sends, the coordinator before it stores).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace xq::coord {

constexpr std::size_t MaxReportPgnBytes = 1 << 20;       // compressed, per report
constexpr std::size_t MaxReportPgnTextBytes = 16 << 20;  // inflated: guards against gzip bombs

// Checks a report's gzip PGN: it inflates within the limits and holds exactly `games` games (counted by
// their [Event tags). Throws std::invalid_argument saying what is wrong.
void checkReportPgn(std::string_view pgnGz, std::int64_t games);

}  // namespace xq::coord
