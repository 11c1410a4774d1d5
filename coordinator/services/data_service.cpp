#include "data_service.h"

#include <fstream>
#include <vector>

#include "grpc_call.h"

namespace xq::coord {

namespace {

constexpr std::size_t PieceBytes = 256 << 10;

}  // namespace

grpc::Status DataServiceImpl::UploadChunk(grpc::ServerContext* ctx, const v1::DataChunkUpload* req,
                                          v1::DataChunkAck* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.uploadChunk(c, *req); });
}

grpc::Status DataServiceImpl::CompleteSlice(grpc::ServerContext* ctx, const v1::CompleteSliceRequest* req,
                                            v1::CompleteSliceResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.completeSlice(c, *req); });
}

grpc::Status DataServiceImpl::ListChunks(grpc::ServerContext* ctx, const v1::ListChunksRequest* req,
                                         v1::ListChunksResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.listChunks(c, *req); });
}

grpc::Status DataServiceImpl::DownloadChunk(grpc::ServerContext* ctx, const v1::DownloadChunkRequest* req,
                                            grpc::ServerWriter<v1::DataBytes>* writer) {
    return guarded(coord_, ctx, [&](const Caller& c) {
        auto file = coord_.chunkFile(c, std::int64_t(req->test_id()), std::int64_t(req->chunk_id()));
        std::ifstream in(file.path, std::ios::binary);
        if (!in)
            throw CoordError(ErrorCode::NotFound,
                             "chunk " + std::to_string(req->chunk_id()) + " cannot be read (discarded?)");
        std::vector<char> buf(PieceBytes);
        bool first = true;
        do {
            in.read(buf.data(), std::streamsize(buf.size()));
            v1::DataBytes piece;
            if (first) {
                piece.set_total_size(file.bytes);
                piece.set_sha256(file.sha256);
            }
            piece.set_data(buf.data(), std::size_t(in.gcount()));
            if (!writer->Write(piece)) return;  // the client went away
            first = false;
        } while (in && !ctx->IsCancelled());
    });
}

}  // namespace xq::coord
