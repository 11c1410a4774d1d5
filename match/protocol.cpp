#include "protocol.h"

#include <charconv>
#include <stdexcept>

#include "text.h"

namespace xq::match {

namespace {

// Walks the words of a line one at a time: info lines arrive several times a move, so reading them
// must not allocate.
class Words {
  public:
    explicit Words(std::string_view line) : rest_(line) {}
    // The next word, or an empty view at the end of the line.
    std::string_view next() {
        // Plain loops: find_first_of with a set calls memchr per character of the set.
        std::size_t begin = 0, size = rest_.size();
        while (begin < size && isBlank(rest_[begin])) ++begin;
        std::size_t end = begin;
        while (end < size && !isBlank(rest_[end])) ++end;
        std::string_view word = rest_.substr(begin, end - begin);
        rest_.remove_prefix(end);
        return word;
    }
    std::string_view peek() const { return Words(rest_).next(); }

  private:
    static bool isBlank(char c) { return c == ' ' || c == '\t'; }
    std::string_view rest_;
};

bool isIccsSquare(std::string_view s) {
    return s.size() == 2 && s[0] >= 'a' && s[0] <= 'i' && s[1] >= '0' && s[1] <= '9';
}

std::int64_t atLeastOne(std::int64_t ms) {
    return ms > 0 ? ms : 1;
}

class UciAdapter : public ProtocolAdapter {
  public:
    std::string handshake() const override { return "uci"; }
    std::string handshakeReply() const override { return "uciok"; }
    std::vector<std::string> setupCommands(
        const std::vector<std::pair<std::string, std::string>>& options) const override {
        std::vector<std::string> out;
        for (const auto& [name, value] : options) out.push_back("setoption name " + name + " value " + value);
        return out;
    }
    std::string newGameCommand() const override { return "ucinewgame"; }
    std::string goCommand(const TimeControl& tc, const GameClock* clocks, bool redToMove) const override {
        std::string go = "go";
        if (tc.hasClock()) {
            // UCI's white is Xiangqi's red.
            go += " wtime " + std::to_string(atLeastOne(clocks[0].remainingMs()));
            go += " btime " + std::to_string(atLeastOne(clocks[1].remainingMs()));
            if (clocks[0].incrementMs() > 0 || clocks[1].incrementMs() > 0) {
                go += " winc " + std::to_string(clocks[0].incrementMs());
                go += " binc " + std::to_string(clocks[1].incrementMs());
            }
            int movesToGo = clocks[redToMove ? 0 : 1].movesToGo();
            if (movesToGo > 0) go += " movestogo " + std::to_string(movesToGo);
        }
        if (tc.moveTimeMs > 0) go += " movetime " + std::to_string(tc.moveTimeMs);
        if (tc.nodes > 0) go += " nodes " + std::to_string(tc.nodes);
        if (tc.depth > 0) go += " depth " + std::to_string(tc.depth);
        return go;
    }
};

// Fairy-Stockfish: UCI, the variant chosen by option, and ranks counted 1-10.
class FairyAdapter final : public UciAdapter {
  public:
    std::vector<std::string> setupCommands(
        const std::vector<std::pair<std::string, std::string>>& options) const override {
        std::vector<std::string> out{"setoption name UCI_Variant value xiangqi"};
        for (const std::string& cmd : UciAdapter::setupCommands(options)) out.push_back(cmd);
        return out;
    }
    std::string toEngine(const std::string& iccs) const override {
        if (iccs.size() != 4) return iccs;
        std::string out;
        out += iccs[0];
        out += std::to_string(iccs[1] - '0' + 1);
        out += iccs[2];
        out += std::to_string(iccs[3] - '0' + 1);
        return out;
    }
    std::string fromEngine(std::string_view text) const override {
        // file letter, rank 1-10, file letter, rank 1-10: "h3e3", "h10g8"
        std::string out;
        std::size_t i = 0;
        for (int square = 0; square < 2; ++square) {
            if (i >= text.size() || text[i] < 'a' || text[i] > 'i') return {};
            out += text[i++];
            std::size_t digits = i;
            while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
            int rank = 0;
            if (!toInt(text.substr(digits, i - digits), rank) || rank < 1 || rank > 10) return {};
            out += char('0' + rank - 1);
        }
        return i == text.size() ? out : std::string();
    }
};

// Chess over UCI: moves in long algebraic notation (e2e4, e7e8q), as Stockfish and every UCI chess engine
// write them; Fairy-Stockfish plays it with UCI_Variant chess and the same move text.
class ChessUciAdapter : public UciAdapter {
  public:
    explicit ChessUciAdapter(bool fairy) : fairy_(fairy) {}
    std::vector<std::string> setupCommands(
        const std::vector<std::pair<std::string, std::string>>& options) const override {
        std::vector<std::string> out;
        if (fairy_) out.push_back("setoption name UCI_Variant value chess");
        for (const std::string& cmd : UciAdapter::setupCommands(options)) out.push_back(cmd);
        return out;
    }
    std::string fromEngine(std::string_view text) const override {
        auto square = [&](std::size_t i) {
            return text[i] >= 'a' && text[i] <= 'h' && text[i + 1] >= '1' && text[i + 1] <= '8';
        };
        if (text.size() != 4 && text.size() != 5) return {};
        if (!square(0) || !square(2)) return {};
        if (text.size() == 5 && std::string_view("qrbn").find(text[4]) == std::string_view::npos) return {};
        return std::string(text);
    }

