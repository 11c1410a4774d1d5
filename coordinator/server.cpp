#include "server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bench_service.h"
#include "data_service.h"
#include "service.h"

namespace xq::coord {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path + "'");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

CoordinatorServer::CoordinatorServer(ServerOptions options) : options_(std::move(options)) {
    coordinator_ = std::make_unique<Coordinator>(options_.coordinator);
    workerService_ = std::make_unique<WorkerServiceImpl>(*coordinator_);
    userService_ = std::make_unique<UserServiceImpl>(*coordinator_);
    benchJobs_ = std::make_unique<BenchJobs>(*coordinator_);
    benchService_ = std::make_unique<BenchServiceImpl>(*coordinator_, *benchJobs_);
    dataService_ = std::make_unique<DataServiceImpl>(*coordinator_);

    std::shared_ptr<grpc::ServerCredentials> creds;
    if (!options_.tlsCertPath.empty() || !options_.tlsKeyPath.empty()) {
        if (options_.tlsCertPath.empty() || options_.tlsKeyPath.empty())
            throw std::runtime_error("TLS needs both a certificate and a key");
        grpc::SslServerCredentialsOptions ssl;
        ssl.pem_key_cert_pairs.push_back({readFile(options_.tlsKeyPath), readFile(options_.tlsCertPath)});
        creds = grpc::SslServerCredentials(ssl);
    } else {
        creds = grpc::InsecureServerCredentials();
    }

    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort(options_.listen, creds, &port);
    builder.SetMaxReceiveMessageSize(options_.maxMessageBytes);
    builder.SetMaxSendMessageSize(options_.maxMessageBytes);
    builder.RegisterService(workerService_.get());
    builder.RegisterService(userService_.get());
    builder.RegisterService(benchService_.get());
    builder.RegisterService(dataService_.get());
    server_ = builder.BuildAndStart();
    if (!server_ || port == 0) throw std::runtime_error("cannot listen on " + options_.listen);
    address_ = options_.listen.substr(0, options_.listen.rfind(':')) + ":" + std::to_string(port);

    int sweepMs = std::clamp(options_.coordinator.leaseTimeoutSeconds * 250, 200, 5000);
    sweeper_ = std::thread([this, sweepMs] {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            wake_.wait_for(lock, std::chrono::milliseconds(sweepMs));
            if (stopping_) break;
            lock.unlock();
            try {
                coordinator_->expireLeases();
                coordinator_->purgeDiscardedChunks();
            } catch (const std::exception&) {
                // A busy database: try again on the next sweep.
            }
            lock.lock();
        }
    });
}

CoordinatorServer::~CoordinatorServer() {
    shutdown();
    if (sweeper_.joinable()) sweeper_.join();
}

void CoordinatorServer::wait() {
    server_->Wait();
}

void CoordinatorServer::shutdown() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        stopping_ = true;
    }
    wake_.notify_all();
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
}

}  // namespace xq::coord
