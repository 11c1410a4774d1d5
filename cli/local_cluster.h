// An embedded coordinator (SQLite in a data directory, on 127.0.0.1 with an OS-picked port) and local
// workers in threads: what `xq regress` and `xq spsa` run a test on, the way a cluster would. The
// destructor stops the workers (they hand back their leases) and the coordinator.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "server.h"

namespace xq::cli {

struct LocalClusterOptions {
    std::string data;
    int workers = 1;
    int concurrency = 0;  // per worker; 0: cores / workers
    int leaseTimeout = 30;
    bool verbose = false;  // the workers' logs on stderr
    const char* command = "xq";
    std::int64_t maxChunkPairs = 0;  // most pairs in one lease; 0: the coordinator's default
};

class LocalCluster {
  public:
    explicit LocalCluster(const LocalClusterOptions& options);
    ~LocalCluster();
    LocalCluster(const LocalCluster&) = delete;
    LocalCluster& operator=(const LocalCluster&) = delete;

    xq::coord::Coordinator& coordinator() { return server_->coordinator(); }
    const std::string& address() const { return address_; }
    const std::string& userToken() const { return userToken_; }
    int concurrency() const { return concurrency_; }
    // Starts the workers (after the test is submitted, so their first job request finds it).
    void startWorkers();
    // Stops a running test with a reason (a user's interrupt).
    void stopTest(std::uint64_t id, const std::string& reason);
    // Stops the workers and the coordinator (also done by the destructor).
    void shutdown();

  private:
    LocalClusterOptions options_;
    int concurrency_ = 1;
    std::unique_ptr<xq::coord::CoordinatorServer> server_;
    std::string address_, userToken_, workerToken_;
    std::atomic<bool> stopWorkers_{false};
    std::vector<std::thread> workers_;
    bool down_ = false;
};

}  // namespace xq::cli
