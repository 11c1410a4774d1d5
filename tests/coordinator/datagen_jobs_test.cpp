// Datagen tests on the coordinator without a network: submission checks, slices leased and reissued,
// chunk uploads (idempotent, refused when bad, discarded with their lease), completion, restarts.
#include <gtest/gtest.h>

#include <filesystem>

#include "coordinator.h"
#include "data_chunk.h"
#include "expect_error.h"
#include "test_store.h"
#include "test_util.h"
#include "upload_artifact.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

using namespace xq::coord;
using xq::coord::testing::codeOf;
using xq::coord::testing::TempDir;
using xq::coord::testing::TestStore;
namespace v1 = xq::v1;
namespace fs = std::filesystem;

namespace {

std::string messageOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const CoordError& e) {
        return e.what();
    }
    return "no error";
}

// `n` distinct real positions starting `offset` plies into a walk from the start position.
std::vector<xq::tuner::LabeledPosition> positions(int n, int offset = 0) {
    std::vector<xq::tuner::LabeledPosition> out;
    xq::Position pos;
    for (int i = 0; i < offset + n; ++i) {
        if (i >= offset) out.push_back({pos.fen(), 0.5f});
        auto legal = xq::legalMoves(pos);
        pos.doMove(legal.moves[std::size_t(i) % std::size_t(legal.size)]);
    }
    return out;
}

struct DatagenFixture {
    TempDir dir;
    TestStore store;
    std::int64_t clock = 1'000'000;
    std::unique_ptr<Coordinator> coord;
    Caller user, worker;
    std::string engineSha;

    DatagenFixture() {
        open();
        user = coord->authenticate(coord->createToken(Role::User, "alice"));
        worker = coord->authenticate(coord->createToken(Role::Worker, "box"));
        engineSha = xq::coord::testing::uploadArtifact(*coord, user, "an engine binary");
    }
    void open() {
        coord.reset();
        CoordinatorOptions o;
        o.dataDir = dir.file("data");
        o.store = store.option();
        o.leaseTimeoutSeconds = 10;
        o.clockMs = [this] { return clock; };
        coord = std::make_unique<Coordinator>(o);
    }
    v1::SubmitRequest request(std::uint64_t games, std::uint32_t sliceGames) {
        v1::SubmitRequest req;
        auto* d = req.mutable_spec()->mutable_datagen();
        d->mutable_engine()->set_binary_sha256(engineSha);
        d->set_nodes(200);
        d->set_random_plies(6);
        d->set_sample_rate(0.5);
        d->set_balanced_cp(150);
        d->set_seed(7);
        d->set_slice_games(sliceGames);
        req.mutable_spec()->set_games(games);
        return req;
    }
    std::uint64_t submit(std::uint64_t games, std::uint32_t sliceGames) {
        return coord->submit(user, request(games, sliceGames)).test_id();
    }
    std::uint64_t registerWorker() {
        v1::RegisterRequest r;
        r.set_name("box");
        return coord->registerWorker(worker, r).worker_id();
    }
    v1::JobResponse job(std::uint64_t workerId) {
        v1::JobRequest r;
        r.set_worker_id(workerId);
        r.set_concurrency(2);
        r.add_kinds("datagen");
        return coord->requestJob(worker, r);
    }
    v1::DataChunkUpload chunk(const v1::Job& job, std::uint64_t workerId, std::uint64_t seq, int n,
                              int offset = 0) {
        auto encoded = encodeChunks(positions(n, offset));
        v1::DataChunkUpload u;
        u.set_worker_id(workerId);
        u.set_lease_id(job.lease_id());
        u.set_slice(job.datagen().slice());
        u.set_sequence(seq);
        u.set_positions(encoded[0].positions);
        u.set_sha256(xq::sha256Hex(encoded[0].data));
        u.set_data(encoded[0].data);
        return u;
    }
    v1::CompleteSliceRequest completion(const v1::Job& job, std::uint64_t workerId, std::uint64_t chunks,
                                        std::uint64_t positions) {
        v1::CompleteSliceRequest c;
        c.set_worker_id(workerId);
        c.set_lease_id(job.lease_id());
        c.set_slice(job.datagen().slice());
        c.set_chunks(chunks);
        c.set_positions(positions);
        c.set_games_played(job.datagen().games());
        return c;
    }
    v1::TestSummary summary(std::uint64_t id) { return coord->showTest(std::int64_t(id)).summary(); }
    std::size_t filesOnDisk() {
        std::size_t n = 0;
        std::error_code ec;
        for (const auto& e : fs::recursive_directory_iterator(dir.file("data/data"), ec))
            n += e.is_regular_file();
        return n;
    }
};

}  // namespace

