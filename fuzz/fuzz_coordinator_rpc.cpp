// Every coordinator RPC's request, as a message parsed from the fuzzer's bytes, fed to the service code
// (Coordinator and BenchJobs: what the thin gRPC services of service.h call) with a worker's, a user's or
// an approver's token. The first byte picks the call; its top bit makes the request name the worker, the
// lease and the test the coordinator really has (so that the checks behind "unknown lease" run too). What
// the service code promises: a bad request ends in CoordError (which the services map to a gRPC status)
// or, for the store, DatabaseError; any other exception, a crash or a sanitizer report is a finding.
//
// One coordinator lives for the whole run, on SQLite in a tmpfs directory, with a match, a datagen and an
// SPSA test submitted, so that job requests and reports find real work.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench_jobs.h"
#include "coordinator.h"
#include "util/sha256.h"

namespace {

namespace v1 = xq::v1;
using namespace xq::coord;

struct World {
    std::unique_ptr<Coordinator> coord;
    std::unique_ptr<BenchJobs> bench;
    Caller user, worker, approver;
    std::uint64_t workerId = 0, leaseId = 0, testId = 0;
    std::string engineSha;
};

World* world = nullptr;

void setUp() {
    std::string base = std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp";
    std::string tmpl = base + "/xq-fuzz-rpc-XXXXXX";
    std::string dir = mkdtemp(tmpl.data());
    world = new World;
    CoordinatorOptions o;
    o.dataDir = dir;
    o.requestsPerSecondPerToken = 0;
    o.requireApproval = true;
    world->coord = std::make_unique<Coordinator>(o);
    world->bench = std::make_unique<BenchJobs>(*world->coord);
    auto& c = *world->coord;
    world->user = c.authenticate(c.createToken(Role::User, "user"));
    world->worker = c.authenticate(c.createToken(Role::Worker, "worker"));
    world->approver = c.authenticate(c.createToken(Role::Approver, "approver"));
    const std::string engine = "#!/bin/sh\nexit 0\n";
    world->engineSha = xq::sha256Hex(engine);
    auto up = c.beginUpload(world->user, world->engineSha, engine.size());
    up->write(engine);
    up->finish();
    c.artifactUploaded(world->engineSha, engine.size(), "engine");
    v1::SubmitRequest match;
    for (auto* e : {match.mutable_spec()->mutable_match()->mutable_base(),
                    match.mutable_spec()->mutable_match()->mutable_dev()}) {
        e->set_binary_sha256(world->engineSha);
        e->set_tc("10+0.1");
    }
    match.mutable_spec()->set_games(1'000'000);
    world->testId = c.submit(world->approver, match).test_id();
    v1::SubmitRequest datagen;
    auto* d = datagen.mutable_spec()->mutable_datagen();
    d->mutable_engine()->set_binary_sha256(world->engineSha);
    d->set_nodes(100);
    d->set_sample_rate(0.5);
    datagen.mutable_spec()->set_games(100'000);
    c.submit(world->approver, datagen);
    v1::SubmitRequest spsa;
    auto* s = spsa.mutable_spec()->mutable_spsa();
    *s->mutable_match() = match.spec().match();
    auto* p = s->add_params();
    p->set_name("P");
    p->set_start(50);
    p->set_min(0);
    p->set_max(100);
    p->set_c_end(5);
    p->set_r_end(0.01);
    spsa.mutable_spec()->set_games(1'000'000);
    c.submit(world->approver, spsa);
    v1::RegisterRequest reg;
    reg.set_name("fuzz");
    world->workerId = c.registerWorker(world->worker, reg).worker_id();
}

template <class M>
M parse(const std::uint8_t* data, std::size_t size) {
    M m;
    m.ParseFromArray(data, int(size));  // a message that does not parse stays as far as it got
    return m;
}

void call(std::uint8_t op, const std::uint8_t* data, std::size_t size) {
    World& w = *world;
    Coordinator& c = *w.coord;
    const bool real = op & 0x80;
    auto own = [&](auto& m) {  // the worker, lease and test the coordinator knows
        if (!real) return;
        if constexpr (requires { m.set_worker_id(0u); }) m.set_worker_id(w.workerId);
        if constexpr (requires { m.set_lease_id(0u); }) m.set_lease_id(w.leaseId);
    };
    switch (op & 0x7f) {
        case 0: {
            auto m = parse<v1::RegisterRequest>(data, size);
            c.registerWorker(w.worker, m);
            break;
        }
        case 1: {
            auto m = parse<v1::JobRequest>(data, size);
            own(m);
            m.set_wait_seconds(0);  // a long poll would only make the fuzzer wait
            if (real && m.concurrency() == 0) m.set_concurrency(1);
            if (real && (size & 1)) m.add_kinds("datagen");
            auto resp = c.requestJob(w.worker, m);
            if (resp.has_job()) w.leaseId = resp.job().lease_id();
            break;
        }
        case 2: {
            auto m = parse<v1::HeartbeatRequest>(data, size);
            own(m);
            c.heartbeat(w.worker, m);
            break;
        }
        case 3: {
            auto m = parse<v1::ReportRequest>(data, size);
            own(m);
            c.report(w.worker, m);
            break;
        }
        case 4: {
            auto m = parse<v1::ReleaseRequest>(data, size);
            own(m);
            c.release(w.worker, m);
            break;
        }
        case 5: {
            auto m = parse<v1::SubmitRequest>(data, size);
            c.submit(real ? w.approver : w.user, m);
            break;
        }
        case 6: {
            auto m = parse<v1::StopTestRequest>(data, size);
            if (real) m.set_test_id(w.testId + 3 + (m.test_id() % 8));  // not the three set-up tests
            c.stopTest(w.user, m);
            break;
        }
        case 7: {
            auto m = parse<v1::ListTestsRequest>(data, size);
            c.listTests(m);
            break;
        }
        case 8: {
            auto m = parse<v1::ShowTestRequest>(data, size);
            c.showTest(std::int64_t(m.test_id() % 64));
            break;
        }
        case 9: {
            auto m = parse<v1::ApproveTestRequest>(data, size);
            if (real) m.set_test_id(w.testId + 3 + (m.test_id() % 8));
            c.approveTest(real ? w.approver : w.user, m);
            break;
        }
        case 10: {
            auto m = parse<v1::CreateTokenRequest>(data, size);
            c.createTokenFor(w.user, m);
            break;
        }
        case 11: {
            auto m = parse<v1::DataChunkUpload>(data, size);
            own(m);
            c.uploadChunk(w.worker, m);
            break;
        }
        case 12: {
            auto m = parse<v1::CompleteSliceRequest>(data, size);
            own(m);
            c.completeSlice(w.worker, m);
            break;
        }
        case 13: {
            auto m = parse<v1::ListChunksRequest>(data, size);
            c.listChunks(w.user, m);
            break;
        }
        case 14: {
            auto m = parse<v1::SubmitBenchRequest>(data, size);
            if (real) m.mutable_settings()->set_engine_sha256(w.engineSha);
            w.bench->submit(w.user, m);
            break;
        }
        case 15: {
            auto m = parse<v1::ReportBenchRequest>(data, size);
            own(m);
            w.bench->report(w.worker, m);
            break;
        }
        case 16: {
            auto m = parse<v1::PollBenchRequest>(data, size);
            own(m);
            w.bench->poll(w.worker, m.worker_id());
            break;
        }
        case 17: {
            c.listWorkers();
            auto m = parse<v1::ListTestsRequest>(data, size);
            Coordinator::TestQuery q;
            q.offset = std::int64_t(m.offset() % 1000);
            q.limit = std::int64_t(m.limit());
            c.listTestsPage(q);
            break;
        }
        default:
            c.expireLeases();
            break;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!world) setUp();
    if (size == 0) return 0;
    try {
        call(data[0], data + 1, size - 1);
    } catch (const CoordError&) {
    } catch (const DatabaseError&) {
    }
    // Every call answers only after what it wrote is durable: none may leave its group-commit batch open
    // (the open batch holds the database's write lock, which other connections would then wait for).
    if (xq::coord::GroupCommit::pendingBatch() != 0) {
        std::fprintf(stderr, "call %d left its commit batch open\n", int(data[0] & 0x7f));
        __builtin_trap();
    }
    return 0;
}
