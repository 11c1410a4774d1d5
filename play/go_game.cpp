#include "go_game.h"

#include <ctime>
#include <random>
#include <stdexcept>

#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "util/date.h"

namespace xq::play {

namespace cg = xq::capturego;

namespace {

std::string capitalized(cg::Color c) {
    return c == cg::Color::Black ? "Black" : "White";
}

std::string engineName(int level) {
    return "xq-go (level " + std::to_string(level) + ")";
}

std::uint64_t randomSeed() {
    static std::random_device device;
    return (std::uint64_t(device()) << 32 | device()) % 1000000000ULL;
}

}  // namespace

GoLevel goLevelSettings(int level) {
    static constexpr GoLevel Levels[] = {{0, 100}, {5, 200}, {10, 300}, {14, 500}, {18, 1000}, {20, 2000}};
    if (level < GoMinLevel) level = GoMinLevel;
    if (level > GoMaxLevel) level = GoMaxLevel;
    return Levels[level - GoMinLevel];
}

std::string goSettingsProblem(const GoGameSettings& s) {
    if (s.size < cg::kMinBoardSize || s.size > cg::kMaxBoardSize)
        return "the board size must be " + std::to_string(cg::kMinBoardSize) + " to " +
               std::to_string(cg::kMaxBoardSize) + ", not " + std::to_string(s.size);
    if (s.target < 1 || s.target > s.size * s.size)
        return "the capture target must be 1 to " + std::to_string(s.size * s.size) + " on a " +
               std::to_string(s.size) + "x" + std::to_string(s.size) + " board, not " +
               std::to_string(s.target);
    if (s.level < GoMinLevel || s.level > GoMaxLevel)
        return "level must be a whole number from " + std::to_string(GoMinLevel) + " to " +
               std::to_string(GoMaxLevel);
    return "";
}

std::string goRefusalInWords(const cg::Position& pos, cg::Move move) {
    const std::string name = cg::moveName(move);
    switch (pos.check(move)) {
        case cg::Legality::Legal:
            return "";
        case cg::Legality::OffBoard:
            return name + " is off the " + std::to_string(pos.size()) + "x" + std::to_string(pos.size()) +
                   " board";
        case cg::Legality::Occupied:
            return name + " is occupied";
        case cg::Legality::Suicide:
            return name + " is suicide: the stone would have no liberty and captures nothing";
        case cg::Legality::Superko:
            return name + " repeats an earlier position (superko)";
    }
    return pos.whyIllegal(move);
}

std::string goVerdictInWords(const cg::Result& r) {
    if (!r.isOver()) return "";
    if (r.outcome == cg::Outcome::Draw)
        return "Draw: " + r.reason + " (after two passes with equal captures the area score decides)";
    const std::string winner =
        capitalized(r.outcome == cg::Outcome::BlackWins ? cg::Color::Black : cg::Color::White);
    switch (r.ending) {
        case cg::Ending::CaptureTarget:
            return winner + " wins by capture: " + r.reason;
        case cg::Ending::MoreCaptures:
            return winner + " wins: " + r.reason +
                   " (after two passes before anyone reaches the target, more captures win)";
        case cg::Ending::Score:
            return winner + " wins by " + cg::formatPoints(r.margin) + " points: " + r.reason +
                   " (after two passes with equal captures the area score decides: stones plus the empty "
                   "points only they surround)";
        default:
            return winner + " wins: " + r.reason;
    }
}

GoPlayGame::GoPlayGame(const GoGameSettings& settings)
    : settings_(settings), level_(goLevelSettings(settings.level)) {
    if (std::string problem = goSettingsProblem(settings_); !problem.empty())
        throw std::invalid_argument(problem);
    const cg::Rules rules = cg::Rules::capture(settings_.target, 0);
    const cg::Position start = settings_.crosscut ? cg::crosscutPosition(settings_.size, rules)
                                                  : cg::emptyPosition(settings_.size, rules);
    startText_ = cg::positionText(start);
    game_ = cg::Game(start);
    game_.info.black = settings_.human == cg::Color::Black ? "player" : engineName(settings_.level);
    game_.info.white = settings_.human == cg::Color::White ? "player" : engineName(settings_.level);
    game_.info.event = "xq play";
    game_.info.date = xq::utcToday("%Y-%m-%d");

    match::EngineConfig config;
    config.name = engineName(settings_.level);
    config.cmd = settings_.engineCmd;
    config.protocol = match::Protocol::Gtp;
    config.game = games::Game::CaptureGo;
    config.args = settings_.engineArgs;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", level_.moveMs / 1000.0);
    for (const std::string& a :
         {std::string("--level"), std::to_string(level_.engineLevel), std::string("--movetime"),
          std::string(seconds), std::string("--seed"), std::to_string(randomSeed())})
        config.args.push_back(a);
    tc_.moveTimeMs = level_.moveMs;
    tc_.marginMs = 5000;  // a person waits; a slow answer is not a lost game here, a hung engine is
    config.tc = tc_;
    engine_ = std::make_unique<match::EngineClient>(config, 10000, 10000);
    engine_->start(match::neverStop);
    std::string error;
    if (!engine_->newGame(match::neverStop, error))
        throw std::runtime_error("the engine is not ready: " + error);
    if (!over() && !humanToMove()) engineMove();
}

GoPlayGame::~GoPlayGame() = default;

std::vector<std::string> GoPlayGame::moveTexts() const {
    std::vector<std::string> out;
    for (const cg::Move& m : game_.moves()) out.push_back(cg::moveName(m));
    return out;
}

void GoPlayGame::engineFails(const std::string& what) {
    engineFailure_ = "the engine failed: " + what;
    game_.forfeit(engineColor(), engineFailure_);
    engine_->shutdown();
}

void GoPlayGame::engineMove() {
    const match::GameClock clocks[2] = {match::GameClock(tc_), match::GameClock(tc_)};
    const match::SearchOutcome out =
        engine_->go(startText_, moveTexts(), clocks, game_.toMove() == cg::Color::Black, match::neverStop);
    switch (out.status) {
        case match::SearchOutcome::Move:
            break;
        case match::SearchOutcome::Resign:
            game_.resign(engineColor());
            return;
        case match::SearchOutcome::Crash:
            return engineFails(out.detail.empty() ? "it crashed" : out.detail);
        case match::SearchOutcome::TimeLoss:
        case match::SearchOutcome::Stall:
            return engineFails("it did not answer in time (" + out.detail + ")");
        default:
            return engineFails(out.detail.empty() ? "no move" : out.detail);
    }
    cg::Move move;
    try {
        move = cg::parseMove(out.move, settings_.size);
    } catch (const cg::ParseError& e) {
        return engineFails("it answered '" + out.move + "': " + e.what());
    }
    std::string why;
    if (!game_.play(move, &why)) return engineFails("it played " + out.move + ", which is illegal: " + why);
}

std::optional<std::string> GoPlayGame::play(const std::string& text, std::string* why) {
    auto refuse = [&](std::string reason) -> std::optional<std::string> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    if (over()) return refuse("the game is over: " + verdictText());
    if (!humanToMove()) return refuse("it is not your turn");
    cg::Move move;
    try {
        move = cg::parseMove(text, settings_.size);
    } catch (const cg::ParseError& e) {
        return refuse(e.what());
    }
    if (!position().isLegal(move)) return refuse(goRefusalInWords(position(), move));
    std::string reason;
    if (!game_.play(move, &reason)) return refuse(reason);
    if (over()) return std::string();
    const std::size_t before = game_.moves().size();
    engineMove();
    if (game_.moves().size() > before) return cg::moveName(game_.moves().back());
    return game_.result().ending == cg::Ending::Resignation ? std::string("resign") : std::string();
}

bool GoPlayGame::undo(std::string* why) {
    auto refuse = [&](const char* reason) {
        if (why) *why = reason;
        return false;
    };
    if (humanResigned_) return refuse("you resigned; start a new game");
    if (!engineFailure_.empty()) return refuse("the engine failed; start a new game");
    // The moves kept: everything before the person's last move.
    std::vector<cg::Move> moves = game_.moves();
    cg::Color mover = game_.start().toMove();
    std::size_t lastHuman = moves.size();
    for (std::size_t i = 0; i < moves.size(); ++i, mover = cg::opponent(mover))
        if (mover == settings_.human) lastHuman = i;
    if (lastHuman == moves.size()) return refuse("there is no move of yours to take back");
    moves.resize(lastHuman);
    const cg::GameInfo info = game_.info;
    game_ = cg::Game::replay(game_.start(), moves);
    game_.info = info;
    return true;
}

bool GoPlayGame::resign() {
    if (over()) return false;
    game_.resign(settings_.human);
    humanResigned_ = true;
    return true;
}

std::string GoPlayGame::verdictText() const {
    return goVerdictInWords(game_.result());
}

std::string GoPlayGame::sgf() const {
    return cg::writeSgf(game_);
}

}  // namespace xq::play
