// The worker's training leases (a run's training step, issue 58): fetches the data window's chunks (cached
// by hash, so the next generation downloads only the new ones), the start network and the checkpoint to
// resume from, runs `xq-tuner nnue` as a child process, uploads each checkpoint it writes and at the end
// the network with the tuner's JSON report (TrainingService), heartbeating the lease all along. A trainer
// that fails, or data that cannot be fetched, hands the lease back with the reason.
#pragma once

#include <string>
#include <vector>

#include "artifact_cache.h"
#include "job_player.h"

namespace xq::worker {

struct TrainingSettings {
    std::string tunerPath;  // xq-tuner
    int threads = 1;
};

// xq-tuner's command line for a job: the chunk files in the spec's order, then the options.
std::vector<std::string> trainerArguments(const xq::v1::TrainingJob& job, const TrainingSettings& settings,
                                          const std::vector<std::string>& chunkFiles,
                                          const std::string& initNet, const std::string& checkpoint,
                                          const std::string& outDir);

struct TrainingOutcome {
    bool trained = false;  // the coordinator took the network
    bool stoppedByCoordinator = false;
    int checkpointsUploaded = 0;
    int chunksDownloaded = 0, chunksCached = 0;
    std::string error;  // non-empty: the training failed (handed back with it)
};

// Runs the lease to its end; a lease left unfinished (error, shutdown) is released, with the error.
TrainingOutcome runTrainingLease(const xq::v1::Job& job, const JobEnvironment& env, ArtifactCache& cache,
                                 const TrainingSettings& settings);

}  // namespace xq::worker
