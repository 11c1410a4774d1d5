#include "server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/support/server_interceptor.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bench_service.h"
#include "data_service.h"
#include "grpc_runtime.h"
#include "run_service.h"
#include "service.h"
#include "webhook_sender.h"

namespace xq::coord {

namespace {

// Times every RPC by method for /metrics: from the call's arrival to its status.
class RpcTimer final : public grpc::experimental::Interceptor {
  public:
    RpcTimer(grpc::experimental::ServerRpcInfo* info, Metrics& metrics)
        : method_(info->method()), metrics_(metrics), start_(std::chrono::steady_clock::now()) {}
    void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
        if (methods->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS))
            metrics_.observeRpc(
                method_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(),
                methods->GetSendStatus().ok());
        methods->Proceed();
    }

  private:
    std::string method_;
    Metrics& metrics_;
    std::chrono::steady_clock::time_point start_;
};

class RpcTimerFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
  public:
    explicit RpcTimerFactory(Metrics& metrics) : metrics_(metrics) {}
    grpc::experimental::Interceptor* CreateServerInterceptor(
        grpc::experimental::ServerRpcInfo* info) override {
        return new RpcTimer(info, metrics_);
    }

  private:
    Metrics& metrics_;
};

}  // namespace

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path + "'");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

CoordinatorServer::CoordinatorServer(ServerOptions options) : options_(std::move(options)) {
    configureGrpcRuntime();
    coordinator_ = std::make_unique<Coordinator>(options_.coordinator);
    workerService_ = std::make_unique<WorkerServiceImpl>(*coordinator_);
    userService_ = std::make_unique<UserServiceImpl>(*coordinator_);
    benchJobs_ = std::make_unique<BenchJobs>(*coordinator_);
    benchService_ = std::make_unique<BenchServiceImpl>(*coordinator_, *benchJobs_);
    dataService_ = std::make_unique<DataServiceImpl>(*coordinator_);
    runService_ = std::make_unique<RunServiceImpl>(*coordinator_);
    trainingService_ = std::make_unique<TrainingServiceImpl>(*coordinator_);

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
    grpc::EnableDefaultHealthCheckService(true);  // grpc.health.v1, for load balancers and probes
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort(options_.listen, creds, &port);
    builder.SetMaxReceiveMessageSize(options_.maxMessageBytes);
    builder.SetMaxSendMessageSize(options_.maxMessageBytes);
    builder.RegisterService(workerService_.get());
    builder.RegisterService(userService_.get());
    builder.RegisterService(benchService_.get());
    builder.RegisterService(dataService_.get());
    builder.RegisterService(runService_.get());
    builder.RegisterService(trainingService_.get());
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
    interceptors.push_back(std::make_unique<RpcTimerFactory>(coordinator_->metrics()));
    builder.experimental().SetInterceptorCreators(std::move(interceptors));
    server_ = builder.BuildAndStart();
    if (!server_ || port == 0) throw std::runtime_error("cannot listen on " + options_.listen);
    if (auto* health = server_->GetHealthCheckService()) {
        health->SetServingStatus(true);
        for (const char* service : {"xq.v1.WorkerService", "xq.v1.UserService"})
            health->SetServingStatus(service, true);
    }
    address_ = options_.listen.substr(0, options_.listen.rfind(':')) + ":" + std::to_string(port);
    if (!options_.web.listen.empty()) {
        if (options_.web.tlsCertPath.empty() && options_.web.tlsKeyPath.empty()) {
            options_.web.tlsCertPath = options_.tlsCertPath;
            options_.web.tlsKeyPath = options_.tlsKeyPath;
        }
        web_ = std::make_unique<WebServer>(*coordinator_, benchJobs_.get(), options_.web);
    }

    webhooks_ = std::make_unique<WebhookSender>(*coordinator_);

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
    coordinator_->stopWaiting();  // waiting job requests answer now, so the server can drain
    if (web_) web_->stop();
    if (webhooks_) webhooks_->stop();
    if (auto* health = server_->GetHealthCheckService()) health->SetServingStatus(false);  // drain first
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
}

}  // namespace xq::coord
