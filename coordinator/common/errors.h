// The coordinator's one error type: a code from one enum and a message naming what was wrong. The gRPC
// services map the codes to gRPC status codes in one place (services/grpc_call.h); the web view maps them
// to HTTP statuses (web/web_server.cpp). Everything below the services throws these.
#pragma once

#include <stdexcept>
#include <string>

namespace xq::coord {

enum class ErrorCode {
    InvalidArgument,
    NotFound,
    Unauthenticated,
    PermissionDenied,
    FailedPrecondition,
    ResourceExhausted,
};

struct CoordError : std::runtime_error {
    CoordError(ErrorCode c, const std::string& message) : std::runtime_error(message), code(c) {}
    ErrorCode code;
};

[[noreturn]] inline void fail(ErrorCode code, const std::string& message) {
    throw CoordError(code, message);
}

}  // namespace xq::coord
