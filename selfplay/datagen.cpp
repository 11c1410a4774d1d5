#include "datagen.h"

#include <chrono>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include "capturego/position_text.h"
#include "capturego_settings.h"
#include "chess/position.h"
#include "engine.h"
#include "quiet.h"
#include "quiet_chess.h"
#include "xiangqi/position.h"

namespace xq::tuner {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct Candidate {
    std::string fen;
    std::uint64_t key;
    std::optional<int> score;  // the engine's, from the first player's view
};

enum class GameStatus { Finished, Failed, GivenUp, Stopped };

struct GameOutcome {
    GameStatus status = GameStatus::Stopped;
    GameResult result = GameResult::NONE;
    std::vector<Candidate> candidates;
    std::string failure;
    // Counts for this game only; merged into the run's stats.
    std::int64_t openingsRejected = 0, plies = 0, sampled = 0, inCheck = 0, noisy = 0, mateScores = 0;
};

// Plays random legal plies from the start position; false when the game ended on the way (or, in Capture
// Go, left a group in atari).
bool randomOpening(std::unique_ptr<games::Board>& board, games::Game game, const std::string& startFen,
                   std::vector<std::string>& moves, int plies, std::mt19937_64& rng,
                   const RuleConfig& rules) {
    board = games::makeBoard(game, startFen);
    moves.clear();
    for (int p = 0; p < plies; ++p) {
        std::vector<std::string> legal = board->legalMoves();
        if (game == games::Game::CaptureGo) std::erase(legal, std::string("pass"));  // stones, not passes
        if (legal.empty()) return false;
        moves.push_back(legal[rng() % std::uint64_t(legal.size())]);
        board->play(moves.back());
        if (board->ending(rules).isOver()) return false;
    }
    return game != games::Game::CaptureGo || !capturego::parsePositionText(board->fen()).anyGroupInAtari();
}

// The quiescence test of the board's game (quiet.h, quiet_chess.h; in Capture Go no group in atari).
bool quiet(const games::Board& board) {
    if (board.game() == games::Game::CaptureGo)
        return !capturego::parsePositionText(board.fen()).anyGroupInAtari();
    if (board.game() == games::Game::Chess) {
        chess::Position pos;
        pos.setFen(board.fen());
        return isQuiet(pos);
    }
    Position pos(board.fen());
    return isQuiet(pos);
}

class GamePlayer {
  public:
    GamePlayer(const DatagenOptions& o, const match::StopCheck& stop) : o_(o), stop_(stop) {
        match::EngineConfig config;
        config.name = "datagen";
        config.cmd = o.enginePath;
        config.args = o.engineArgs;
        config.options = o.engineOptions;
        config.tc.nodes = o.nodes;
        config.game = o.game;
        if (o.game == games::Game::CaptureGo) config.protocol = match::Protocol::Gtp;
        if (o.game == games::Game::Xiangqi)
            config.repetitionRule = o.rules.ruleSet == RuleSet::CHINESE ? "Chinese" : "Asian";
        engine_ = std::make_unique<match::EngineClient>(config, o.startupTimeoutMs, o.stallTimeoutMs);
    }

