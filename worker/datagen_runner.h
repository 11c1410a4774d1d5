// The worker's datagen leases: plays a slice of self-play games with the tuner's generateData at the
// test's settings, uploads each chunk of positions as it comes (retrying until acknowledged),
// heartbeats the lease, and reports the slice complete, or hands it back when it cannot finish.
#pragma once

#include <cstdint>
#include <string>

#include "artifact_cache.h"
#include "datagen.h"
#include "job_player.h"

namespace xq::worker {

// generateData's options for a slice (`weights`, `net`: verified artifact paths, empty for none; a network
// is played with addNetworkOptions); throws std::invalid_argument for a spec it cannot run.
tuner::DatagenOptions datagenOptions(const xq::v1::DatagenJob& job, const std::string& engine,
                                     const std::string& weights, const std::string& net, int concurrency);

struct DatagenOutcome {
    std::int64_t positions = 0, chunks = 0;  // acknowledged by the coordinator
    std::int64_t gamesPlayed = 0;
    bool complete = false;  // the coordinator took the slice as done
    bool stoppedByCoordinator = false;
    std::string error;  // non-empty: the slice could not be played
};

// Runs the lease to its end: fetches and verifies the engine (and weights) through the cache, plays,
// uploads, completes; a slice left unfinished (error, shutdown) is released so it can be reissued.
DatagenOutcome runDatagenLease(const xq::v1::Job& job, const JobEnvironment& env, ArtifactCache& cache);

}  // namespace xq::worker
