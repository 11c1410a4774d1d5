// A run of generations (run.proto, issue 58) as a user describes it to `xq submit run`: the self-play engine
// and its settings (as `xq submit datagen` takes them), where the run starts, the training recipe, the data
// window, the gate (as `xq submit` takes a match) and when the run ends; built into a RunSpec and submitted.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "client.h"
#include "data_client.h"
#include "submission.h"

namespace xq::coord {

struct RunSubmission {
    // Self-play: the engine (uploaded), its weights, options and args, nodes a move, `games` a generation,
    // random plies, sample rate, slice games, seed, rules; its priority, throughput and description are the
    // run's.
    DatagenSubmission selfplay;
    // "shipped" (the engine's embedded network, written by `ENGINE nnue export FILE`), "hce" (the
    // hand-written evaluation), a network FILE, or the SHA-256 of a network the coordinator holds.
    std::string start = "shipped";
    std::string startCheckpoint;     // optional: a checkpoint file generation 1's training resumes from
    std::string train;               // the recipe: "hidden=128,epochs=4,lambda=0.8,lr=5e-4"
    std::uint32_t window = 0;        // 0: the coordinator's default
    std::string gate = "tc=10+0.1";  // the gate's time control: tc=..., nodes=..., st=..., depth=...
    std::string gateSprt = "elo0=0,elo1=10";  // bounds, or the presets gainer / non-regression
    std::uint64_t gateGames = 0;              // the SPRT's cap; 0: the coordinator's
    // The gate's book, rules (selfplay.rules), adjudication and concurrency as `xq submit` takes them; its
    // engines, time control and SPRT are set from the fields above.
    SubmissionOptions gateMatch;
    std::uint32_t generations = 0;      // 0: until max_failed_gates gates fail in a row
    std::uint32_t maxFailedGates = 0;   // 0: the coordinator's default
    std::vector<std::string> webhooks;  // as SubmissionOptions::webhooks

    // Self-play keeps every quiet position of its games (the coordinator's default for a run's datagen).
    RunSubmission() {
        selfplay.nodes = 5000;
        selfplay.sampleRate = 1;
    }
};

// "hidden=128,epochs=4": the recipe's settings by name. Throws std::invalid_argument naming --train and the
// bad item (no '=', an empty name, a name given twice). Which names and values are allowed is the
// coordinator's to say.
std::map<std::string, std::string> parseRecipe(const std::string& text);

// Writes the engine's embedded network to `path` (`ENGINE nnue export PATH`). Throws std::invalid_argument
// naming the engine, what it said, and --start FILE as the way round.
void exportShippedNetwork(const std::string& engine, const std::string& path);

// The spec and the files it names, to upload first (path, artifact kind).
struct PreparedRun {
    xq::v1::RunSpec spec;
    std::vector<std::pair<std::string, std::string>> uploads;
};
// Builds the spec with the files' hashes computed here; --start shipped is exported into `scratchDir`.
// Throws std::invalid_argument naming the flag that is wrong.
PreparedRun prepareRun(const RunSubmission& s, const std::string& scratchDir);
// Prepares (in a temporary directory, removed after), uploads and submits; returns the run's id. Throws
// std::invalid_argument for bad flags, RpcError with the coordinator's message when it refuses the run.
std::uint64_t submitRun(Client& client, const RunSubmission& s);

}  // namespace xq::coord