TEST(DatagenJobs, MalformedSpecsAreRefusedNamingTheField) {
    DatagenFixture f;
    auto refused = [&](auto mutate) {
        auto req = f.request(100, 10);
        mutate(req);
        EXPECT_EQ(codeOf([&] { f.coord->submit(f.user, req); }), ErrorCode::InvalidArgument);
        return messageOf([&] { f.coord->submit(f.user, req); });
    };
    using R = v1::SubmitRequest;
    EXPECT_NE(
        refused([](R& r) { r.mutable_spec()->mutable_datagen()->set_rules("axf"); }).find("datagen.rules"),
        std::string::npos);
    EXPECT_NE(refused([](R& r) { r.mutable_spec()->mutable_datagen()->set_nodes(0); }).find("datagen.nodes"),
              std::string::npos);
    EXPECT_NE(refused([](R& r) {
                  r.mutable_spec()->mutable_datagen()->set_sample_rate(0);
              }).find("datagen.sample_rate"),
              std::string::npos);
    EXPECT_NE(refused([](R& r) {
                  r.mutable_spec()->mutable_datagen()->set_sample_rate(1.5);
              }).find("datagen.sample_rate"),
              std::string::npos);
    EXPECT_NE(refused([](R& r) {
                  r.mutable_spec()->mutable_datagen()->set_random_plies(41);
              }).find("datagen.random_plies"),
              std::string::npos);
    EXPECT_NE(
        refused([](R& r) {
            r.mutable_spec()->mutable_datagen()->mutable_engine()->set_binary_sha256(std::string(64, 'a'));
        }).find("has not been uploaded"),
        std::string::npos);
    EXPECT_NE(refused([](R& r) {
                  r.mutable_spec()->mutable_datagen()->mutable_engine()->set_protocol("ucci");
              }).find("datagen.engine.protocol"),
              std::string::npos);
    EXPECT_NE(refused([](R& r) { r.mutable_spec()->set_games(0); }).find("games"), std::string::npos);
    EXPECT_NE(refused([](R& r) { r.mutable_spec()->mutable_sprt()->set_elo1(5); }).find("sprt"),
              std::string::npos);
    EXPECT_NE(refused([](R& r) {
                  r.mutable_spec()->mutable_datagen()->set_slice_games(20000);
              }).find("datagen.slice_games"),
              std::string::npos);
    EXPECT_EQ(f.coord->listTests({}).tests_size(), 0);
}

TEST(DatagenJobs, SlicesAreLeasedInOrderAndAnExpiredSliceIsReissuedWhole) {
    DatagenFixture f;
    auto id = f.submit(10, 4);  // slices: games 0-3, 4-7, 8-9
    auto a = f.registerWorker(), b = f.registerWorker();
    auto ja = f.job(a), jb = f.job(b);
    ASSERT_TRUE(ja.job().has_datagen());
    EXPECT_EQ(ja.job().test_id(), id);
    EXPECT_EQ(ja.job().datagen().slice(), 0u);
    EXPECT_EQ(ja.job().datagen().first_game(), 0u);
    EXPECT_EQ(ja.job().datagen().games(), 4u);
    EXPECT_EQ(jb.job().datagen().slice(), 1u);
    EXPECT_EQ(jb.job().datagen().first_game(), 4u);
    EXPECT_EQ(ja.job().datagen().spec().nodes(), 200u);
    EXPECT_EQ(ja.job().datagen().spec().chunk_positions(), 2048u);  // defaults spelled out for workers

    // a goes silent; b keeps heartbeating. After the timeout a's slice comes back with its games.
    f.clock += 6'000;
    v1::HeartbeatRequest hb;
    hb.set_worker_id(b);
    hb.set_lease_id(jb.job().lease_id());
    f.coord->heartbeat(f.worker, hb);
    f.clock += 6'000;
    EXPECT_EQ(f.coord->expireLeases(), 1);
    auto c = f.registerWorker();
    auto jc = f.job(c);
    EXPECT_EQ(jc.job().datagen().slice(), 0u);
    EXPECT_EQ(jc.job().datagen().first_game(), 0u);
    EXPECT_EQ(jc.job().datagen().games(), 4u);
    auto jd = f.job(f.registerWorker());
    EXPECT_EQ(jd.job().datagen().slice(), 2u);
    EXPECT_EQ(jd.job().datagen().games(), 2u);
    EXPECT_FALSE(f.job(f.registerWorker()).has_job());  // every slice is out
    auto s = f.summary(id);
    EXPECT_EQ(s.kind(), "datagen");
    EXPECT_EQ(s.games_target(), 10u);
    EXPECT_EQ(s.datagen().slices(), 3u);
    EXPECT_EQ(s.active_workers(), 3u);
    // A worker that does not say it runs datagen jobs (one older than them) is never given one.
    f.clock += 11'000;
    EXPECT_EQ(f.coord->expireLeases(), 3);
    v1::JobRequest old;
    old.set_worker_id(f.registerWorker());
    old.set_concurrency(1);
    EXPECT_FALSE(f.coord->requestJob(f.worker, old).has_job());
    EXPECT_TRUE(f.job(f.registerWorker()).has_job());
}

