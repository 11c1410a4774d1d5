#include "sgf_record.h"

#include "capturego/game.h"
#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"

namespace xq::match {

namespace {

namespace cg = xq::capturego;

std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == ']' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

std::string formatSgf(const GameRecord& game, const MatchConfig& config) {
    cg::Game record(cg::parsePositionText(game.startFen));
    const int size = record.start().size();
    std::string comment = game.reason;
    auto play = [&](const std::string& text) {
        // Recorded moves were played by the runner's board; one that cannot be replayed ends the record.
        std::string why;
        try {
            if (record.play(cg::parseMove(text, size), &why)) return true;
        } catch (const cg::ParseError& e) {
            why = e.what();
        }
        comment += " (record ends before move " + text + ": " + why + ")";
        return false;
    };
    bool complete = true;
    for (const std::string& m : game.openingMoves)
        if (complete) complete = play(m);
    for (const MoveRecord& m : game.moves)
        if (complete) complete = play(m.move);

    const cg::Color first = record.start().toMove();
    // The seam's first player (RED) is the start position's side to move.
    auto colorOf = [&](bool firstPlayer) { return firstPlayer ? first : cg::opponent(first); };
    record.info.black = config.engines[first == cg::Color::Black ? game.redEngine : 1 - game.redEngine].name;
    record.info.white = config.engines[first == cg::Color::Black ? 1 - game.redEngine : game.redEngine].name;
    record.info.date = game.date;
    for (char& c : record.info.date)
        if (c == '.') c = '-';
    record.info.event = config.event;

    const bool firstLost = game.result == GameResult::BLACK_WINS;
    const cg::Color loser = colorOf(firstLost);
    std::string draw;  // a draw the rules did not reach: written by hand, the library has no event for it
    if (!record.isOver()) {
        switch (game.end) {
            case GameEnd::Resignation:
                record.resign(loser);
                break;
            case GameEnd::EngineFailure:
                if (game.failure == Failure::TimeLoss)
                    record.loseOnTime(loser);
                else
                    record.forfeit(loser, game.reason);
                break;
            case GameEnd::ResignAdjudication:
                record.resign(loser);
                break;
            default:
                if (game.result == GameResult::DRAW) draw = "RE[0]";
                break;
        }
    }
    std::string sgf = cg::writeSgf(record);
    // The root node: after the application's name, the draw and the runner's reason.
    const std::string anchor = "AP[xq-capturego:1]";
    std::size_t at = sgf.find(anchor);
    if (at != std::string::npos) {
        std::string extra = draw;
        if (!comment.empty()) extra += "C[" + escape(comment) + "]";
        sgf.insert(at + anchor.size(), extra);
    }
    return sgf;
}

}  // namespace xq::match
