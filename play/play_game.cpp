#include "play_game.h"

#include <chrono>
#include <ctime>
#include <stdexcept>

#include "pgn.h"
#include "util/date.h"
#include "xiangqi/attacks.h"
#include "xiangqi/movegen.h"

namespace xq::play {

namespace {

const char* colorName(Color c) {
    return c == RED ? "Red" : "Black";
}

}  // namespace

Level levelSettings(int level) {
    static constexpr Level Levels[] = {{0, 50}, {4, 100}, {8, 200}, {12, 400}, {20, 1000}, {20, 3000}};
    if (level < MinLevel) level = MinLevel;
    if (level > MaxLevel) level = MaxLevel;
    return Levels[level - MinLevel];
}

std::string refusalInWords(const Position& pos, const std::string& iccs, const std::string& why) {
    // The rules core's reason is precise; only "leaves the king in check or facing the other king" is
    // made concrete, from the position after the move.
    if (why.find("facing the other king") == std::string::npos) return why;
    Position after = pos;
    const Move m =
        makeMove(makeSquare(iccs[0] - 'a', iccs[1] - '0'), makeSquare(iccs[2] - 'a', iccs[3] - '0'));
    const Color us = pos.sideToMove();
    after.doMove(m);
    const Square ours = after.kingSquare(us), theirs = after.kingSquare(~us);
    if (fileOf(ours) == fileOf(theirs)) {
        bool open = true;
        const int lo = std::min(rankOf(ours), rankOf(theirs)), hi = std::max(rankOf(ours), rankOf(theirs));
        for (int r = lo + 1; r < hi && open; ++r)
            open = after.pieceOn(makeSquare(fileOf(ours), r)) == NO_PIECE;
        if (open) return "this move leaves the generals facing";
    }
    return pos.inCheck() ? "your general is in check and this move does not answer it"
                         : "this move leaves your general in check";
}

std::string verdictInWords(const Verdict& v) {
    if (!v.isOver()) return "";
    const std::string reason = reasonString(v);
    if (v.result == GameResult::DRAW) return "Draw by " + reason;
    const Color winner = v.result == GameResult::RED_WINS ? RED : BLACK;
    if (v.reason == EndReason::CHECKMATE) return std::string(colorName(winner)) + " wins by checkmate";
    if (v.reason == EndReason::STALEMATE)
        return std::string(colorName(winner)) + " wins: " + colorName(~winner) +
               " has no move (stalemate loses in Xiangqi)";
    return std::string(colorName(winner)) + " wins: " + reason;
}

PlayGame::PlayGame(const GameSettings& settings)
    : settings_(settings), level_(levelSettings(settings.level)) {
    try {
        pos_.setFen(settings_.fen);
    } catch (const FenError& e) {
        throw std::invalid_argument(std::string("bad FEN: ") + e.what());
    }
    settings_.fen = pos_.fen();
    match::EngineConfig config;
    config.name = "xq-engine level " + std::to_string(settings_.level);
    config.cmd = settings_.engineCmd;
    config.options = {{"Skill Level", std::to_string(level_.skill)}};
    config.repetitionRule = settings_.rules == RuleSet::CHINESE ? "Chinese" : "Asian";
    tc_.moveTimeMs = level_.moveMs;
    tc_.marginMs = 5000;  // a person waits; a slow answer is not a lost game here
    config.tc = tc_;
    engine_ = std::make_unique<match::EngineClient>(config, 10000, 30000);
    engine_->start(match::neverStop);
    std::string error;
    if (!engine_->newGame(match::neverStop, error))
        throw std::runtime_error("the engine is not ready: " + error);
    judge();
    if (!verdict_.isOver() && !humanToMove()) engineMove();
}

void PlayGame::judge() {
    RuleConfig rules;
    rules.ruleSet = settings_.rules;
    rules.moveLimitPlies = defaultMoveLimitPlies(settings_.rules);
    verdict_ = adjudicate(pos_, rules);
}

void PlayGame::engineMove() {
    const EngineAdvice a = advise();
    std::string why;
    auto move = parseMove(pos_, a.move, &why);
    if (!move) throw std::runtime_error("the engine answered '" + a.move + "', which is illegal: " + why);
    pos_.doMove(*move);
    moves_.push_back(a.move);
    records_.push_back({a.move, a.score, a.depth, 0, a.timeMs});
    judge();
}

EngineAdvice PlayGame::advise() {
    EngineAdvice a;
    if (verdict_.isOver()) return a;
    const match::GameClock clocks[2] = {match::GameClock(tc_), match::GameClock(tc_)};
    const match::SearchOutcome out =
        engine_->go(settings_.fen, moves_, clocks, pos_.sideToMove() == RED, match::neverStop);
    if (out.status != match::SearchOutcome::Move)
        throw std::runtime_error("the engine did not move: " +
                                 (out.detail.empty() ? "no answer" : out.detail));
    a.move = out.move;
    a.score = out.info.score;
    a.depth = out.info.depth;
    a.timeMs = out.elapsedMs;
    return a;
}

std::optional<std::string> PlayGame::play(const std::string& iccs, std::string* why) {
    auto refuse = [&](std::string reason) -> std::optional<std::string> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    if (verdict_.isOver()) return refuse("the game is over: " + verdictText());
    if (!humanToMove()) return refuse("it is not your turn");
    std::string reason;
    auto move = parseMove(pos_, iccs, &reason);
    if (!move) return refuse(refusalInWords(pos_, iccs, reason));
    pos_.doMove(*move);
    moves_.push_back(iccs);
    match::MoveRecord mine;
    mine.move = iccs;
    mine.searched = false;
    records_.push_back(mine);
    judge();
    if (verdict_.isOver()) return std::string();
    engineMove();
    return moves_.back();
}

bool PlayGame::resign() {
    if (verdict_.isOver()) return false;
    verdict_ = Verdict{};
    verdict_.result = settings_.human == RED ? GameResult::BLACK_WINS : GameResult::RED_WINS;
    resigned_ = true;
    return true;
}

std::string PlayGame::reason() const {
    if (resigned_) return "resignation";
    return verdict_.isOver() ? reasonString(verdict_) : "";
}

std::string PlayGame::verdictText() const {
    if (resigned_)
        return std::string(colorName(~settings_.human)) +
               " wins: " + (settings_.human == RED ? "red" : "black") + " resigned";
    return verdictInWords(verdict_);
}

bool PlayGame::undo() {
    if (resigned_) return false;
    // Replays the game without its last moves until the person is to move again, having taken back one
    // of the person's moves.
    Position start(settings_.fen);
    std::vector<bool> byHuman;
    for (const std::string& m : moves_) {
        byHuman.push_back(start.sideToMove() == settings_.human);
        start.doMove(*parseMove(start, m));
    }
    std::size_t keep = moves_.size();
    while (keep > 0 && !byHuman[keep - 1]) --keep;
    if (keep == 0) return false;
    --keep;  // the person's last move
    moves_.resize(keep);
    records_.resize(keep);
    pos_.setFen(settings_.fen);
    for (const std::string& m : moves_) pos_.doMove(*parseMove(pos_, m));
    judge();
    return true;
}

std::string PlayGame::pgn() const {
    match::MatchConfig config;
    const std::string engineName = "xq-engine (level " + std::to_string(settings_.level) + ")";
    config.engines[0].name = settings_.human == RED ? "player" : engineName;
    config.engines[1].name = settings_.human == RED ? engineName : "player";
    config.engines[0].tc = config.engines[1].tc = tc_;
    config.adjudication.rules.ruleSet = settings_.rules;
    config.event = "xq play";
    match::GameRecord g;
    g.startFen = settings_.fen;
    g.moves = records_;
    g.result = verdict_.result;
    g.end = resigned_           ? match::GameEnd::Resignation  // PGN's "normal": a player resigned
            : verdict_.isOver() ? match::GameEnd::Rules
                                : match::GameEnd::Abandoned;
    g.reason = verdict_.isOver() ? reason() : "unfinished";
    g.date = xq::utcToday("%Y.%m.%d");
    return match::formatPgn(g, config, 1);
}

}  // namespace xq::play