TEST(DatagenJobs, RepeatedUploadIsStoredOnceAndBadChunksAreRefused) {
    DatagenFixture f;
    auto id = f.submit(4, 4);
    auto w = f.registerWorker();
    auto j = f.job(w).job();
    auto up = f.chunk(j, w, 1, 30);
    EXPECT_FALSE(f.coord->uploadChunk(f.worker, up).duplicate());
    EXPECT_TRUE(f.coord->uploadChunk(f.worker, up).duplicate());  // the first ack was lost
    EXPECT_EQ(f.summary(id).datagen().positions(), 30u);
    EXPECT_EQ(f.summary(id).datagen().chunks(), 1u);
    EXPECT_EQ(f.filesOnDisk(), 1u);

    auto other = f.chunk(j, w, 1, 5, 40);  // the same sequence with other bytes
    EXPECT_NE(messageOf([&] { f.coord->uploadChunk(f.worker, other); }).find("other content"),
              std::string::npos);
    auto bad = [&](auto mutate) {
        auto u = f.chunk(j, w, 2, 10, 50);
        mutate(u);
        EXPECT_EQ(codeOf([&] { f.coord->uploadChunk(f.worker, u); }), ErrorCode::InvalidArgument);
        return messageOf([&] { f.coord->uploadChunk(f.worker, u); });
    };
    using U = v1::DataChunkUpload;
    EXPECT_NE(bad([](U& u) { u.set_positions(11); }).find("positions"), std::string::npos);
    EXPECT_NE(bad([](U& u) { u.set_sha256(std::string(64, '0')); }).find("sha256"), std::string::npos);
    EXPECT_NE(bad([](U& u) {
                  u.set_data("garbage, not gzip");
                  u.set_sha256(xq::sha256Hex(u.data()));
              }).find("data: not gzip"),
              std::string::npos);
    EXPECT_NE(bad([](U& u) {
                  u.set_data(gzipText("rnbakabnr/9 w ; 1.0\n"));
                  u.set_sha256(xq::sha256Hex(u.data()));
                  u.set_positions(1);
              }).find("line 1: bad FEN"),
              std::string::npos);
    EXPECT_NE(bad([](U& u) { u.set_slice(3); }).find("slice"), std::string::npos);
    EXPECT_NE(bad([](U& u) { u.set_sequence(0); }).find("sequence"), std::string::npos);
    EXPECT_NE(bad([](U& u) { u.set_data(std::string(MaxChunkBytes + 1, 'x')); }).find("at most"),
              std::string::npos);
    // Another worker's lease, and a lease that is not active.
    auto other_worker = f.registerWorker();
    auto stolen = f.chunk(j, other_worker, 2, 10, 50);
    EXPECT_EQ(codeOf([&] { f.coord->uploadChunk(f.worker, stolen); }), ErrorCode::PermissionDenied);
    EXPECT_EQ(f.summary(id).datagen().positions(), 30u);
    EXPECT_EQ(f.filesOnDisk(), 1u);  // nothing refused left a file
}

