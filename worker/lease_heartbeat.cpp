#include "lease_heartbeat.h"

#include <chrono>
#include <thread>

namespace xq::worker {

bool isTransient(grpc::StatusCode code) {
    return code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED ||
           code == grpc::StatusCode::RESOURCE_EXHAUSTED || code == grpc::StatusCode::CANCELLED ||
           code == grpc::StatusCode::UNKNOWN || code == grpc::StatusCode::INTERNAL ||
           code == grpc::StatusCode::ABORTED;
}

void heartbeatLease(const JobEnvironment& env, std::uint64_t leaseId, const std::atomic<bool>& done,
                    std::atomic<bool>& abandon, const std::function<void(const std::string&)>& onStop) {
    auto next = std::chrono::steady_clock::now() + std::chrono::seconds(env.heartbeatSeconds);
    while (!done) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (*env.shutdown) abandon = true;  // SIGTERM: drop games in flight, hand the rest back
        if (std::chrono::steady_clock::now() < next) continue;
        next = std::chrono::steady_clock::now() + std::chrono::seconds(env.heartbeatSeconds);
        v1::HeartbeatRequest req;
        req.set_worker_id(env.workerId);
        req.set_lease_id(leaseId);
        v1::HeartbeatResponse resp;
        auto ctx = env.client->context(10);
        grpc::Status status = env.client->worker().Heartbeat(ctx.get(), req, &resp);
        if (status.ok() && resp.command() == v1::LEASE_STOP) onStop(resp.reason());
        if (!status.ok() && !isTransient(status.error_code())) onStop(status.error_message());
    }
}

void releaseLease(const JobEnvironment& env, std::uint64_t leaseId, const std::string& error, bool stopTest) {
    v1::ReleaseRequest rel;
    rel.set_worker_id(env.workerId);
    rel.set_lease_id(leaseId);
    rel.set_error(error);
    rel.set_stop_test(stopTest);
    v1::ReleaseResponse resp;
    auto ctx = env.client->context(10);
    grpc::Status s = env.client->worker().ReleaseLease(ctx.get(), rel, &resp);
    env.log("lease " + std::to_string(leaseId) + " handed back" + (error.empty() ? "" : ": " + error) +
            (s.ok() ? "" : " (not acknowledged: " + s.error_message() + "; it will expire)"));
}

}  // namespace xq::worker
