// A Coordinator on a temporary directory with an injected clock, tokens, and shorthands for the requests a
// worker and a user make: the setting of the tests of the coordinator's plain C++.
#pragma once

#include <memory>

#include "coordinator.h"
#include "test_store.h"
#include "test_util.h"
#include "upload_artifact.h"

namespace xq::coord::testing {

namespace v1 = xq::v1;

// `games` games as PGN, each with an Event naming `tag` and a round number (what a report's pgn carries).
inline std::string pgnOfGames(int games, const std::string& tag = "") {
    std::string out;
    for (int i = 0; i < games; ++i)
        out += "[Event \"xq test" + tag + "\"]\n[Round \"" + std::to_string(i + 1) +
               "\"]\n\n1. h2e2 h9g7 1-0\n\n";
    return out;
}

struct Fixture {
    TempDir dir;
    TestStore store;
    std::int64_t clock = 1'000'000;
    std::unique_ptr<Coordinator> coord;
    Caller user, worker;
    bool approval = false;  // CoordinatorOptions::requireApproval (reopen() after changing it)

    CoordinatorOptions options() {
        CoordinatorOptions o;
        o.dataDir = dir.file("data");
        o.store = store.option();
        o.leaseTimeoutSeconds = 10;
        o.chunk.maxPairs = 4;
        o.clockMs = [this] { return clock; };
        o.requireApproval = approval;
        return o;
    }
    Fixture() { open(); }
    void open() {
        coord.reset();
        coord = std::make_unique<Coordinator>(options());
    }
    void makeTokens() {
        user = coord->authenticate(coord->createToken(Role::User, "alice"));
        worker = coord->authenticate(coord->createToken(Role::Worker, "box"));
    }
    std::string upload(const std::string& content) {
        return xq::coord::testing::uploadArtifact(*coord, user, content);
    }
    v1::SubmitRequest request(std::uint64_t games, bool sprt) {
        v1::SubmitRequest req;
        auto* m = req.mutable_spec()->mutable_match();
        m->mutable_base()->set_binary_sha256(upload("base engine"));
        m->mutable_dev()->set_binary_sha256(upload("dev engine"));
        // A clock: at a node limit every pair past the first (there is no book) would be a copy, and the
        // coordinator caps such tests (FixedWorkTestsStopAtTheBook).
        m->mutable_base()->set_tc("10+0.1");
        m->mutable_dev()->set_tc("10+0.1");
        req.mutable_spec()->set_games(games);
        if (sprt) {
            req.mutable_spec()->mutable_sprt()->set_elo0(0);
            req.mutable_spec()->mutable_sprt()->set_elo1(10);
        }
        return req;
    }
    std::uint64_t registerWorker() {
        v1::RegisterRequest r;
        r.set_name("box");
        r.set_cores(2);
        return coord->registerWorker(worker, r).worker_id();
    }
    v1::JobResponse job(std::uint64_t workerId, std::uint32_t concurrency = 2) {
        v1::JobRequest r;
        r.set_worker_id(workerId);
        r.set_concurrency(concurrency);
        return coord->requestJob(worker, r);
    }
    // Leases a job to the worker and hands it back with `error`, as a worker that could not play it does
    // (`stopTest`: a job no worker can play, such as a source that does not build); false when there was
    // no job to lease.
    bool failLease(std::uint64_t workerId, const std::string& error, bool stopTest = false) {
        auto leased = job(workerId);
        if (!leased.has_job()) return false;
        v1::ReleaseRequest r;
        r.set_worker_id(workerId);
        r.set_lease_id(leased.job().lease_id());
        r.set_error(error);
        r.set_stop_test(stopTest);
        coord->release(worker, r);
        return true;
    }
    // A report of `n` pairs from the lease's first unreported pairs, all with the same outcome.
    v1::ReportRequest reportOf(const v1::Job& job, std::uint64_t workerId, std::uint64_t seq,
                               std::uint64_t first, int n, int penta) {
        v1::ReportRequest r;
        r.set_worker_id(workerId);
        r.set_lease_id(job.lease_id());
        r.set_sequence(seq);
        for (int i = 0; i < n; ++i) {
            auto* p = r.add_pairs();
            p->set_pair_index(job.match().first_pair() + first + std::uint64_t(i));
            p->set_penta_index(std::uint32_t(penta));
            p->set_wins(std::uint32_t(penta / 2));
            p->set_draws(std::uint32_t(penta % 2));
            p->set_losses(2 - p->wins() - p->draws());
        }
        return r;
    }
};

}  // namespace xq::coord::testing