    GameOutcome play(std::int64_t gameNumber) {
        GameOutcome g;
        std::mt19937_64 rng(splitmix64(o_.seed ^ splitmix64(std::uint64_t(gameNumber))));
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        if (!engine_->isStarted()) engine_->start(stop_);  // throws when the engine cannot run
        const match::TimeControl& tc = engine_->config().tc;
        match::GameClock clocks[2] = {match::GameClock(tc), match::GameClock(tc)};
        const std::string startFen =
            o_.game == games::Game::CaptureGo
                ? games::captureGoStartText(games::parseCaptureGoSettings(o_.board, "board"))
                : games::startFen(o_.game);
        std::unique_ptr<games::Board> board;
        std::vector<std::string> moves;
        match::SearchOutcome out;

        // A balanced opening: the engine's first search (which also gives the game's first move) must
        // score within the bound.
        bool balanced = false;
        for (int attempt = 0; attempt < o_.maxOpeningTries && !balanced; ++attempt) {
            if (stop_()) return g;
            if (!randomOpening(board, o_.game, startFen, moves, o_.randomPlies, rng, o_.rules)) {
                ++g.openingsRejected;
                continue;
            }
            std::string error;
            if (!engine_->newGame(stop_, error)) return fail(g, "not ready for a new game: " + error);
            out = engine_->go(startFen, moves, clocks, board->firstPlayerToMove(), stop_);
            if (out.status == match::SearchOutcome::Resign) {  // GTP: an opening lost already
                ++g.openingsRejected;
                continue;
            }
            if (out.status != match::SearchOutcome::Move) return failOrStop(g, out);
            const match::Score& s = out.info.score;
            // GTP engines report no score: their openings are taken as they come.
            balanced = o_.game == games::Game::CaptureGo ||
                       (s.kind == match::Score::Cp && std::abs(s.value) <= o_.balancedCp);
            if (!balanced) ++g.openingsRejected;
        }
        if (!balanced) {
            g.status = GameStatus::GivenUp;
            return g;
        }

        for (int ply = 0;; ++ply) {
            if (unit(rng) < o_.sampleRate) {
                ++g.sampled;
                if (board->inCheck())
                    ++g.inCheck;
                else if (o_.skipMateScores && out.info.score.kind == match::Score::Mate)
                    ++g.mateScores;
                else if (!quiet(*board))
                    ++g.noisy;
                else {
                    // The engine's score is the side to move's; data lines hold the first player's.
                    std::optional<int> score;
                    const match::Score& s = out.info.score;
                    if (s.kind == match::Score::Cp && std::abs(s.value) <= MaxDataScore)
                        score = board->firstPlayerToMove() ? s.value : -s.value;
                    g.candidates.push_back({board->fen(), board->key(), score});
                }
            }
            std::string why;
            if (!board->play(out.move, &why)) return fail(g, "illegal move " + out.move + ": " + why);
            moves.push_back(out.move);
            ++g.plies;
            games::Ending v = board->ending(o_.rules);
            if (v.isOver() || ply + 1 >= o_.maxPlies) {
                g.result = v.isOver() ? v.result : GameResult::DRAW;
                g.status = GameStatus::Finished;
                return g;
            }
            out = engine_->go(startFen, moves, clocks, board->firstPlayerToMove(), stop_);
            if (out.status == match::SearchOutcome::Resign) {  // GTP: the side to move gives up
                g.result = board->firstPlayerToMove() ? GameResult::BLACK_WINS : GameResult::RED_WINS;
                g.status = GameStatus::Finished;
                return g;
            }
            if (out.status != match::SearchOutcome::Move) return failOrStop(g, out);
        }
    }

  private:
    GameOutcome& fail(GameOutcome& g, const std::string& why) {
        g.status = GameStatus::Failed;
        g.failure = why;
        engine_->shutdown();  // the next game starts a fresh process
        return g;
    }
    GameOutcome& failOrStop(GameOutcome& g, const match::SearchOutcome& out) {
        if (out.status == match::SearchOutcome::Stopped) {
            g.status = GameStatus::Stopped;
            engine_->shutdown();
            return g;
        }
        return fail(g, out.detail.empty() ? "no move" : out.detail);
    }

