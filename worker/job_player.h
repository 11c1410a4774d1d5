// Plays one leased match job: builds the match runner's configuration from the job, plays the pairs,
// reports them in numbered batches (retrying with back-off until each is acknowledged), heartbeats the
// lease, and stops early when the coordinator or the worker says so.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "client.h"
#include "match.h"
#include "sandbox.h"

namespace xq::worker {

struct JobEnvironment {
    coord::Client* client = nullptr;
    std::uint64_t workerId = 0;
    int heartbeatSeconds = 15;
    int concurrency = 1;
    bool affinity = false;                // pin each game slot to CPUs of its own (match.h: pinSlots)
    std::string baseBinary, devBinary;    // verified artifact paths
    std::string baseWeights, devWeights;  // empty: none
    std::string baseNet, devNet;          // networks (verified artifact paths); empty: none
    std::string openingsPath;             // empty: start position
    std::string pgnPath;                  // empty: no PGN kept
    double clockScale = 1;                // clocks are multiplied by this (reference_nps / measured)
    const std::atomic<bool>* shutdown = nullptr;
    int shutdownGraceSeconds = 30;  // how long to keep retrying reports once shutting down
    std::function<void(const std::string&)> log;
    const Sandbox* sandbox = nullptr;  // engines run in it (null or disabled: directly)
};

struct JobOutcome {
    std::int64_t pairsPlayed = 0;
    std::int64_t pairsAcknowledged = 0;
    bool stoppedByCoordinator = false;
    std::string error;  // non-empty: the job could not be played
};

// Makes an engine play with the network file `net`: EvalFile after any weights (the engine keeps both) and
// the switch `Use NNUE` = true in place of any given. An engine that does not declare these options refuses
// to start (match::EngineClient), so a job that needs them fails saying so.
void addNetworkOptions(std::vector<std::pair<std::string, std::string>>& options, const std::string& net);

// The runner's configuration for a job; throws std::invalid_argument on a spec it cannot play.
match::MatchConfig makeMatchConfig(const xq::v1::MatchJob& job, const JobEnvironment& env);

// The wire form of a finished pair, from the first engine's (dev's) side.
xq::v1::PairResult toWire(const match::PairResult& pair);

JobOutcome playJob(const xq::v1::Job& job, const JobEnvironment& env);

}  // namespace xq::worker
