// What a test needs from outside itself: an installed program it checks against (GNU Go, Fairy-Stockfish,
// Stockfish) or a binary of this build it runs (xq, xq-engine, xq-go). A developer's partial build may lack
// one, and the test then skips with what is missing; under scripts/test.sh (and so CI), which installs every
// package and builds every binary, XQ_REQUIRE_ORACLES=1 is set and a missing one fails the test instead, so
// that a suite cannot pass with its oracles silently absent.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace xq::testing {

// True when a missing oracle must fail the test (XQ_REQUIRE_ORACLES set to anything but "" or "0").
inline bool oraclesRequired() {
    const char* v = std::getenv("XQ_REQUIRE_ORACLES");
    return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

}  // namespace xq::testing

// In a test body or a fixture's SetUp: goes on when `available`, otherwise fails (oracles required) or skips,
// naming `what`.
#define XQ_REQUIRE_ORACLE(available, what)                                                           \
    if (available) {                                                                                 \
    } else if (::xq::testing::oraclesRequired())                                                     \
        GTEST_FAIL()                                                                                 \
            << "required, missing: " << what                                                         \
            << " (XQ_REQUIRE_ORACLES is set: scripts/test.sh installs and builds all a test needs)"; \
    else                                                                                             \
        GTEST_SKIP() << what
