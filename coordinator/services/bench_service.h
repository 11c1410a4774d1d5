// The gRPC face of cluster benchmarks (xq.v1.BenchService): authenticates callers through the
// Coordinator and forwards to BenchJobs.
#pragma once

#include "bench_jobs.h"
#include "xq/v1/bench.grpc.pb.h"

namespace xq::coord {

class BenchServiceImpl final : public v1::BenchService::Service {
  public:
    BenchServiceImpl(Coordinator& coordinator, BenchJobs& jobs) : coord_(coordinator), jobs_(jobs) {}
    grpc::Status SubmitBench(grpc::ServerContext*, const v1::SubmitBenchRequest*,
                             v1::SubmitBenchResponse*) override;
    grpc::Status GetBench(grpc::ServerContext*, const v1::GetBenchRequest*, v1::BenchRun*) override;
    grpc::Status ListBenches(grpc::ServerContext*, const v1::ListBenchesRequest*,
                             v1::ListBenchesResponse*) override;
    grpc::Status PollBench(grpc::ServerContext*, const v1::PollBenchRequest*,
                           v1::PollBenchResponse*) override;
    grpc::Status ReportBench(grpc::ServerContext*, const v1::ReportBenchRequest*,
                             v1::ReportBenchResponse*) override;

  private:
    Coordinator& coord_;
    BenchJobs& jobs_;
};

}  // namespace xq::coord
