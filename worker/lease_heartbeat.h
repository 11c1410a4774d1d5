// What every job kind does while it holds a lease: tell transient gRPC failures from final ones, and
// heartbeat the lease until the job is done, passing on the coordinator's stop.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "job_player.h"

namespace xq::worker {

// Failures worth retrying; anything else means the coordinator will never take the request.
bool isTransient(grpc::StatusCode code);

// Heartbeats `leaseId` every env.heartbeatSeconds until `done`. Sets `abandon` when the worker is shutting
// down (env.shutdown); calls onStop(reason) when the coordinator stops the lease or refuses it for good.
// Transient failures are ignored: the job keeps going and delivers once the coordinator is back.
void heartbeatLease(const JobEnvironment& env, std::uint64_t leaseId, const std::atomic<bool>& done,
                    std::atomic<bool>& abandon, const std::function<void(const std::string&)>& onStop);

// Hands a lease back (ReleaseLease) with `error` (empty: no fault of the job, e.g. a shutdown; otherwise the
// coordinator counts it) and logs it; `stopTest`: the error would recur on any worker. A hand-back that is
// not acknowledged is logged: the lease then expires.
void releaseLease(const JobEnvironment& env, std::uint64_t leaseId, const std::string& error,
                  bool stopTest = false);

// Heartbeats a job's lease from a thread of its own while the job prepares (a bench, a build), so a
// long preparation does not let the lease expire. Stops when destroyed.
class LeaseKeeper {
  public:
    LeaseKeeper(const xq::v1::Job& job, const JobEnvironment& env) {
        if (!env.client) return;
        thread_ = std::thread([this, leaseId = job.lease_id(), &env] {
            std::unique_lock lock(mutex_);
            while (!done_) {
                wake_.wait_for(lock, std::chrono::seconds(std::max(1, env.heartbeatSeconds)));
                if (done_) break;
                lock.unlock();
                xq::v1::HeartbeatRequest req;
                req.set_worker_id(env.workerId);
                req.set_lease_id(leaseId);
                xq::v1::HeartbeatResponse resp;
                auto ctx = env.client->context(10);
                (void)env.client->worker().Heartbeat(ctx.get(), req,
                                                     &resp);  // the job's own loop handles stops
                lock.lock();
            }
        });
    }
    ~LeaseKeeper() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

  private:
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;
};

}  // namespace xq::worker
