// One game between two engines from an opening: the engines move in turn under their clocks, the
// rules core ends the game when it can, the adjudication settings end it earlier, and an engine that
// fails loses.
#pragma once

#include "engine.h"
#include "match.h"

namespace xq::match {

struct GameSetup {
    games::Game game = games::Game::Xiangqi;
    const Opening* opening = nullptr;
    int redEngine = 0;  // index into `engines` of the engine that moves first (red, white)
    int pairIndex = 0;
    int gameInPair = 0;
    const AdjudicationConfig* adjudication = nullptr;
};

// Plays the game; starts engines that are not running. An engine that failed (except one that lost
// on time but still answers) is shut down so the next game restarts it. `startFailed[e]` tells
// whether engine e could not be started or made ready at all. With stop, the game ends Abandoned.
GameRecord playGame(EngineClient* engines[2], const GameSetup& setup, const StopCheck& stop,
                    bool startFailed[2]);

}  // namespace xq::match
