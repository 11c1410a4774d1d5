#include "pgn.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "board.h"

namespace xq::match {

namespace {

std::string quoted(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string moveComment(const MoveRecord& m) {
    if (!m.searched) return "";
    char buf[64];
    std::string out;
    if (m.score.kind == Score::Cp) {
        std::snprintf(buf, sizeof buf, "%+.2f/%d ", m.score.value / 100.0, m.depth);
        out += buf;
    } else if (m.score.kind == Score::Mate) {
        std::snprintf(buf, sizeof buf, "%sM%d/%d ", m.score.value > 0 ? "+" : "-", std::abs(m.score.value),
                      m.depth);
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "%.3fs", m.timeMs / 1000.0);
    out += buf;
    return out;
}

// Wraps the movetext at 80 columns as PGN export format asks.
class MoveText {
  public:
    void add(const std::string& token) {
        if (!line_.empty() && line_.size() + 1 + token.size() > 79) {
            out_ += line_ + "\n";
            line_.clear();
        }
        if (!line_.empty()) line_ += ' ';
        line_ += token;
    }
    std::string str() const { return out_ + line_ + "\n"; }

  private:
    std::string out_, line_;
};

}  // namespace

const char* terminationTag(const GameRecord& game) {
    switch (game.end) {
        case GameEnd::Rules:
            return "normal";
        case GameEnd::Resignation:
            return "normal";
        case GameEnd::ResignAdjudication:
        case GameEnd::DrawAdjudication:
        case GameEnd::MaxLength:
            return "adjudication";
        case GameEnd::Abandoned:
            return "abandoned";
        case GameEnd::EngineFailure:
            break;
    }
    switch (game.failure) {
        case Failure::TimeLoss:
            return "time forfeit";
        case Failure::IllegalMove:
            return "rules infraction";
        case Failure::Stall:
            return "stalled connection";
        default:
            return "emergency";
    }
}

std::string formatPgn(const GameRecord& game, const MatchConfig& config, int round) {
    const EngineConfig& red = config.engines[game.redEngine];
    const EngineConfig& black = config.engines[1 - game.redEngine];
    std::ostringstream out;
    auto tag = [&](const char* name, const std::string& value) {
        out << '[' << name << " \"" << quoted(value) << "\"]\n";
    };
    tag("Event", config.event);
    tag("Site", "?");
    tag("Date", game.date);
    tag("Round", std::to_string(round));
    const bool chess = config.game == games::Game::Chess;
    // Chess PGN is the standard's: White/Black, SAN, SetUp/FEN only away from the start position.
    tag(chess ? "White" : "Red", red.name);
    tag("Black", black.name);
    tag("Result", resultString(game.result));
    if (!chess) {
        tag("Game", "Chinese Chess");
        tag("Variant", "xiangqi");
        tag("Rules", ruleSetName(config.adjudication.rules.ruleSet));
        tag("Format", "ICCS");
    }
    if (!chess || game.startFen != games::startFen(games::Game::Chess)) {
        tag("SetUp", "1");
        tag("FEN", game.startFen);
    }
    if (red.tc == black.tc) {
        tag("TimeControl", red.tc.toString());
    } else {
        tag(chess ? "WhiteTimeControl" : "RedTimeControl", red.tc.toString());
        tag("BlackTimeControl", black.tc.toString());
    }
    tag("PlyCount", std::to_string(game.openingMoves.size() + game.moves.size()));
    tag("Termination", terminationTag(game));
    out << "\n";

    // Move numbers follow the FEN's side to move and full-move counter.
    std::istringstream fen(game.startFen);
    std::string placement, side, castling, ep;
    int halfmove = 0, fullmove = 1;
    fen >> placement >> side >> castling >> ep >> halfmove >> fullmove;
    bool redToMove = side != "b";
    int number = fullmove > 0 ? fullmove : 1;

    MoveText text;
    bool first = true;
    // The moves are replayed to write them as the game's PGN writes moves (SAN in chess); a move the board
    // refuses (the game's record is already checked, so none should) is written as recorded.
    std::unique_ptr<games::Board> board;
    try {
        board = games::makeBoard(config.game, game.startFen);
    } catch (const std::invalid_argument&) {
    }
    auto addMove = [&](const std::string& move, const std::string& comment) {
        if (redToMove)
            text.add(std::to_string(number) + ".");
        else if (first)
            text.add(std::to_string(number) + "...");
        if (board) {
            std::string written = board->pgnMove(move);
            if (!board->play(move)) board.reset();
            text.add(written);
        } else {
            text.add(move);
        }
        if (!comment.empty()) text.add("{" + comment + "}");
        if (!redToMove) ++number;
        redToMove = !redToMove;
        first = false;
    };
    for (const std::string& m : game.openingMoves) addMove(m, "book");
    for (const MoveRecord& m : game.moves) addMove(m.move, moveComment(m));
    text.add("{" + game.reason + "}");
    text.add(resultString(game.result));
    out << text.str() << "\n";
    return out.str();
}

void appendPgn(const std::string& path, const std::string& text) {
    std::ofstream file(path, std::ios::app | std::ios::binary);
    if (!file) throw std::runtime_error(path + ": cannot open the PGN file for writing");
    file << text;
    if (!file.flush()) throw std::runtime_error(path + ": cannot write the PGN file");
}

namespace {

bool isResult(const std::string& token) {
    return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

// A move number ("12." or "12...") or a numeric annotation glyph ("$1").
bool isNumberOrGlyph(const std::string& token) {
    if (token.size() > 1 && token[0] == '$')
        return token.find_first_not_of("0123456789", 1) == std::string::npos;
    const std::size_t digits = token.find_first_not_of("0123456789");
    return digits > 0 && digits != std::string::npos &&
           token.find_first_not_of('.', digits) == std::string::npos;
}

}  // namespace

std::vector<PgnGame> readPgnGames(const std::string& text) {
    std::vector<PgnGame> games;
    bool inTags = false;  // the last tag section has not met its move text yet
    int depth = 0;        // open variations
    std::size_t openedAt = 0;
    bool inComment = false;
    std::size_t lineNo = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::size_t first = line.find_first_not_of(" \t");
        if (!inComment && depth == 0 && first != std::string::npos && line[first] == '[') {
            if (!inTags) {
                games.emplace_back();
                games.back().line = lineNo;
            }
            inTags = true;
            std::size_t nameEnd = line.find_first_of(" \t", first);
            std::size_t quote = line.find('"', first);
            if (nameEnd == std::string::npos || quote == std::string::npos || quote < nameEnd)
                throw std::invalid_argument("PGN line " + std::to_string(lineNo) +
                                            ": malformed tag: " + line.substr(0, 80));
            std::string name = line.substr(first + 1, nameEnd - first - 1), value;
            std::size_t i = quote + 1;
            for (; i < line.size() && line[i] != '"'; ++i) {
                if (line[i] == '\\' && i + 1 < line.size()) ++i;
                value += line[i];
            }
            if (i >= line.size())
                throw std::invalid_argument("PGN line " + std::to_string(lineNo) +
                                            ": unterminated tag value");
            games.back().tags[name] = value;
            continue;
        }
        if (first == std::string::npos) continue;
        inTags = false;
        if (games.empty()) {
            games.emplace_back();  // move text without tags
            games.back().line = lineNo;
        }
        std::string token;
        auto flush = [&] {
            if (!token.empty() && depth == 0 && !isResult(token) && !isNumberOrGlyph(token)) {
                // "12.h2e2" writes the number and the move as one token.
                const std::size_t dot = token.find_last_of('.');
                games.back().moves.push_back(dot == std::string::npos ? token : token.substr(dot + 1));
                if (games.back().moves.back().empty()) games.back().moves.pop_back();
            }
            token.clear();
        };
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (inComment) {
                if (c == '}') inComment = false;
            } else if (c == '{') {
                flush();
                inComment = true;
                openedAt = lineNo;
            } else if (c == ';') {
                break;
            } else if (c == '(') {
                flush();
                if (depth++ == 0) openedAt = lineNo;
            } else if (c == ')') {
                flush();
                if (depth > 0) --depth;
            } else if (c == ' ' || c == '\t') {
                flush();
            } else {
                token += c;
            }
        }
        flush();
    }
    if (inComment || depth > 0)
        throw std::invalid_argument("PGN line " + std::to_string(openedAt) + ": " +
                                    (inComment ? "a comment" : "a variation") + " is never closed");
    return games;
}

std::vector<std::map<std::string, std::string>> readPgnTags(const std::string& text) {
    std::vector<std::map<std::string, std::string>> tags;
    for (PgnGame& g : readPgnGames(text))
        if (!g.tags.empty()) tags.push_back(std::move(g.tags));
    return tags;
}

}  // namespace xq::match
