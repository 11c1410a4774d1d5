// The coordinator's error code thrown by a call, for tests of refusals.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

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

// The message of the CoordError a call throws, checking its code (empty, and a failure, when it throws none).
inline std::string messageOf(const std::function<void()>& fn, ErrorCode expected) {
    try {
        fn();
    } catch (const CoordError& e) {
        EXPECT_EQ(int(e.code), int(expected)) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
}

}  // namespace xq::coord::testing
