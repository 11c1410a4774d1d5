#include "game.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <stdexcept>

#include "board.h"
#include "util/date.h"

namespace xq::match {

namespace {

Failure failureOf(SearchOutcome::Status s) {
    switch (s) {
        case SearchOutcome::TimeLoss:
            return Failure::TimeLoss;
        case SearchOutcome::Stall:
            return Failure::Stall;
        case SearchOutcome::Crash:
            return Failure::Crash;
        case SearchOutcome::Garbage:
        case SearchOutcome::NoMove:
            return Failure::IllegalMove;
        default:
            return Failure::None;
    }
}

// An engine's "no move" is a failure when the rules see legal moves (Board::noMoveContext says how
// many): an engine that judges the game over by its own rules (ElephantEye answered nobestmove 100 to 115
// plies after the last capture in our matches) is then told apart from one that is lost.

GameResult winFor(Color c) {
    return c == RED ? GameResult::RED_WINS : GameResult::BLACK_WINS;
}

// Resign and draw adjudication from the scores of the engines' recent moves (the first player's view).
class ScoreAdjudicator {
  public:
    explicit ScoreAdjudicator(const AdjudicationConfig& adj) : adj_(adj) {}

    // Records the score of a move by `mover`; returns a result when adjudication ends the game.
    GameResult update(const Score& score, Color mover, int fullMovesPlayed) {
        if (score.kind == Score::None) {
            resignStreak_ = drawStreak_ = 0;
            return GameResult::NONE;
        }
        int redView = mover == RED ? score.centipawns() : -score.centipawns();
        if (adj_.resignMoves > 0) {
            int sign = redView >= adj_.resignScore ? 1 : redView <= -adj_.resignScore ? -1 : 0;
            resignStreak_ = sign != 0 && sign == resignSign_ ? resignStreak_ + 1 : (sign != 0 ? 1 : 0);
            resignSign_ = sign;
            // Both engines must agree, so the streak counts moves of both sides: N moves each.
            if (resignStreak_ >= 2 * adj_.resignMoves)
                return sign > 0 ? GameResult::RED_WINS : GameResult::BLACK_WINS;
        }
        if (adj_.drawMoves > 0 && fullMovesPlayed >= adj_.drawAfterMove) {
            drawStreak_ = std::abs(redView) <= adj_.drawScore ? drawStreak_ + 1 : 0;
            if (drawStreak_ >= 2 * adj_.drawMoves) return GameResult::DRAW;
        }
        return GameResult::NONE;
    }

  private:
    const AdjudicationConfig& adj_;
    int resignStreak_ = 0, resignSign_ = 0, drawStreak_ = 0;
};

}  // namespace

GameRecord playGame(EngineClient* engines[2], const GameSetup& setup, const StopCheck& stop,
                    bool startFailed[2]) {
    const AdjudicationConfig& adj = *setup.adjudication;
    auto begin = std::chrono::steady_clock::now();
    GameRecord game;
    game.pairIndex = setup.pairIndex;
    game.gameInPair = setup.gameInPair;
    game.redEngine = setup.redEngine;
    game.startFen = setup.opening->fen;
    game.openingMoves = setup.opening->moves;
    game.date = xq::utcToday("%Y.%m.%d");
    startFailed[0] = startFailed[1] = false;

    auto engineOf = [&](Color c) { return c == RED ? setup.redEngine : 1 - setup.redEngine; };
    auto finish = [&](GameResult result, GameEnd end, std::string reason) {
        game.result = result;
        game.end = end;
        game.reason = std::move(reason);
        game.durationMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - begin)
                .count();
        return game;
    };
    auto failed = [&](Color c, Failure f, const std::string& detail) {
        int e = engineOf(c);
        game.failedEngine = e;
        game.failure = f;
        return finish(winFor(~c), GameEnd::EngineFailure,
                      engines[e]->config().name + " (" + games::sideName(setup.game, c == RED) + ") " +
                          failureName(f) + ": " + detail);
    };

    std::unique_ptr<games::Board> board = games::makeBoard(setup.game, game.startFen);
    std::vector<std::string> moves;
    for (const std::string& text : game.openingMoves) {
        std::string why;
        if (!board->play(text, &why)) throw std::invalid_argument("opening move '" + text + "': " + why);
        moves.push_back(text);
    }
    auto sideToMove = [&] { return board->firstPlayerToMove() ? RED : BLACK; };

