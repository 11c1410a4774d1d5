// xq.v1.DataService in-process over a real loopback socket: status codes of refused chunks, a chunk
// over the message limit, downloads checked against their hash, and the client's export.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "data_chunk.h"
#include "data_client.h"
#include "server.h"
#include "test_store.h"
#include "test_util.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

using namespace xq::coord;
using xq::coord::testing::TempDir;
using xq::coord::testing::TestStore;
namespace v1 = xq::v1;

namespace {

std::vector<xq::tuner::LabeledPosition> positions(int n) {
    std::vector<xq::tuner::LabeledPosition> out;
    xq::Position pos;
    for (int i = 0; i < n; ++i) {
        out.push_back({pos.fen(), i % 2 ? 1.0f : 0.0f});
        auto legal = xq::legalMoves(pos);
        pos.doMove(legal.moves[std::size_t(i) % std::size_t(legal.size)]);
    }
    return out;
}

struct Loopback {
    TempDir dir;
    TestStore store;
    std::unique_ptr<CoordinatorServer> server;
    std::unique_ptr<Client> user, worker;
    std::unique_ptr<v1::DataService::Stub> data;
    std::uint64_t testId = 0, workerId = 0;
    v1::Job job;

    Loopback() {
        ServerOptions o;
        o.coordinator.dataDir = dir.file("data");
        o.coordinator.store = store.option();
        o.maxMessageBytes = 2 << 20;
        server = std::make_unique<CoordinatorServer>(o);
        user = std::make_unique<Client>(
            Endpoint{server->address(), server->coordinator().createToken(Role::User, "u"), ""});
        worker = std::make_unique<Client>(
            Endpoint{server->address(), server->coordinator().createToken(Role::Worker, "w"), ""});
        data = v1::DataService::NewStub(worker->channel());
        xq::coord::testing::writeFile(dir.file("engine"), "#!/bin/sh\n");
        std::string sha = user->upload(dir.file("engine"));
        v1::SubmitRequest req;
        auto* d = req.mutable_spec()->mutable_datagen();
        d->mutable_engine()->set_binary_sha256(sha);
        d->set_nodes(100);
        d->set_sample_rate(0.5);
        req.mutable_spec()->set_games(4);
        v1::SubmitResponse sub;
        EXPECT_TRUE(user->user().SubmitTest(user->context().get(), req, &sub).ok());
        testId = sub.test_id();
        v1::RegisterResponse reg;
        EXPECT_TRUE(worker->worker().Register(worker->context().get(), {}, &reg).ok());
        workerId = reg.worker_id();
        v1::JobRequest jr;
        jr.set_worker_id(workerId);
        jr.set_concurrency(1);
        jr.add_kinds("datagen");
        v1::JobResponse resp;
        EXPECT_TRUE(worker->worker().RequestJob(worker->context().get(), jr, &resp).ok());
        job = resp.job();
    }
    v1::DataChunkUpload upload(std::uint64_t seq, const std::string& bytes, std::uint64_t count) {
        v1::DataChunkUpload u;
        u.set_worker_id(workerId);
        u.set_lease_id(job.lease_id());
        u.set_slice(job.datagen().slice());
        u.set_sequence(seq);
        u.set_positions(count);
        u.set_data(bytes);
        u.set_sha256(xq::sha256Hex(bytes));
        return u;
    }
    grpc::Status send(const v1::DataChunkUpload& u, v1::DataChunkAck* ack = nullptr) {
        v1::DataChunkAck local;
        return data->UploadChunk(worker->context().get(), u, ack ? ack : &local);
    }
};

}  // namespace

