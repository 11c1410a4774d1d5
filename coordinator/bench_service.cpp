#include "bench_service.h"

namespace xq::coord {

namespace {

grpc::StatusCode toGrpc(ErrorCode c) {
    switch (c) {
        case ErrorCode::InvalidArgument:
            return grpc::StatusCode::INVALID_ARGUMENT;
        case ErrorCode::NotFound:
            return grpc::StatusCode::NOT_FOUND;
        case ErrorCode::Unauthenticated:
            return grpc::StatusCode::UNAUTHENTICATED;
        case ErrorCode::PermissionDenied:
            return grpc::StatusCode::PERMISSION_DENIED;
        case ErrorCode::FailedPrecondition:
            return grpc::StatusCode::FAILED_PRECONDITION;
        case ErrorCode::ResourceExhausted:
            return grpc::StatusCode::RESOURCE_EXHAUSTED;
    }
    return grpc::StatusCode::UNKNOWN;
}

std::string bearerToken(const grpc::ServerContext* ctx) {
    const auto& md = ctx->client_metadata();
    auto it = md.find("authorization");
    if (it == md.end()) return {};
    std::string value(it->second.data(), it->second.size());
    const std::string prefix = "Bearer ";
    return value.rfind(prefix, 0) == 0 ? value.substr(prefix.size()) : value;
}

template <class Fn>
grpc::Status guarded(Coordinator& coord, grpc::ServerContext* ctx, Fn&& fn) {
    try {
        Caller caller = coord.authenticate(bearerToken(ctx));
        fn(caller);
        return grpc::Status::OK;
    } catch (const CoordError& e) {
        return {toGrpc(e.code), e.what()};
    } catch (const std::exception& e) {
        return {grpc::StatusCode::INTERNAL, std::string("coordinator error: ") + e.what()};
    }
}

}  // namespace

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
