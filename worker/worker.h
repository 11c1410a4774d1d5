// The worker's life: register with the coordinator, then ask for jobs, fetch their artifacts, play them
// and report, until told to stop. Survives coordinator restarts by retrying with jittered back-off.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "client.h"
#include "sandbox.h"
#include "source_build.h"

namespace xq::worker {

struct WorkerOptions {
    coord::Endpoint endpoint;
    int concurrency = 1;
    bool affinity = false;        // pin each game slot (runner thread and engines) to CPUs of its own
    std::string cacheDir;         // empty: $XDG_CACHE_HOME/xq-worker or ~/.cache/xq-worker
    std::string name;             // empty: the host name
    std::uint64_t engineNps = 0;  // measured or configured speed; 0: unknown
    int shutdownGraceSeconds = 30;
    std::string pgnDir;    // non-empty: games are appended to PGN files here, one per test
    std::string buildDir;  // engines built from source; empty: <cacheDir>/builds (workers may share one)
    BuildLimits buildLimits;
    Sandbox sandbox;          // engines and builds run in it (off: directly, as the worker's user)
    bool training = true;     // offer to train networks (a run's training step)
    int trainingThreads = 0;  // threads given to training; 0: concurrency
    std::string tunerPath;    // xq-tuner; empty: the one beside this worker's executable
    std::function<void(const std::string&)> log;  // empty: stderr
};

class Worker {
  public:
    explicit Worker(WorkerOptions options);
    // Runs until `stop` is set; then finishes reporting (bounded by shutdownGraceSeconds), hands back its
    // lease and returns. Throws std::runtime_error on errors no retry can fix (a refused token).
    void run(const std::atomic<bool>& stop);

    std::uint64_t workerId() const { return workerId_; }
    std::int64_t pairsPlayed() const { return pairsPlayed_; }

  private:
    void registerWithRetry(const std::atomic<bool>& stop);
    void log(const std::string& line) const;

    WorkerOptions options_;
    coord::Client client_;
    std::uint64_t workerId_ = 0;
    int heartbeatSeconds_ = 15;
    std::atomic<std::int64_t> pairsPlayed_{0};
};

}  // namespace xq::worker
