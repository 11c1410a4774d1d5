// Cluster benchmarks on the coordinator: runs of `<engine> bench` asked of a set of live workers, their
// per-worker results, and the history of runs. Kept in the coordinator's SQLite file (tables of schema
// version 2) through a connection of its own, so it never waits on the Coordinator's lock; SQLite
// serialises the writes of both.
#pragma once

#include <cstdint>
#include <mutex>

#include "coordinator.h"
#include "database.h"
#include "xq/v1/bench.pb.h"

namespace xq::coord {

constexpr std::uint32_t MaxBenchRepeats = 20;

class BenchJobs {
  public:
    // `coordinator` authenticates callers and knows which workers are alive; it must outlive this.
    explicit BenchJobs(Coordinator& coordinator);

    // User side. Throws CoordError (InvalidArgument for bad settings, an unknown artifact or worker,
    // FailedPrecondition when no worker is alive).
    v1::SubmitBenchResponse submit(const Caller& caller, const v1::SubmitBenchRequest& req);
    v1::BenchRun get(const Caller& caller, std::uint64_t benchId);
    v1::ListBenchesResponse list(const Caller& caller, std::uint32_t limit);

    // Worker side: the oldest run this worker has not reported yet (bench_id 0: none), and its report.
    v1::PollBenchResponse poll(const Caller& caller, std::uint64_t workerId);
    void report(const Caller& caller, const v1::ReportBenchRequest& req);

  private:
    void checkWorker(const Caller& caller, std::uint64_t workerId);
    v1::BenchRun readRun(std::int64_t id, const std::string& settings, std::int64_t createdMs);

    Coordinator& coordinator_;
    std::mutex mutex_;
    Database db_;
};

}  // namespace xq::coord
