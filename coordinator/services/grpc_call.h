// What every gRPC method of the coordinator does around its call into plain C++: authenticate the bearer
// token, run, and map errors to gRPC statuses. Shared by the worker, user and bench services.
#pragma once

#include <grpcpp/grpcpp.h>

#include <string>

#include "coordinator.h"

namespace xq::coord {

inline grpc::StatusCode toGrpc(ErrorCode c) {
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

inline std::string bearerToken(const grpc::ServerContext* ctx) {
    const auto& md = ctx->client_metadata();
    auto it = md.find("authorization");
    if (it == md.end()) return {};
    std::string value(it->second.data(), it->second.size());
    const std::string prefix = "Bearer ";
    return value.rfind(prefix, 0) == 0 ? value.substr(prefix.size()) : value;
}

// Runs a call: authenticates, maps exceptions to a status. Internal errors are reported, never thrown
// into gRPC.
template <class Fn>
inline grpc::Status guarded(Coordinator& coord, grpc::ServerContext* ctx, Fn&& fn) {
    try {
        Caller caller = coord.authenticate(bearerToken(ctx));
        fn(caller);
        return grpc::Status::OK;
    } catch (const CoordError& e) {
        return {toGrpc(e.code), e.what()};
    } catch (const DatabaseError& e) {
        // A store that cannot be reached is a reason to retry (on another replica, or later), not a fault.
        return {e.unavailable ? grpc::StatusCode::UNAVAILABLE : grpc::StatusCode::INTERNAL,
                std::string("coordinator store: ") + e.what()};
    } catch (const std::exception& e) {
        return {grpc::StatusCode::INTERNAL, std::string("coordinator error: ") + e.what()};
    }
}

}  // namespace xq::coord
