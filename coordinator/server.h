// A running coordinator: the gRPC server (its services, reflection, TLS, message limits) and the
// background sweep that expires leases and removes discarded data chunks. Used by xq-coordinator and,
// embedded, by `xq regress`.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "coordinator.h"
#include "web_server.h"

namespace grpc {
class Server;
}

namespace xq::coord {

class WorkerServiceImpl;
class UserServiceImpl;
class BenchJobs;
class BenchServiceImpl;
class DataServiceImpl;
class RunServiceImpl;
class TrainingServiceImpl;
class WebhookSender;

struct ServerOptions {
    std::string listen = "127.0.0.1:0";   // port 0: the OS picks one; address() tells which
    std::string tlsCertPath, tlsKeyPath;  // both given: TLS, otherwise plaintext
    int maxMessageBytes = 4 << 20;        // larger requests are refused with RESOURCE_EXHAUSTED
    CoordinatorOptions coordinator;
    // web.listen non-empty: the web view too, with TLS when the gRPC server has it (same certificate).
    WebOptions web;
};

class CoordinatorServer {
  public:
    // Opens the store and starts serving; throws std::runtime_error if the address cannot be bound.
    explicit CoordinatorServer(ServerOptions options);
    ~CoordinatorServer();

    // host:port actually bound.
    const std::string& address() const { return address_; }
    // The web view, or null without one.
    WebServer* web() { return web_.get(); }
    Coordinator& coordinator() { return *coordinator_; }
    // Blocks until shutdown() is called from another thread.
    void wait();
    void shutdown();

  private:
    ServerOptions options_;
    std::unique_ptr<Coordinator> coordinator_;
    std::unique_ptr<WorkerServiceImpl> workerService_;
    std::unique_ptr<UserServiceImpl> userService_;
    std::unique_ptr<BenchJobs> benchJobs_;
    std::unique_ptr<BenchServiceImpl> benchService_;
    std::unique_ptr<DataServiceImpl> dataService_;
    std::unique_ptr<RunServiceImpl> runService_;
    std::unique_ptr<TrainingServiceImpl> trainingService_;
    std::unique_ptr<grpc::Server> server_;
    std::unique_ptr<WebServer> web_;
    std::unique_ptr<WebhookSender> webhooks_;
    std::string address_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread sweeper_;
};

// Reads a whole file; throws std::runtime_error naming it.
std::string readFile(const std::string& path);

}  // namespace xq::coord