TEST(DatagenJobs, AnExpiredSliceLosesItsChunksSoNothingIsCountedTwice) {
    DatagenFixture f;
    auto id = f.submit(4, 4);
    auto a = f.registerWorker();
    auto ja = f.job(a).job();
    f.coord->uploadChunk(f.worker, f.chunk(ja, a, 1, 20));
    f.coord->uploadChunk(f.worker, f.chunk(ja, a, 2, 15, 20));
    EXPECT_EQ(f.summary(id).datagen().positions(), 35u);
    f.clock += 11'000;
    EXPECT_EQ(f.coord->expireLeases(), 1);
    EXPECT_EQ(f.summary(id).datagen().positions(), 0u);
    EXPECT_EQ(f.coord->purgeDiscardedChunks(), 2);
    EXPECT_EQ(f.filesOnDisk(), 0u);
    // The late worker is told its lease is gone; its chunk is not stored.
    EXPECT_EQ(codeOf([&] { f.coord->uploadChunk(f.worker, f.chunk(ja, a, 3, 5, 40)); }),
              ErrorCode::FailedPrecondition);
    EXPECT_EQ(codeOf([&] { f.coord->completeSlice(f.worker, f.completion(ja, a, 2, 35)); }),
              ErrorCode::FailedPrecondition);

    auto b = f.registerWorker();
    auto jb = f.job(b).job();
    EXPECT_EQ(jb.datagen().first_game(), 0u);
    f.coord->uploadChunk(f.worker, f.chunk(jb, b, 1, 20));
    f.coord->uploadChunk(f.worker, f.chunk(jb, b, 2, 15, 20));
    // A completion that does not match what is stored is refused; the right one finishes the test.
    EXPECT_EQ(codeOf([&] { f.coord->completeSlice(f.worker, f.completion(jb, b, 3, 40)); }),
              ErrorCode::FailedPrecondition);
    EXPECT_FALSE(f.coord->completeSlice(f.worker, f.completion(jb, b, 2, 35)).duplicate());
    EXPECT_TRUE(f.coord->completeSlice(f.worker, f.completion(jb, b, 2, 35)).duplicate());
    auto s = f.summary(id);
    EXPECT_EQ(s.state(), v1::TEST_STATE_FINISHED);
    EXPECT_EQ(s.games(), 4u);
    EXPECT_EQ(s.datagen().positions(), 35u);
    EXPECT_EQ(s.datagen().slices_done(), 1u);
    v1::ListChunksRequest lr;
    lr.set_test_id(id);
    auto list = f.coord->listChunks(f.user, lr);
    ASSERT_EQ(list.chunks_size(), 2);
    EXPECT_FALSE(list.more());
    lr.set_limit(1);  // a page at a time
    auto first = f.coord->listChunks(f.user, lr);
    ASSERT_EQ(first.chunks_size(), 1);
    EXPECT_TRUE(first.more());
    lr.set_after_id(first.chunks(0).id());
    auto second = f.coord->listChunks(f.user, lr);
    ASSERT_EQ(second.chunks_size(), 1);
    EXPECT_FALSE(second.more());
    EXPECT_EQ(second.chunks(0).id(), list.chunks(1).id());
    for (const auto& c : list.chunks()) {
        EXPECT_EQ(c.worker_id(), b);
        EXPECT_TRUE(c.slice_done());
        auto file = f.coord->chunkFile(f.user, std::int64_t(id), std::int64_t(c.id()));
        EXPECT_EQ(xq::sha256File(file.path), c.sha256());
    }
    EXPECT_EQ(codeOf([&] { f.coord->listChunks(f.worker, lr); }), ErrorCode::PermissionDenied);
}

TEST(DatagenJobs, StoredChunksSurviveARestartAndStrayFilesAreRemoved) {
    DatagenFixture f;
    auto id = f.submit(8, 4);
    auto a = f.registerWorker();
    auto ja = f.job(a).job();
    f.coord->uploadChunk(f.worker, f.chunk(ja, a, 1, 25));
    // A file written but never recorded (a crash between the two).
    fs::create_directories(f.dir.file("data/data/test-1"));
    std::ofstream(f.dir.file("data/data/test-1/s0-l9-q1-0000.txt.gz")) << "half";
    f.open();
    EXPECT_EQ(f.filesOnDisk(), 1u);
    EXPECT_EQ(f.summary(id).datagen().positions(), 25u);
    // The lease got a fresh timeout at the restart and goes on.
    f.coord->uploadChunk(f.worker, f.chunk(ja, a, 2, 5, 25));
    f.coord->completeSlice(f.worker, f.completion(ja, a, 2, 30));
    EXPECT_EQ(f.summary(id).datagen().slices_done(), 1u);
    EXPECT_EQ(f.summary(id).state(), v1::TEST_STATE_RUNNING);
}

