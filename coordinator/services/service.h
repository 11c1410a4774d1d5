// The gRPC face of the coordinator: each method authenticates the caller from the `authorization`
// metadata, calls Coordinator, and maps its errors to gRPC status codes.
#pragma once

#include "coordinator.h"
#include "xq/v1/coordinator.grpc.pb.h"

namespace xq::coord {

class WorkerServiceImpl final : public v1::WorkerService::Service {
  public:
    explicit WorkerServiceImpl(Coordinator& c) : coord_(c) {}
    grpc::Status Register(grpc::ServerContext*, const v1::RegisterRequest*, v1::RegisterResponse*) override;
    grpc::Status RequestJob(grpc::ServerContext*, const v1::JobRequest*, v1::JobResponse*) override;
    grpc::Status Heartbeat(grpc::ServerContext*, const v1::HeartbeatRequest*,
                           v1::HeartbeatResponse*) override;
    grpc::Status ReportResults(grpc::ServerContext*, const v1::ReportRequest*, v1::ReportResponse*) override;
    grpc::Status ReleaseLease(grpc::ServerContext*, const v1::ReleaseRequest*, v1::ReleaseResponse*) override;
    grpc::Status FetchArtifact(grpc::ServerContext*, const v1::ArtifactRequest*,
                               grpc::ServerWriter<v1::ArtifactChunk>*) override;

  private:
    Coordinator& coord_;
};

class UserServiceImpl final : public v1::UserService::Service {
  public:
    explicit UserServiceImpl(Coordinator& c) : coord_(c) {}
    grpc::Status UploadArtifact(grpc::ServerContext*, grpc::ServerReader<v1::UploadChunk>*,
                                v1::UploadResponse*) override;
    grpc::Status SubmitTest(grpc::ServerContext*, const v1::SubmitRequest*, v1::SubmitResponse*) override;
    grpc::Status ListTests(grpc::ServerContext*, const v1::ListTestsRequest*,
                           v1::ListTestsResponse*) override;
    grpc::Status ShowTest(grpc::ServerContext*, const v1::ShowTestRequest*, v1::TestView*) override;
    grpc::Status StopTest(grpc::ServerContext*, const v1::StopTestRequest*, v1::StopTestResponse*) override;
    grpc::Status ApproveTest(grpc::ServerContext*, const v1::ApproveTestRequest*,
                             v1::ApproveTestResponse*) override;
    grpc::Status ResumeTest(grpc::ServerContext*, const v1::ResumeTestRequest*,
                            v1::ResumeTestResponse*) override;
    grpc::Status SetWebhookSecret(grpc::ServerContext*, const v1::SetWebhookSecretRequest*,
                                  v1::SetWebhookSecretResponse*) override;
    grpc::Status ListWorkers(grpc::ServerContext*, const v1::ListWorkersRequest*,
                             v1::ListWorkersResponse*) override;
    grpc::Status CreateToken(grpc::ServerContext*, const v1::CreateTokenRequest*,
                             v1::CreateTokenResponse*) override;
    grpc::Status ListArtifacts(grpc::ServerContext*, const v1::ListArtifactsRequest*,
                               v1::ListArtifactsResponse*) override;
    grpc::Status FetchGames(grpc::ServerContext*, const v1::FetchGamesRequest*,
                            grpc::ServerWriter<v1::GamesChunk>*) override;

  private:
    Coordinator& coord_;
};

}  // namespace xq::coord