    // Engines that crashed earlier are restarted here; a fresh start gets one retry.
    for (Color c : {RED, BLACK}) {
        EngineClient& engine = *engines[engineOf(c)];
        std::string error;
        bool ready = false;
        for (int attempt = 0; attempt < 2 && !ready; ++attempt) {
            if (stop()) return finish(GameResult::NONE, GameEnd::Abandoned, "stopped");
            try {
                if (!engine.isStarted()) engine.start(stop);
                ready = engine.newGame(stop, error);
                if (!ready) engine.shutdown();
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        if (stop()) return finish(GameResult::NONE, GameEnd::Abandoned, "stopped");
        if (!ready) {
            startFailed[engineOf(c)] = true;
            return failed(c, Failure::Crash, "could not be started: " + error);
        }
    }

    const TimeControl* tcs[2] = {&engines[engineOf(RED)]->config().tc,
                                 &engines[engineOf(BLACK)]->config().tc};
    // Each side runs its own clock under its own engine's control, but the engine is told both.
    GameClock clocks[2] = {GameClock(*tcs[0]), GameClock(*tcs[1])};
    ScoreAdjudicator scores(adj);

    games::Ending verdict = board->ending(adj.rules);
    while (!verdict.isOver()) {
        if (stop()) return finish(GameResult::NONE, GameEnd::Abandoned, "stopped");
        if (adj.maxPlies > 0 && int(game.moves.size()) >= adj.maxPlies)
            return finish(GameResult::DRAW, GameEnd::MaxLength,
                          "draw by the game length limit (" + std::to_string(adj.maxPlies) + " plies)");

        Color side = sideToMove();
        EngineClient& engine = *engines[engineOf(side)];
        // This loop only appends to `moves`, and each game starts with newGame().
        SearchOutcome out =
            engine.go(game.startFen, moves, clocks, side == RED, stop, /*movesOnlyGrew=*/true);
        if (out.status == SearchOutcome::Stopped)
            return finish(GameResult::NONE, GameEnd::Abandoned, "stopped");
        if (out.status == SearchOutcome::Resign) {
            if (!clocks[side].charge(out.elapsedMs))
                return failed(side, Failure::TimeLoss, "took " + std::to_string(out.elapsedMs) + " ms");
            game.failedEngine = -1;
            return finish(
                winFor(~side), GameEnd::Resignation,
                engine.config().name + " (" + games::sideName(setup.game, side == RED) + ") resigned");
        }
        if (out.status != SearchOutcome::Move) {
            if (out.status != SearchOutcome::TimeLoss || !engine.resync(stop)) engine.shutdown();
            const std::string context =
                out.status == SearchOutcome::NoMove ? board->noMoveContext(adj.rules) : "";
            return failed(side, failureOf(out.status), out.detail + context);
        }
        if (!clocks[side].charge(out.elapsedMs)) {
            // The answer came, but later than the flag allowed.
            return failed(side, Failure::TimeLoss, "took " + std::to_string(out.elapsedMs) + " ms");
        }
        std::string why;
        if (!board->play(out.move, &why)) {
            // The engine's idea of the position differs from ours; restart it for the next game.
            engine.shutdown();
            return failed(side, Failure::IllegalMove, "illegal move " + out.move + " (" + why + ")");
        }
        moves.push_back(out.move);
        game.moves.push_back({out.move, out.info.score, out.info.depth, out.info.nodes, out.elapsedMs});

        verdict = board->ending(adj.rules);
        if (verdict.isOver()) break;
        // Full moves played before this one: the draw window opens after drawAfterMove of them.
        GameResult adjudged = scores.update(out.info.score, side, int(moves.size() - 1) / 2);
        if (adjudged == GameResult::DRAW)
            return finish(adjudged, GameEnd::DrawAdjudication, "draw by adjudication");
        if (adjudged != GameResult::NONE)
            return finish(adjudged, GameEnd::ResignAdjudication,
                          std::string(games::sideName(setup.game, adjudged != GameResult::RED_WINS)) +
                              " resigns (adjudication)");
    }
    return finish(verdict.result, GameEnd::Rules, verdict.reason);
}

}  // namespace xq::match
