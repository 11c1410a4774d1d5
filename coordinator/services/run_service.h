// The gRPC face of runs (xq.v1.RunService: users submit, list, show, stop, resume runs and set their
// priority) and of training leases' uploads (xq.v1.TrainingService: workers). Both only translate calls to
// and from Coordinator (coordinator_runs.cpp).
#pragma once

#include "coordinator.h"
#include "xq/v1/run.grpc.pb.h"

namespace xq::coord {

class RunServiceImpl final : public v1::RunService::Service {
  public:
    explicit RunServiceImpl(Coordinator& c) : coord_(c) {}
    grpc::Status SubmitRun(grpc::ServerContext*, const v1::SubmitRunRequest*,
                           v1::SubmitRunResponse*) override;
    grpc::Status ListRuns(grpc::ServerContext*, const v1::ListRunsRequest*, v1::ListRunsResponse*) override;
    grpc::Status ShowRun(grpc::ServerContext*, const v1::ShowRunRequest*, v1::RunView*) override;
    grpc::Status StopRun(grpc::ServerContext*, const v1::StopRunRequest*, v1::RunStateResponse*) override;
    grpc::Status ResumeRun(grpc::ServerContext*, const v1::ResumeRunRequest*, v1::RunStateResponse*) override;
    grpc::Status SetRunPriority(grpc::ServerContext*, const v1::SetRunPriorityRequest*,
                                v1::RunStateResponse*) override;

  private:
    Coordinator& coord_;
};

class TrainingServiceImpl final : public v1::TrainingService::Service {
  public:
    explicit TrainingServiceImpl(Coordinator& c) : coord_(c) {}
    grpc::Status UploadTrainingFile(grpc::ServerContext*, grpc::ServerReader<v1::TrainingFileChunk>*,
                                    v1::TrainingFileAck*) override;

  private:
    Coordinator& coord_;
};

}  // namespace xq::coord