    const DatagenOptions& o_;
    match::StopCheck stop_;
    std::unique_ptr<match::EngineClient> engine_;
};

void validate(const DatagenOptions& o) {
    if (o.enginePath.empty()) throw std::invalid_argument("no engine given");
    if (o.game == games::Game::CaptureGo)
        games::parseCaptureGoSettings(o.board, "board");  // throws naming what is wrong
    else if (!o.board.empty())
        throw std::invalid_argument("a board is Capture Go's; " + std::string(games::gameName(o.game)) +
                                    " has one board");
    if (o.games < 1) throw std::invalid_argument("games must be at least 1");
    if (o.nodes < 1) throw std::invalid_argument("nodes must be at least 1");
    if (o.randomPlies < 0 || o.randomPlies > 40) throw std::invalid_argument("random plies must be 0..40");
    if (o.concurrency < 1) throw std::invalid_argument("concurrency must be at least 1");
    if (!(o.sampleRate > 0 && o.sampleRate <= 1))
        throw std::invalid_argument("sample rate must be in (0, 1]");
    if (o.balancedCp < 0) throw std::invalid_argument("the balance bound must be >= 0");
    if (o.maxPlies < 1) throw std::invalid_argument("max plies must be at least 1");
    if (o.chunkSize < 1) throw std::invalid_argument("chunk size must be at least 1");
    if (o.maxOpeningTries < 1) throw std::invalid_argument("opening tries must be at least 1");
}

// Failures in a row (per process) after which the engine is taken to be broken.
constexpr int MAX_CONSECUTIVE_FAILURES = 5;

}  // namespace

DatagenStats generateData(const DatagenOptions& options, const ChunkCallback& onChunk,
                          const std::atomic<bool>& stop, const ProgressCallback& onProgress) {
    validate(options);
    const auto start = std::chrono::steady_clock::now();
    std::atomic<bool> abort{false};
    match::StopCheck stopCheck = [&] { return stop.load() || abort.load(); };

    std::mutex mutex;  // guards everything below
    DatagenStats stats;
    stats.gamesTotal = options.games;
    std::unordered_set<std::uint64_t> seen;
    std::vector<LabeledPosition> chunk;
    std::exception_ptr error;
    std::atomic<std::int64_t> nextGame{0};

    auto flush = [&] {
        if (chunk.empty()) return;
        onChunk(chunk);
        chunk.clear();
    };

    auto worker = [&] {
        try {
            GamePlayer player(options, stopCheck);
            int failuresInRow = 0;
            while (!stopCheck()) {
                std::int64_t index = nextGame.fetch_add(1);
                if (index >= options.games) break;
                GameOutcome g = player.play(options.firstGame + index);
                if (g.status == GameStatus::Stopped) break;
                failuresInRow = g.status == GameStatus::Failed ? failuresInRow + 1 : 0;
                std::lock_guard lock(mutex);
                stats.openingsRejected += g.openingsRejected;
                stats.plies += g.plies;
                stats.sampled += g.sampled;
                stats.inCheck += g.inCheck;
                stats.noisy += g.noisy;
                stats.mateScores += g.mateScores;
                if (g.status == GameStatus::Failed) {
                    ++stats.gamesFailed;
                    if (failuresInRow >= MAX_CONSECUTIVE_FAILURES)
                        throw std::runtime_error("the engine failed " + std::to_string(failuresInRow) +
                                                 " games in a row; last: " + g.failure);
                } else if (g.status == GameStatus::GivenUp) {
                    ++stats.gamesGivenUp;
                } else {
                    ++stats.gamesPlayed;
                    float result = g.result == GameResult::RED_WINS     ? 1.0f
                                   : g.result == GameResult::BLACK_WINS ? 0.0f
                                                                        : 0.5f;
                    (result == 1.0f ? stats.redWins : result == 0.0f ? stats.blackWins : stats.draws)++;
                    for (Candidate& c : g.candidates) {
                        if (!seen.insert(c.key).second) {
                            ++stats.duplicates;
                            continue;
                        }
                        chunk.push_back({std::move(c.fen), result, c.score});
                        ++stats.positions;
                        if (int(chunk.size()) >= options.chunkSize) flush();
                    }
                }
                stats.seconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                if (onProgress) onProgress(stats);
            }
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!error) error = std::current_exception();
            abort = true;
        }
    };

    std::vector<std::thread> threads;
    for (int i = 0; i < options.concurrency; ++i) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
    if (error) std::rethrow_exception(error);
    flush();
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

}  // namespace xq::tuner
