// The gRPC layer in-process over a real loopback socket: metadata auth, status codes, message limits,
// undecodable requests, and server reflection.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <future>

#include "client.h"
#include "server.h"
#include "test_store.h"
#include "test_util.h"

using namespace xq::coord;
using xq::coord::testing::TempDir;
using xq::coord::testing::TestStore;
namespace v1 = xq::v1;

namespace {

struct InProcess {
    TempDir dir;
    TestStore store;
    std::unique_ptr<CoordinatorServer> server;
    std::string userToken, workerToken;
    explicit InProcess(int maxMessageBytes = 4 << 20) {
        ServerOptions o;
        o.coordinator.dataDir = dir.file("data");
        o.coordinator.store = store.option();
        o.maxMessageBytes = maxMessageBytes;
        server = std::make_unique<CoordinatorServer>(o);
        userToken = server->coordinator().createToken(Role::User, "u");
        workerToken = server->coordinator().createToken(Role::Worker, "w");
    }
    Client client(const std::string& token) { return Client({server->address(), token, ""}); }
};

grpc::ByteBuffer bytes(const std::string& s) {
    grpc::Slice slice(s);
    return grpc::ByteBuffer(&slice, 1);
}

std::string flatten(const grpc::ByteBuffer& b) {
    std::vector<grpc::Slice> slices;
    (void)b.Dump(&slices);
    std::string out;
    for (auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
    return out;
}

}  // namespace

TEST(Service, TokensTravelAsMetadata) {
    InProcess p;
    auto user = p.client(p.userToken);
    v1::ListTestsResponse resp;
    EXPECT_TRUE(user.user().ListTests(user.context().get(), {}, &resp).ok());
    auto stranger = p.client("xq_unknown");
    auto status = stranger.user().ListTests(stranger.context().get(), {}, &resp);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
    auto worker = p.client(p.workerToken);
    v1::SubmitResponse sresp;
    status = worker.user().SubmitTest(worker.context().get(), {}, &sresp);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_NE(status.error_message().find("worker token"), std::string::npos) << status.error_message();
}

TEST(Service, UploadsAreVerifiedAndDownloadsToo) {
    InProcess p;
    TempDir files;
    std::string content(3 << 20, 'e');  // several chunks
    for (std::size_t i = 0; i < content.size(); i += 4096) content[i] = char(i / 4096);
    xq::coord::testing::writeFile(files.file("engine"), content);
    auto user = p.client(p.userToken);
    std::string sha = user.upload(files.file("engine"));
    EXPECT_EQ(sha, xq::sha256Hex(content));
    EXPECT_TRUE(p.server->coordinator().hasArtifact(sha));
    user.upload(files.file("engine"));  // already present: fine
    auto worker = p.client(p.workerToken);
    worker.download(sha, files.file("copy"));
    EXPECT_EQ(xq::coord::testing::readFileOrEmpty(files.file("copy")), content);
    // A stored artifact changed on the coordinator's disk is refused by the downloader.
    xq::coord::testing::writeFile(p.dir.file("data/artifacts/" + sha), "something else");
    EXPECT_THROW(worker.download(sha, files.file("copy2")), std::runtime_error);
    EXPECT_FALSE(std::filesystem::exists(files.file("copy2")));
    // A worker token cannot upload.
    xq::coord::testing::writeFile(files.file("other"), "other bytes");
    EXPECT_THROW(worker.upload(files.file("other")), RpcError);
}

TEST(Service, OversizedRequestsAreRefusedBeforeTheyReachTheLogic) {
    InProcess p(64 << 10);
    auto user = p.client(p.userToken);
    v1::SubmitRequest req;
    req.mutable_spec()->set_description(std::string(100 << 10, 'x'));
    v1::SubmitResponse resp;
    auto status = user.user().SubmitTest(user.context().get(), req, &resp);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
    v1::ListTestsResponse list;
    ASSERT_TRUE(user.user().ListTests(user.context().get(), {}, &list).ok());
    EXPECT_EQ(list.tests_size(), 0);
}

TEST(Service, UndecodableBytesGetAnErrorNotACrash) {
    InProcess p;
    auto channel = grpc::CreateChannel(p.server->address(), grpc::InsecureChannelCredentials());
    grpc::GenericStub stub(channel);
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + p.userToken);
    grpc::ByteBuffer request = bytes("\xff\xff\xff\xff garbage that is no protobuf"), response;
    std::promise<grpc::Status> done;
    stub.UnaryCall(&ctx, "/xq.v1.UserService/SubmitTest", grpc::StubOptions(), &request, &response,
                   [&](grpc::Status s) { done.set_value(s); });
    grpc::Status status = done.get_future().get();
    EXPECT_FALSE(status.ok());
    auto user = p.client(p.userToken);
    v1::ListTestsResponse list;
    ASSERT_TRUE(user.user().ListTests(user.context().get(), {}, &list).ok());
    EXPECT_EQ(list.tests_size(), 0);
}

TEST(Service, ReflectionListsTheServices) {
    InProcess p;
    auto channel = grpc::CreateChannel(p.server->address(), grpc::InsecureChannelCredentials());
    grpc::GenericStub stub(channel);
    grpc::CompletionQueue cq;
    grpc::ClientContext ctx;
    auto call = stub.PrepareCall(&ctx, "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", &cq);
    auto await = [&](std::intptr_t expected) {
        void* tag;
        bool ok;
        EXPECT_TRUE(cq.Next(&tag, &ok));
        EXPECT_EQ(reinterpret_cast<std::intptr_t>(tag), expected);
        return ok;
    };
    call->StartCall(reinterpret_cast<void*>(1));
    ASSERT_TRUE(await(1));
    // ServerReflectionRequest { list_services: "" } is field 7, length-delimited, empty.
    call->Write(bytes(std::string("\x3a\x00", 2)), reinterpret_cast<void*>(2));
    ASSERT_TRUE(await(2));
    grpc::ByteBuffer reply;
    call->Read(&reply, reinterpret_cast<void*>(3));
    ASSERT_TRUE(await(3));
    std::string text = flatten(reply);
    EXPECT_NE(text.find("xq.v1.UserService"), std::string::npos);
    EXPECT_NE(text.find("xq.v1.WorkerService"), std::string::npos);
    call->WritesDone(reinterpret_cast<void*>(4));
    await(4);
    grpc::Status status;
    call->Finish(&status, reinterpret_cast<void*>(5));
    await(5);
    EXPECT_TRUE(status.ok()) << status.error_message();
    cq.Shutdown();
    void* tag;
    bool ok;
    while (cq.Next(&tag, &ok)) {
    }
}
