// The client side of the wire API, shared by `xq` (user commands) and `xq-worker`: a channel to the
// coordinator with the token attached to every call, artifact upload and download, and endpoint
// resolution from flags, environment (XQ_COORDINATOR, XQ_TOKEN, XQ_TLS_CA) or a config file.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "xq/v1/coordinator.grpc.pb.h"
#include "xq/v1/run.grpc.pb.h"

namespace xq::coord {

// gRPC's target for an address: as given for one host:port; for a list, "ipv4:" (or "ipv6:") and every
// address, host names resolved now. Throws std::invalid_argument naming an entry that is not host:port or
// does not resolve.
std::string channelTarget(const std::string& address);

struct Endpoint {
    // host:port, or several separated by commas (replicas of one coordinator: calls are spread over those
    // that answer, and move to another when one stops), or a DNS name with several records.
    std::string address;
    std::string token;
    std::string tlsCaPath;  // non-empty: TLS, verifying the server against this CA bundle
};

// Fills what the flags left empty from the environment, then from the config file ($XQ_CONFIG or
// ~/.config/xq/config, lines `coordinator = HOST:PORT`, `token = T`, `tls_ca = PATH`). Throws
// std::invalid_argument saying what is missing.
Endpoint resolveEndpoint(Endpoint fromFlags);

// A failed call: the gRPC status code (as its number) and the server's message.
struct RpcError : std::runtime_error {
    RpcError(int c, const std::string& what) : std::runtime_error(what), code(c) {}
    int code;
};

// Throws RpcError("<action>: <CODE>: <message>") unless the status is OK.
void check(const grpc::Status& status, const std::string& action);
const char* statusCodeName(int code);

class Client {
  public:
    explicit Client(Endpoint endpoint);

    xq::v1::WorkerService::Stub& worker() { return *worker_; }
    xq::v1::UserService::Stub& user() { return *user_; }
    xq::v1::RunService::Stub& runs() { return *runs_; }
    xq::v1::TrainingService::Stub& training() { return *training_; }
    // A context carrying the token, with a deadline.
    std::unique_ptr<grpc::ClientContext> context(int timeoutSeconds = 30) const;

    // Uploads a file as an artifact (skipped when the coordinator already has it: *alreadyPresent says
    // so); `kind` is "" or "net" (a network, listed by ListArtifacts). Returns its SHA-256.
    std::string upload(const std::string& path, const std::string& kind = "", bool* alreadyPresent = nullptr);
    // Downloads an artifact to `destPath` and verifies its hash; throws std::runtime_error on mismatch.
    void download(const std::string& sha256, const std::string& destPath);

    const Endpoint& endpoint() const { return endpoint_; }
    // For services other than the two above (BenchService) on the same connection.
    std::shared_ptr<grpc::Channel> channel() const { return channel_; }

  private:
    Endpoint endpoint_;
    std::shared_ptr<grpc::Channel> channel_;
    std::unique_ptr<xq::v1::WorkerService::Stub> worker_;
    std::unique_ptr<xq::v1::UserService::Stub> user_;
    std::unique_ptr<xq::v1::RunService::Stub> runs_;
    std::unique_ptr<xq::v1::TrainingService::Stub> training_;
};

// What the coordinator said of a submitted test: its id, and whether it waits for an approver.
struct SubmittedTest {
    std::uint64_t id = 0;
    bool pending = false;
};

SubmittedTest submitted(const v1::SubmitResponse& resp);

// The words that tell a user a test waits for an approver, with the command that releases it.
std::string pendingHint(std::uint64_t id);

}  // namespace xq::coord