TEST(DataService, RefusedChunksGetInvalidArgumentNamingTheField) {
    Loopback l;
    ASSERT_TRUE(l.job.has_datagen());
    auto chunk = encodeChunks(positions(20))[0];
    auto status = l.send(l.upload(1, "not gzip", 1));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(status.error_message().find("data: not gzip"), std::string::npos) << status.error_message();
    status = l.send(l.upload(1, chunk.data, 21));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(status.error_message().find("positions"), std::string::npos) << status.error_message();
    // Over the server's message limit: refused by gRPC before any of our code runs.
    status = l.send(l.upload(1, std::string(3 << 20, 'x'), 1));
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    v1::DataChunkAck ack;
    ASSERT_TRUE(l.send(l.upload(1, chunk.data, 20), &ack).ok());
    EXPECT_FALSE(ack.duplicate());
    ASSERT_TRUE(l.send(l.upload(1, chunk.data, 20), &ack).ok());
    EXPECT_TRUE(ack.duplicate());
    // Users cannot upload; workers cannot list.
    auto asUser = v1::DataService::NewStub(l.user->channel());
    EXPECT_EQ(asUser->UploadChunk(l.user->context().get(), l.upload(2, chunk.data, 20), &ack).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    v1::ListChunksRequest lr;
    lr.set_test_id(l.testId);
    v1::ListChunksResponse list;
    EXPECT_EQ(l.data->ListChunks(l.worker->context().get(), lr, &list).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    lr.set_limit(20000);
    EXPECT_EQ(asUser->ListChunks(l.user->context().get(), lr, &list).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
}

TEST(DataService, ExportDownloadsVerifiesAndDeduplicates) {
    Loopback l;
    auto all = positions(30);
    std::vector<xq::tuner::LabeledPosition> first(all.begin(), all.begin() + 20),
        second(all.begin() + 10, all.end());
    auto a = encodeChunks(first)[0], b = encodeChunks(second)[0];
    ASSERT_TRUE(l.send(l.upload(1, a.data, a.positions)).ok());
    ASSERT_TRUE(l.send(l.upload(2, b.data, b.positions)).ok());
    v1::CompleteSliceRequest done;
    done.set_worker_id(l.workerId);
    done.set_lease_id(l.job.lease_id());
    done.set_slice(l.job.datagen().slice());
    done.set_chunks(2);
    done.set_positions(40);
    done.set_games_played(4);
    v1::CompleteSliceResponse doneResp;
    ASSERT_TRUE(l.data->CompleteSlice(l.worker->context().get(), done, &doneResp).ok());

    auto list = listDataChunks(*l.user, l.testId);
    ASSERT_EQ(list.chunks_size(), 2);
    EXPECT_EQ(list.progress().positions(), 40u);
    EXPECT_EQ(downloadDataChunk(*l.user, l.testId, list.chunks(0)), a.data);
    std::string out = l.dir.file("out.txt");
    ExportCounts c = exportTestData(*l.user, l.testId, out);
    EXPECT_EQ(c.chunks, 2);
    EXPECT_EQ(c.listedPositions, 40);
    EXPECT_EQ(c.positions, 30);
    EXPECT_EQ(c.duplicates, 10);
    auto back = xq::tuner::readDataFile(out);
    ASSERT_EQ(back.size(), 30u);
    for (std::size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i].fen, all[i].fen);
    // A chunk file damaged on the coordinator's disk is caught by the hash check.
    xq::coord::testing::writeFile(l.dir.file("data/" + list.chunks(1).file()), b.data.substr(1));
    EXPECT_THROW(downloadDataChunk(*l.user, l.testId, list.chunks(1)), std::runtime_error);
    std::string out2 = l.dir.file("out2.txt.gz");
    EXPECT_THROW(exportTestData(*l.user, l.testId, out2), std::runtime_error);
    EXPECT_FALSE(std::filesystem::exists(out2));
    EXPECT_FALSE(std::filesystem::exists(l.dir.file(".out2.txt.gz.partial.gz")));
    v1::DownloadChunkRequest missing;
    missing.set_test_id(l.testId);
    missing.set_chunk_id(999);
    auto asUser = v1::DataService::NewStub(l.user->channel());
    auto ctx = l.user->context();
    auto reader = asUser->DownloadChunk(ctx.get(), missing);
    v1::DataBytes piece;
    while (reader->Read(&piece)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::NOT_FOUND);
}
