#include "local_cluster.h"

#include <filesystem>
#include <iostream>

#include "worker.h"

namespace xq::cli {

LocalCluster::LocalCluster(const LocalClusterOptions& options) : options_(options) {
    if (options_.workers < 1) throw std::invalid_argument("--workers must be at least 1");
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    concurrency_ =
        options_.concurrency > 0 ? options_.concurrency : std::max(1, int(cores) / options_.workers);
    std::filesystem::create_directories(options_.data);
    xq::coord::ServerOptions server;
    server.listen = "127.0.0.1:0";
    server.coordinator.dataDir = options_.data;
    server.coordinator.leaseTimeoutSeconds = options_.leaseTimeout;
    server.coordinator.requestsPerSecondPerToken = 0;  // only our own workers talk to it
    server.coordinator.chunk.targetSeconds = 30;       // small leases: the whole run takes minutes
    if (options_.maxChunkPairs < 0) throw std::invalid_argument("--max-chunk-pairs must be positive");
    if (options_.maxChunkPairs > 0) server.coordinator.chunk.maxPairs = options_.maxChunkPairs;
    server_ = std::make_unique<xq::coord::CoordinatorServer>(server);
    address_ = server_->address();
    userToken_ = coordinator().createToken(xq::coord::Role::User, options_.command);
    workerToken_ =
        coordinator().createToken(xq::coord::Role::Worker, std::string(options_.command) + "-worker");
}

LocalCluster::~LocalCluster() {
    shutdown();
}

void LocalCluster::startWorkers() {
    for (int i = 0; i < options_.workers; ++i) {
        workers_.emplace_back([this, i] {
            xq::worker::WorkerOptions w;
            w.endpoint = {address_, workerToken_, ""};
            w.concurrency = concurrency_;
            w.cacheDir = options_.data + "/worker-cache";
            w.buildDir = options_.data + "/builds";  // shared: each commit is built once
            w.name = "local-" + std::to_string(i + 1);
            w.shutdownGraceSeconds = 5;
            bool verbose = options_.verbose;
            w.log = [verbose, i](const std::string& line) {
                if (verbose) std::cerr << "worker " << i + 1 << ": " << line << std::endl;
            };
            try {
                xq::worker::Worker(w).run(stopWorkers_);
            } catch (const std::exception& e) {
                std::cerr << options_.command << ": worker " << i + 1 << " failed: " << e.what() << std::endl;
            }
        });
    }
}

void LocalCluster::stopTest(std::uint64_t id, const std::string& reason) {
    xq::v1::StopTestRequest stop;
    stop.set_test_id(id);
    stop.set_reason(reason);
    coordinator().stopTest(coordinator().authenticate(userToken_), stop);
}

void LocalCluster::shutdown() {
    if (down_) return;
    down_ = true;
    stopWorkers_ = true;
    for (auto& t : workers_) t.join();
    server_->shutdown();
}

}  // namespace xq::cli
