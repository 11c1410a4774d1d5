#include "service.h"

#include <fstream>
#include <vector>

#include "grpc_call.h"

namespace xq::coord {

namespace {

constexpr std::size_t ChunkBytes = 256 << 10;  // well under the clients' receive limit

}  // namespace

grpc::Status WorkerServiceImpl::Register(grpc::ServerContext* ctx, const v1::RegisterRequest* req,
                                         v1::RegisterResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.registerWorker(c, *req); });
}

grpc::Status WorkerServiceImpl::RequestJob(grpc::ServerContext* ctx, const v1::JobRequest* req,
                                           v1::JobResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.requestJob(c, *req); });
}

grpc::Status WorkerServiceImpl::Heartbeat(grpc::ServerContext* ctx, const v1::HeartbeatRequest* req,
                                          v1::HeartbeatResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.heartbeat(c, *req); });
}

grpc::Status WorkerServiceImpl::ReportResults(grpc::ServerContext* ctx, const v1::ReportRequest* req,
                                              v1::ReportResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.report(c, *req); });
}

grpc::Status WorkerServiceImpl::ReleaseLease(grpc::ServerContext* ctx, const v1::ReleaseRequest* req,
                                             v1::ReleaseResponse*) {
    return guarded(coord_, ctx, [&](const Caller& c) { coord_.release(c, *req); });
}

grpc::Status WorkerServiceImpl::FetchArtifact(grpc::ServerContext* ctx, const v1::ArtifactRequest* req,
                                              grpc::ServerWriter<v1::ArtifactChunk>* writer) {
    return guarded(coord_, ctx, [&](const Caller&) {
        std::string path = coord_.artifactPath(req->sha256());
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (!in) throw CoordError(ErrorCode::NotFound, "artifact " + req->sha256() + " cannot be read");
        auto total = std::uint64_t(in.tellg());
        in.seekg(0);
        std::vector<char> buf(ChunkBytes);
        bool first = true;
        do {
            in.read(buf.data(), std::streamsize(buf.size()));
            v1::ArtifactChunk chunk;
            if (first) chunk.set_total_size(total);
            chunk.set_data(buf.data(), std::size_t(in.gcount()));
            if (!writer->Write(chunk)) return;  // the client went away
            first = false;
        } while (in && !ctx->IsCancelled());
    });
}

grpc::Status UserServiceImpl::UploadArtifact(grpc::ServerContext* ctx,
                                             grpc::ServerReader<v1::UploadChunk>* reader,
                                             v1::UploadResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) {
        v1::UploadChunk chunk;
        if (!reader->Read(&chunk)) throw CoordError(ErrorCode::InvalidArgument, "empty upload");
        resp->set_sha256(chunk.sha256());
        if (coord_.hasArtifact(chunk.sha256()) && c.role == Role::User) {
            resp->set_already_present(true);  // content-addressed: same hash, same bytes
            coord_.markArtifactKind(c, chunk.sha256(), chunk.kind());
            return;
        }
        auto upload = coord_.beginUpload(c, chunk.sha256(), chunk.total_size());
        std::string name = chunk.name(), kind = chunk.kind();
        std::uint64_t size = chunk.total_size();
        try {
            do upload->write(chunk.data());
            while (reader->Read(&chunk));
            upload->finish();
        } catch (const std::invalid_argument& e) {
            throw CoordError(ErrorCode::InvalidArgument, e.what());
        }
        coord_.artifactUploaded(upload->sha256(), size, name, kind);
    });
}

grpc::Status UserServiceImpl::SubmitTest(grpc::ServerContext* ctx, const v1::SubmitRequest* req,
                                         v1::SubmitResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.submit(c, *req); });
}

grpc::Status UserServiceImpl::ListTests(grpc::ServerContext* ctx, const v1::ListTestsRequest* req,
                                        v1::ListTestsResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller&) { *resp = coord_.listTests(*req); });
}

grpc::Status UserServiceImpl::ShowTest(grpc::ServerContext* ctx, const v1::ShowTestRequest* req,
                                       v1::TestView* resp) {
    return guarded(coord_, ctx,
                   [&](const Caller&) { *resp = coord_.showTest(std::int64_t(req->test_id())); });
}

grpc::Status UserServiceImpl::StopTest(grpc::ServerContext* ctx, const v1::StopTestRequest* req,
                                       v1::StopTestResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.stopTest(c, *req); });
}

grpc::Status UserServiceImpl::SetWebhookSecret(grpc::ServerContext* ctx,
                                               const v1::SetWebhookSecretRequest* req,
                                               v1::SetWebhookSecretResponse*) {
    return guarded(coord_, ctx, [&](const Caller& c) { coord_.setWebhookSecret(c, req->secret()); });
}

grpc::Status UserServiceImpl::ResumeTest(grpc::ServerContext* ctx, const v1::ResumeTestRequest* req,
                                         v1::ResumeTestResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.resumeTest(c, *req); });
}

grpc::Status UserServiceImpl::ApproveTest(grpc::ServerContext* ctx, const v1::ApproveTestRequest* req,
                                          v1::ApproveTestResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.approveTest(c, *req); });
}

grpc::Status UserServiceImpl::ListWorkers(grpc::ServerContext* ctx, const v1::ListWorkersRequest*,
                                          v1::ListWorkersResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller&) { *resp = coord_.listWorkers(); });
}

grpc::Status UserServiceImpl::ListArtifacts(grpc::ServerContext* ctx, const v1::ListArtifactsRequest* req,
                                            v1::ListArtifactsResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller&) { *resp = coord_.listArtifacts(*req); });
}

grpc::Status UserServiceImpl::CreateToken(grpc::ServerContext* ctx, const v1::CreateTokenRequest* req,
                                          v1::CreateTokenResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.createTokenFor(c, *req); });
}

grpc::Status UserServiceImpl::FetchGames(grpc::ServerContext* ctx, const v1::FetchGamesRequest* req,
                                         grpc::ServerWriter<v1::GamesChunk>* writer) {
    return guarded(coord_, ctx, [&](const Caller&) {
        auto testId = std::int64_t(req->test_id());
        v1::GamesChunk first;
        first.set_games(std::uint64_t(coord_.gameTotals(testId).games));
        std::int64_t cursor = 0;
        bool sentFirst = false;
        // Page by page, so the coordinator is not held while a slow client reads.
        while (!ctx->IsCancelled()) {
            auto page = coord_.gamesPage(testId, cursor, ChunkBytes);
            if (page.members.empty()) break;
            cursor = page.cursor;
            v1::GamesChunk chunk = sentFirst ? v1::GamesChunk{} : first;
            for (const auto& m : page.members) chunk.mutable_data()->append(m);
            if (!writer->Write(chunk)) return;
            sentFirst = true;
        }
        if (!sentFirst) writer->Write(first);
    });
}

}  // namespace xq::coord
