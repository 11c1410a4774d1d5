// Protocol adapters: what to send an engine and how to read its answers, for each dialect and game. A
// Xiangqi game speaks ICCS (files a-i, ranks 0-9 from Red's side), a chess game UCI's long algebraic
// notation; adapters translate where an engine differs.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"
#include "match.h"
#include "time_control.h"

namespace xq::match {

// What an engine said about its search, gathered from `info` lines.
struct SearchInfo {
    Score score;
    int depth = 0;
    std::int64_t nodes = 0;
};

class ProtocolAdapter {
  public:
    virtual ~ProtocolAdapter() = default;

    virtual std::string handshake() const = 0;       // "uci" / "ucci"
    virtual std::string handshakeReply() const = 0;  // "uciok" / "ucciok"
    // Commands after the handshake: the engine's options (and the variant for Fairy-Stockfish).
    virtual std::vector<std::string> setupCommands(
        const std::vector<std::pair<std::string, std::string>>& options) const = 0;
    virtual std::string newGameCommand() const = 0;  // empty: none
    std::string positionCommand(const std::string& fen, const std::vector<std::string>& iccsMoves) const;
    // Appends iccsMoves[from...] to a position command that holds the first `from` of them already (the
    // runner extends the last command by the moves played since, instead of writing the game out again).
    void appendMoves(std::string& command, const std::vector<std::string>& iccsMoves, std::size_t from) const;
    // The go command for the side to move; clocks[0] is Red's, clocks[1] Black's.
    virtual std::string goCommand(const TimeControl& tc, const GameClock* clocks, bool redToMove) const = 0;

    // ICCS to the engine's move text and back; fromEngine returns empty for text that is no move.
    virtual std::string toEngine(const std::string& iccs) const { return iccs; }
    virtual std::string fromEngine(std::string_view text) const;

    // Reads an `info` line into info (keeps earlier values for fields the line lacks).
    void parseInfo(std::string_view line, SearchInfo& info) const;
};

// Throws std::invalid_argument for a protocol the game has no use for (UCCI is Xiangqi's alone) and for GTP
// and Capture Go (GtpSession in gtp_session.h speaks GTP; there is no adapter).
std::unique_ptr<ProtocolAdapter> makeProtocolAdapter(Protocol protocol,
                                                     games::Game game = games::Game::Xiangqi);

}  // namespace xq::match
