// What every job kind does while it holds a lease: tell transient gRPC failures from final ones, and
// heartbeat the lease until the job is done, passing on the coordinator's stop.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "job_player.h"

namespace xq::worker {

// Failures worth retrying; anything else means the coordinator will never take the request.
bool isTransient(grpc::StatusCode code);

// Heartbeats `leaseId` every env.heartbeatSeconds until `done`. Sets `abandon` when the worker is shutting
// down (env.shutdown); calls onStop(reason) when the coordinator stops the lease or refuses it for good.
// Transient failures are ignored: the job keeps going and delivers once the coordinator is back.
void heartbeatLease(const JobEnvironment& env, std::uint64_t leaseId, const std::atomic<bool>& done,
                    std::atomic<bool>& abandon, const std::function<void(const std::string&)>& onStop);

}  // namespace xq::worker
