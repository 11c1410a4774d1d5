// The coordinator's settings (xq-coordinator's flags, or an embedded coordinator's choices). Here, below the
// coordinator, because the kinds of test read some of them through KindHost::options().
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "scheduler.h"
#include "webhook.h"

namespace xq::coord {

struct CoordinatorOptions {
    std::string dataDir;  // holds artifacts/, data/ and (without `store`) coordinator.db
    // The store: empty for SQLite in dataDir/coordinator.db, or a postgresql:// URL. Replicas on one
    // PostgreSQL database share dataDir (a shared volume) for artifacts and datagen chunks.
    std::string store;
    int leaseTimeoutSeconds = 60;  // a lease without a heartbeat for this long expires
    int heartbeatSeconds = 0;      // 0: a quarter of the lease timeout
    ChunkPolicy chunk;
    SuspicionLimits suspicion;
    std::int64_t defaultSprtMaxGames = 200'000;
    std::int64_t maxFixedGames = 10'000'000;
    std::uint64_t maxArtifactBytes = 512ull << 20;
    double requestsPerSecondPerToken = 200;  // 0: unlimited
    double requestBurstPerToken = 400;
    std::int64_t maxDatagenSlices = 100'000;  // games / slice_games of one datagen test
    std::int64_t maxSliceFailures = 5;        // a slice handed back with an error this often fails its test
    // Leases of a test that fail in a row (failedLeasesReason in scheduler.h) before the test fails; 0:
    // never.
    std::int64_t maxFailedLeases = 5;
    // Webhooks (common/webhook.h): attempts of one delivery before it is given up, and the delay after the
    // first failed one (doubling after each, at most an hour); the web view's address, for the links in
    // the bodies ("": none).
    int webhookAttempts = WebhookMaxAttempts;
    std::int64_t webhookRetryMs = 5000;
    std::string publicUrl;
    std::function<std::int64_t()> clockMs;  // empty: the system clock
    // Tests of users without the approver role wait (pending) until an approver releases them.
    // xq-coordinator turns this on unless --no-approval; embedded coordinators (xq regress) leave it off.
    bool requireApproval = false;
};

}  // namespace xq::coord