TEST(DatagenJobs, StoppingATestDropsUnfinishedSlicesAndASliceThatKeepsFailingFailsIt) {
    DatagenFixture f;
    auto id = f.submit(8, 4);
    auto a = f.registerWorker();
    auto ja = f.job(a).job();
    f.coord->uploadChunk(f.worker, f.chunk(ja, a, 1, 10));
    f.coord->completeSlice(f.worker, f.completion(ja, a, 1, 10));
    auto jb = f.job(a).job();
    f.coord->uploadChunk(f.worker, f.chunk(jb, a, 1, 10, 10));
    v1::StopTestRequest stop;
    stop.set_test_id(id);
    f.coord->stopTest(f.user, stop);
    EXPECT_EQ(f.summary(id).datagen().positions(), 10u);  // the done slice's data stays

    // A match lease report on a datagen lease is refused.
    auto id2 = f.submit(4, 4);
    v1::ReportRequest wrong;
    wrong.set_worker_id(a);
    wrong.set_sequence(1);
    auto failOnce = [&] {
        auto j = f.job(a).job();
        ASSERT_EQ(j.test_id(), id2);
        wrong.set_lease_id(j.lease_id());
        EXPECT_EQ(codeOf([&] { f.coord->report(f.worker, wrong); }), ErrorCode::InvalidArgument);
        v1::ReleaseRequest rel;
        rel.set_worker_id(a);
        rel.set_lease_id(j.lease_id());
        rel.set_error("engine crashed at startup");
        f.coord->release(f.worker, rel);
    };
    for (int attempt = 1; attempt <= 5; ++attempt) failOnce();
    auto s = f.summary(id2);
    EXPECT_EQ(s.state(), v1::TEST_STATE_FAILED);
    EXPECT_NE(s.result().find("failed 5 times"), std::string::npos) << s.result();
    // Resumed, its slices' counts of failures start again: one more failure does not fail it.
    v1::ResumeTestRequest resume;
    resume.set_test_id(id2);
    EXPECT_EQ(f.coord->resumeTest(f.user, resume).state(), v1::TEST_STATE_RUNNING);
    failOnce();
    EXPECT_EQ(f.summary(id2).state(), v1::TEST_STATE_RUNNING);
    for (int attempt = 2; attempt <= 5; ++attempt) failOnce();
    EXPECT_EQ(f.summary(id2).state(), v1::TEST_STATE_FAILED);
}

