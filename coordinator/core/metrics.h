// The coordinator's counters and latency histograms, and their rendering in Prometheus' text exposition
// format (served at /metrics). Counters count since the process started, as Prometheus expects; gauges
// (tests by state, workers, store size) are read from the store when scraped. Thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace xq::coord {

// A cumulative histogram of seconds with fixed buckets.
class Histogram {
  public:
    static constexpr std::array<double, 12> Bounds = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                      0.05,   0.1,   0.25,   0.5,   1,    2.5};
    void observe(double seconds);
    // Lines `NAME_bucket{LABELS,le="..."} N`, `NAME_sum{LABELS}`, `NAME_count{LABELS}`.
    void render(std::string& out, const std::string& name, const std::string& labels) const;

  private:
    std::array<std::uint64_t, Bounds.size() + 1> counts_{};  // the last one is +Inf
    double sum_ = 0;
    std::uint64_t count_ = 0;
};

struct Gauges {
    std::int64_t testsRunning = 0, testsFinished = 0, testsStopped = 0, testsPending = 0, testsFailed = 0;
    std::int64_t runsRunning = 0, runsFinished = 0, runsStopped = 0, runsFailed = 0;  // runs (run.proto)
    std::int64_t workersActive = 0;       // seen within twice the lease timeout
    std::int64_t jobRequestsWaiting = 0;  // workers in a long poll: they asked and found no job
    std::int64_t storeBytes = 0;          // database file with its write-ahead log
    std::int64_t artifactBytes = 0;
};

class Metrics {
  public:
    std::atomic<std::uint64_t> reports{0};      // result reports counted (repeats excluded)
    std::atomic<std::uint64_t> games{0};        // games in those reports
    std::atomic<std::uint64_t> leaseGrants{0};  // leases handed out (match and datagen)
    std::atomic<std::uint64_t> leaseExpiries{0};
    std::atomic<std::uint64_t> pgnDropped{0};  // report PGN refused (the results still counted)

    // One finished RPC (gRPC method path, e.g. "/xq.v1.WorkerService/ReportResults") or HTTP request
    // (route pattern, e.g. "GET /tests/:id").
    void observeRpc(const std::string& method, double seconds, bool ok);
    void observeHttp(const std::string& route, double seconds);

    std::string render(const Gauges& g) const;

  private:
    mutable std::mutex mutex_;
    std::map<std::string, Histogram> rpc_, http_;
    std::map<std::string, std::uint64_t> rpcErrors_;
};

// Escapes a Prometheus label value (backslash, quote, newline).
std::string promLabel(const std::string& value);

}  // namespace xq::coord
