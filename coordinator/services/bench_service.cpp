#include "bench_service.h"

#include "grpc_call.h"

namespace xq::coord {

grpc::Status BenchServiceImpl::SubmitBench(grpc::ServerContext* ctx, const v1::SubmitBenchRequest* req,
                                           v1::SubmitBenchResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = jobs_.submit(c, *req); });
}

grpc::Status BenchServiceImpl::GetBench(grpc::ServerContext* ctx, const v1::GetBenchRequest* req,
                                        v1::BenchRun* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = jobs_.get(c, req->bench_id()); });
}

grpc::Status BenchServiceImpl::ListBenches(grpc::ServerContext* ctx, const v1::ListBenchesRequest* req,
                                           v1::ListBenchesResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = jobs_.list(c, req->limit()); });
}

grpc::Status BenchServiceImpl::PollBench(grpc::ServerContext* ctx, const v1::PollBenchRequest* req,
                                         v1::PollBenchResponse* resp) {
    return guarded(coord_, ctx, [&](const Caller& c) { *resp = jobs_.poll(c, req->worker_id()); });
}

grpc::Status BenchServiceImpl::ReportBench(grpc::ServerContext* ctx, const v1::ReportBenchRequest* req,
                                           v1::ReportBenchResponse*) {
    return guarded(coord_, ctx, [&](const Caller& c) { jobs_.report(c, *req); });
}

}  // namespace xq::coord
