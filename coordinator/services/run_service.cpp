#include "run_service.h"

#include "grpc_call.h"

namespace xq::coord {

grpc::Status RunServiceImpl::SubmitRun(grpc::ServerContext* ctx, const v1::SubmitRunRequest* req,
                                       v1::SubmitRunResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.submitRun(c, *req); });
}

grpc::Status RunServiceImpl::ListRuns(grpc::ServerContext* ctx, const v1::ListRunsRequest* req,
                                      v1::ListRunsResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller&) { *resp = coord_.listRuns(*req); });
}

grpc::Status RunServiceImpl::ShowRun(grpc::ServerContext* ctx, const v1::ShowRunRequest* req,
                                     v1::RunView* resp) {
    return guarded(coord_, ctx, [&](const Caller&) { *resp = coord_.showRun(std::int64_t(req->run_id())); });
}

grpc::Status RunServiceImpl::StopRun(grpc::ServerContext* ctx, const v1::StopRunRequest* req,
                                     v1::RunStateResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.stopRun(c, *req); });
}

grpc::Status RunServiceImpl::ResumeRun(grpc::ServerContext* ctx, const v1::ResumeRunRequest* req,
                                       v1::RunStateResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.resumeRun(c, *req); });
}

grpc::Status RunServiceImpl::SetRunPriority(grpc::ServerContext* ctx, const v1::SetRunPriorityRequest* req,
                                            v1::RunStateResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = coord_.setRunPriority(c, *req); });
}

grpc::Status TrainingServiceImpl::UploadTrainingFile(grpc::ServerContext* ctx,
                                                     grpc::ServerReader<v1::TrainingFileChunk>* reader,
                                                     v1::TrainingFileAck* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) {
        v1::TrainingFileChunk chunk;
        if (!reader->Read(&chunk)) throw CoordError(ErrorCode::InvalidArgument, "empty upload");
        v1::TrainingFileChunk header = chunk;
        header.clear_data();
        auto upload = coord_.beginTrainingUpload(c, header);
        try {
            do upload->write(chunk.data());
            while (reader->Read(&chunk));
            upload->finish();
        } catch (const std::invalid_argument& e) {
            throw CoordError(ErrorCode::InvalidArgument, e.what());
        }
        *resp = coord_.trainingFileUploaded(c, header);
    });
}

}  // namespace xq::coord
