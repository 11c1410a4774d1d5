// The Coordinator's clocks and waits: which worker a call comes from and when it was last seen, the
// deadlines of active leases (in memory on one coordinator, so a heartbeat needs neither the store nor its
// lock), job requests that wait for work (long polls), and the WriteLock that holds a call's answer until
// its writes are durable (group commit).
#include <chrono>
#include <optional>
#include <utility>

#include "coordinator.h"

namespace xq::coord {

void Coordinator::checkWorker(const Caller& caller, std::int64_t workerId) {
    std::optional<std::int64_t> token;
    {
        std::lock_guard clocks(clockMutex_);
        if (auto it = workerToken_.find(workerId); it != workerToken_.end()) token = it->second;
    }
    if (!token) {
        // Registered through another replica (or since this one started).
        auto w = store_.findWorker(workerId);
        if (!w) throw CoordError(ErrorCode::NotFound, "unknown worker id " + std::to_string(workerId));
        workerNps_[workerId] = w->engineNps;
        std::lock_guard clocks(clockMutex_);
        lastSeen_[workerId] = w->lastSeenMs;
        token = workerToken_[workerId] = w->tokenId;
    }
    if (*token != caller.tokenId)
        throw CoordError(ErrorCode::PermissionDenied,
                         "worker " + std::to_string(workerId) + " belongs to another token");
    std::int64_t now = nowMs(), before;
    {
        std::lock_guard clocks(clockMutex_);
        before = std::exchange(lastSeen_[workerId], now);
    }
    // Replicas see each other's workers through the store: write the time now and then, not every call.
    if (shared_ && now - before >= 60'000) store_.touchWorker(workerId, now);
}

void Coordinator::keepLease(std::int64_t leaseId, std::int64_t workerId, std::int64_t now) {
    std::int64_t deadline = now + std::int64_t(options_.leaseTimeoutSeconds) * 1000;
    if (shared_) {
        store_.setLeaseDeadline(leaseId, deadline);
    } else {
        std::lock_guard clocks(clockMutex_);
        deadlines_[leaseId] = {deadline, workerId};
    }
}

void Coordinator::forgetLease(std::int64_t leaseId) {
    std::lock_guard clocks(clockMutex_);
    deadlines_.erase(leaseId);
}

bool Coordinator::heartbeatFromMemory(const Caller& caller, std::int64_t workerId, std::int64_t leaseId) {
    if (shared_) return false;
    std::lock_guard clocks(clockMutex_);
    auto token = workerToken_.find(workerId);
    auto active = deadlines_.find(leaseId);
    if (token == workerToken_.end() || token->second != caller.tokenId || active == deadlines_.end() ||
        active->second.workerId != workerId)
        return false;
    std::int64_t now = nowMs();
    lastSeen_[workerId] = now;
    active->second.deadlineMs = now + std::int64_t(options_.leaseTimeoutSeconds) * 1000;
    return true;
}

Coordinator::WriteLock::~WriteLock() noexcept(false) {
    lock_.unlock();
    std::uint64_t batch = std::exchange(GroupCommit::pendingBatch(), 0);
    if (!batch) return;
    if (std::uncaught_exceptions() > 0) {
        try {  // the call fails anyway; what it committed becomes durable with the batch or not at all
            c_.group_.waitDurable(c_.store_.db(), batch);
        } catch (...) {
        }
        return;
    }
    c_.group_.waitDurable(c_.store_.db(), batch);
}

Coordinator::~Coordinator() {
    stopWaiting();
    listenerStop_ = true;
    if (listener_.joinable()) listener_.join();
}

void Coordinator::bumpWork() {
    {
        std::lock_guard lock(waitMutex_);
        ++workVersion_;
    }
    workCv_.notify_all();
}

void Coordinator::workAppeared(Database& db) {
    if (db.dialect() == Dialect::Postgres) db.exec("NOTIFY xq_work");
    bumpWork();
}

void Coordinator::stopWaiting() {
    {
        std::lock_guard lock(waitMutex_);
        stopWaiting_ = true;
    }
    workCv_.notify_all();
}

int Coordinator::waitingJobRequests() {
    std::lock_guard lock(waitMutex_);
    return waiters_;
}

// At most this many job requests wait at once (each holds a server thread); more are answered at once.
constexpr int MaxWaitingJobRequests = 512;

v1::JobResponse Coordinator::requestJob(const Caller& caller, const v1::JobRequest& req) {
    require(caller, Role::Worker, "request jobs");
    if (req.concurrency() < 1 || req.concurrency() > 1024)
        throw CoordError(ErrorCode::InvalidArgument,
                         "concurrency must be 1 to 1024, got " + std::to_string(req.concurrency()));
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(std::min(req.wait_seconds(), 30u));
    std::uint64_t seen;
    {
        std::lock_guard lock(waitMutex_);
        seen = workVersion_;
    }
    v1::JobResponse resp = requestJobOnce(caller, req);
    if (resp.has_job() || std::chrono::steady_clock::now() >= until) return resp;
    {
        std::unique_lock lock(waitMutex_);
        if (stopWaiting_ || waiters_ >= MaxWaitingJobRequests) return resp;
        ++waiters_;
        bool woken = workCv_.wait_until(lock, until, [&] { return workVersion_ != seen || stopWaiting_; });
        --waiters_;
        if (!woken || stopWaiting_) {
            resp.set_retry_after_seconds(0);  // ask again at once: the wait itself was the pause
            return resp;
        }
    }
    // Work appeared: one more look. Without a job the worker asks again at once; the new work may be of a
    // kind it looks for elsewhere first (a benchmark).
    resp = requestJobOnce(caller, req);
    if (!resp.has_job()) resp.set_retry_after_seconds(0);
    return resp;
}

}  // namespace xq::coord
