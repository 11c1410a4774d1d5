#include "report_games.h"

#include <stdexcept>
#include <string>

#include "data_chunk.h"

namespace xq::coord {

void checkReportPgn(std::string_view pgnGz, std::int64_t games) {
    if (pgnGz.size() > MaxReportPgnBytes)
        throw std::invalid_argument("PGN of " + std::to_string(pgnGz.size()) +
                                    " compressed bytes is over the " + std::to_string(MaxReportPgnBytes) +
                                    "-byte limit of one report");
    std::string text = gunzipText(pgnGz, MaxReportPgnTextBytes);
    std::int64_t found = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        if (text.compare(pos, 7, "[Event ") == 0) ++found;
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) break;
        pos = nl + 1;
    }
    if (found != games)
        throw std::invalid_argument("PGN holds " + std::to_string(found) + " games, the report " +
                                    std::to_string(games));
}

}  // namespace xq::coord
