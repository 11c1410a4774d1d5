// The coordinator's error code thrown by a call, for tests of refusals.
#pragma once

#include <gtest/gtest.h>

#include <functional>

#include "coordinator.h"

namespace xq::coord::testing {

inline ErrorCode codeOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const CoordError& e) {
        return e.code;
    }
    ADD_FAILURE() << "no error";
    return ErrorCode::Unauthenticated;
}

}  // namespace xq::coord::testing