  private:
    bool fairy_;
};

// UCCI as ElephantEye speaks it: options are `setoption NAME VALUE`, times are milliseconds
// (usemillisec is the default since UCCI 2.3), and one go mode at a time.
class UcciAdapter final : public ProtocolAdapter {
  public:
    std::string handshake() const override { return "ucci"; }
    std::string handshakeReply() const override { return "ucciok"; }
    std::vector<std::string> setupCommands(
        const std::vector<std::pair<std::string, std::string>>& options) const override {
        std::vector<std::string> out;
        for (const auto& [name, value] : options) out.push_back("setoption " + name + " " + value);
        return out;
    }
    std::string newGameCommand() const override { return ""; }
    std::string goCommand(const TimeControl& tc, const GameClock* clocks, bool redToMove) const override {
        const GameClock& own = clocks[redToMove ? 0 : 1];
        if (tc.hasClock()) {
            std::int64_t time = atLeastOne(own.remainingMs());
            if (tc.moveTimeMs > 0 && tc.moveTimeMs < time)
                return "go time " + std::to_string(tc.moveTimeMs) + " movestogo 1";
            if (own.movesToGo() > 0)
                return "go time " + std::to_string(time) + " movestogo " + std::to_string(own.movesToGo());
            return "go time " + std::to_string(time) + " increment " + std::to_string(own.incrementMs());
        }
        if (tc.moveTimeMs > 0) return "go time " + std::to_string(tc.moveTimeMs) + " movestogo 1";
        if (tc.nodes > 0) return "go nodes " + std::to_string(tc.nodes);
        return "go depth " + std::to_string(tc.depth);
    }
};

}  // namespace

std::string ProtocolAdapter::positionCommand(const std::string& fen,
                                             const std::vector<std::string>& iccsMoves) const {
    std::string cmd = "position fen " + fen;
    appendMoves(cmd, iccsMoves, 0);
    return cmd;
}

void ProtocolAdapter::appendMoves(std::string& command, const std::vector<std::string>& iccsMoves,
                                  std::size_t from) const {
    if (from == 0 && !iccsMoves.empty()) command += " moves";
    for (std::size_t i = from; i < iccsMoves.size(); ++i) {
        command += ' ';
        command += toEngine(iccsMoves[i]);
    }
}

std::string ProtocolAdapter::fromEngine(std::string_view text) const {
    if (text.size() != 4 || !isIccsSquare(text.substr(0, 2)) || !isIccsSquare(text.substr(2, 2))) return {};
    return std::string(text);
}

void ProtocolAdapter::parseInfo(std::string_view line, SearchInfo& info) const {
    Words words(line);
    words.next();  // "info"
    // A word at a time: a key this reads takes its value with it, any other word (a key of no interest or
    // one of its values) is stepped over on its own, so keys with several values cannot misalign the rest.
    for (std::string_view key = words.next(); !key.empty(); key = words.next()) {
        if (key == "depth") {
            toInt(words.next(), info.depth);
        } else if (key == "nodes") {
            toInt(words.next(), info.nodes);
        } else if (key == "score") {
            // UCI: score cp N | score mate N; UCCI: score N.
            std::string_view kind = words.next();
            int value = 0;
            if (kind == "cp" || kind == "mate") {
                if (toInt(words.peek(), value)) {
                    info.score = {kind == "cp" ? Score::Cp : Score::Mate, value};
                    words.next();
                }
            } else if (toInt(kind, value)) {
                info.score = {Score::Cp, value};
            }
        } else if (key == "pv" || key == "string") {
            break;  // the rest is moves or free text
        }
    }
}

std::unique_ptr<ProtocolAdapter> makeProtocolAdapter(Protocol protocol, games::Game game) {
    if (protocol == Protocol::Gtp || game == games::Game::CaptureGo)
        throw std::invalid_argument("Capture Go engines speak GTP, which GtpSession (gtp_session.h) drives");
    if (game == games::Game::Chess) {
        if (protocol == Protocol::Ucci)
            throw std::invalid_argument("UCCI is a Xiangqi protocol: a chess engine speaks uci (or fairy)");
        return std::make_unique<ChessUciAdapter>(protocol == Protocol::Fairy);
    }
    switch (protocol) {
        case Protocol::Ucci:
            return std::make_unique<UcciAdapter>();
        case Protocol::Fairy:
            return std::make_unique<FairyAdapter>();
        case Protocol::Uci:
        case Protocol::Gtp:
            break;
    }
    return std::make_unique<UciAdapter>();
}

}  // namespace xq::match