TEST(DatagenJobs, AChunkOfTheOtherGamesPositionsIsRefusedAndNotStored) {
    DatagenFixture f;
    auto xiangqiTest = f.submit(4, 4);
    auto chessRequest = f.request(4, 4);
    chessRequest.mutable_spec()->mutable_datagen()->set_game("chess");
    auto chessTest = f.coord->submit(f.user, chessRequest).test_id();
    // One worker per test: a worker that asks for a job hands back the lease it held.
    auto w1 = f.registerWorker(), w2 = f.registerWorker();
    const std::string chessLines =
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 ; 0.5\n"
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 ; 1.0\n";
    const std::string xiangqiLine = xq::Position().fen() + " ; 0.5\n";
    auto upload = [&](const v1::Job& job, const std::string& text, std::uint64_t count) {
        v1::DataChunkUpload u;
        u.set_worker_id(job.test_id() == xiangqiTest ? w1 : w2);
        u.set_lease_id(job.lease_id());
        u.set_slice(job.datagen().slice());
        u.set_sequence(1);
        u.set_data(gzipText(text));
        u.set_sha256(xq::sha256Hex(u.data()));
        u.set_positions(count);
        return u;
    };
    // Slices are leased in the order the tests were submitted: first the Xiangqi test's, then chess's.
    auto first = f.job(w1).job();
    ASSERT_EQ(first.test_id(), xiangqiTest);
    auto second = f.job(w2).job();
    ASSERT_EQ(second.test_id(), chessTest);

    auto message =
        messageOf([&] { f.coord->uploadChunk(f.worker, upload(first, xiangqiLine + chessLines, 3)); });
    EXPECT_NE(message.find("position 2 is a chess position"), std::string::npos) << message;
    EXPECT_NE(message.find("generates Xiangqi data"), std::string::npos) << message;
    message = messageOf([&] { f.coord->uploadChunk(f.worker, upload(second, chessLines + xiangqiLine, 3)); });
    EXPECT_NE(message.find("position 3 is a Xiangqi position"), std::string::npos) << message;
    EXPECT_EQ(codeOf([&] { f.coord->uploadChunk(f.worker, upload(second, xiangqiLine, 1)); }),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(f.filesOnDisk(), 0u);

    // Each game's own positions are stored.
    EXPECT_FALSE(f.coord->uploadChunk(f.worker, upload(first, xiangqiLine, 1)).duplicate());
    EXPECT_FALSE(f.coord->uploadChunk(f.worker, upload(second, chessLines, 2)).duplicate());
    EXPECT_EQ(f.summary(xiangqiTest).datagen().positions(), 1u);
    EXPECT_EQ(f.summary(chessTest).datagen().positions(), 2u);
}

TEST(DatagenJobs, ACaptureGoTestTakesAGtpEngineAndItsBoardAndRefusesOtherData) {
    DatagenFixture f;
    auto goRequest = [&](const std::string& board) {
        auto req = f.request(4, 4);
        auto* d = req.mutable_spec()->mutable_datagen();
        d->set_game("capturego");
        d->set_board(board);
        d->mutable_engine()->set_protocol("gtp");
        return req;
    };
    using R = v1::SubmitRequest;
    auto refused = [&](R req) { return messageOf([&] { f.coord->submit(f.user, req); }); };
    auto uci = goRequest("size=5");
    uci.mutable_spec()->mutable_datagen()->mutable_engine()->set_protocol("uci");
    EXPECT_NE(refused(uci).find("datagen.engine.protocol must be gtp for capturego"), std::string::npos);
    auto options = goRequest("size=5");
    (*options.mutable_spec()->mutable_datagen()->mutable_engine()->mutable_options())["Hash"] = "8";
    EXPECT_NE(refused(options).find("GTP engines take no options"), std::string::npos);
    auto rules = goRequest("size=5");
    rules.mutable_spec()->mutable_datagen()->set_rules("chinese");
    EXPECT_NE(refused(rules).find("a capturego test's rules are its board"), std::string::npos);
    EXPECT_NE(refused(goRequest("size=4")).find("datagen.board: size must be a whole number from 5 to 19"),
              std::string::npos);
    auto xiangqiBoard = f.request(4, 4);
    xiangqiBoard.mutable_spec()->mutable_datagen()->set_board("size=5");
    EXPECT_NE(refused(xiangqiBoard).find("datagen.board is Capture Go's"), std::string::npos);

    const auto goTest = f.coord->submit(f.user, goRequest("size=5")).test_id();
    EXPECT_EQ(f.coord->showTest(std::int64_t(goTest)).spec().datagen().board(),
              "size=5,rules=capture,target=1,komi=0")
        << "canonical";
    const auto w = f.registerWorker();
    const auto job = f.job(w).job();
    ASSERT_EQ(job.test_id(), goTest);
    auto upload = [&](const std::string& text, std::uint64_t count) {
        v1::DataChunkUpload u;
        u.set_worker_id(w);
        u.set_lease_id(job.lease_id());
        u.set_slice(job.datagen().slice());
        u.set_sequence(1);
        u.set_data(gzipText(text));
        u.set_sha256(xq::sha256Hex(u.data()));
        u.set_positions(count);
        return u;
    };
    const std::string goLine = "5/1O3/2X2/5/5 b 0 0 0 capture:1 0 ; 1.0\n";
    auto message = messageOf(
        [&] { f.coord->uploadChunk(f.worker, upload(goLine + xq::Position().fen() + " ; 0.5\n", 2)); });
    EXPECT_NE(message.find("position 2 is a Xiangqi position, and test " + std::to_string(goTest) +
                           " generates Capture Go data"),
              std::string::npos)
        << message;
    message = messageOf([&] {
        f.coord->uploadChunk(f.worker, upload("9/9/9/9/4X4/9/9/9/9 w 0 0 0 capture:1 0 ; 1.0\n", 1));
    });
    EXPECT_NE(message.find("position 1: the opening is a 9x9 board, the test's board is 5x5"),
              std::string::npos)
        << message;
    message =
        messageOf([&] { f.coord->uploadChunk(f.worker, upload("5/1O3/2X2/5/5 b 0 0 0 go 7.5 ; 1.0\n", 1)); });
    EXPECT_NE(message.find("position 1 is not under the test's rules (size=5,rules=capture,target=1,komi=0)"),
              std::string::npos)
        << message;
    EXPECT_EQ(f.filesOnDisk(), 0u);
    EXPECT_FALSE(f.coord->uploadChunk(f.worker, upload(goLine, 1)).duplicate());
    EXPECT_EQ(f.summary(goTest).datagen().positions(), 1u);
}
