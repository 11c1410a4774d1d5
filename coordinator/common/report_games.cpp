#include "report_games.h"

#include <cctype>
#include <stdexcept>
#include <string>

#include "data_chunk.h"

namespace xq::coord {

std::int64_t countSgfGameTrees(std::string_view sgf) {
    // One pass, linear in the text (hostile reports stay cheap), with the structure capturego/sgf.h's
    // parser asks for: every tree opens with a node (';'), and outside values a tree holds only nodes,
    // property names (letters), values, subtrees and spaces.
    std::int64_t trees = 0;
    int depth = 0;
    bool inValue = false, expectNode = false;
    for (std::size_t i = 0; i < sgf.size(); ++i) {
        const char c = sgf[i];
        if (inValue) {
            if (c == '\\')
                ++i;
            else if (c == ']')
                inValue = false;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (expectNode && c != ';') return -1;
        expectNode = false;
        if (c == '(') {
            if (depth++ == 0) ++trees;
            expectNode = true;
        } else if (depth == 0) {
            return -1;
        } else if (c == ')') {
            --depth;
        } else if (c == '[') {
            inValue = true;
        } else if (c != ';' && !std::isalpha(static_cast<unsigned char>(c))) {
            return -1;
        }
    }
    return depth == 0 && !inValue ? trees : -1;
}

void checkReportPgn(std::string_view pgnGz, std::int64_t games, GameRecords format) {
    const char* what = format == GameRecords::Sgf ? "SGF" : "PGN";
    if (pgnGz.size() > MaxReportPgnBytes)
        throw std::invalid_argument(std::string(what) + " of " + std::to_string(pgnGz.size()) +
                                    " compressed bytes is over the " + std::to_string(MaxReportPgnBytes) +
                                    "-byte limit of one report");
    std::string text = gunzipText(pgnGz, MaxReportPgnTextBytes);
    if (format == GameRecords::Sgf) {
        const std::int64_t trees = countSgfGameTrees(text);
        if (trees < 0) throw std::invalid_argument("SGF is not a collection of game trees");
        if (trees != games)
            throw std::invalid_argument("SGF holds " + std::to_string(trees) + " game trees, the report " +
                                        std::to_string(games) + " games");
        return;
    }
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
