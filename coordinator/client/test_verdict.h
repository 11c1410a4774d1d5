// What an ended test means to a script or a CI job: the exit status of `xq wait` and `xq submit --wait`
// (0 passed, 1 failed, 2 no verdict: stopped, unable to run, timed out) and the sentence that says why.
#pragma once

#include <optional>
#include <string>

#include "xq/v1/coordinator.pb.h"

namespace xq::coord {

// The exit statuses, documented in `xq wait --help` and the README.
enum VerdictExit : int { VerdictPassed = 0, VerdictFailed = 1, VerdictNone = 2 };

struct TestVerdict {
    int exitCode = VerdictNone;
    std::string text;  // "passed: H1 accepted", "failed: H0 accepted", "no verdict: stopped (...)"
};

// std::nullopt while the test may still change (running, or waiting for an approver). An SPRT passes on H1
// (for a non-regression test H1 is "dev is no worse") and fails on H0 or when its game cap ends it without a
// verdict; a test of fixed games passes when it has played them (it has no hypothesis to fail); a stopped
// test, or one that could not be played, has no verdict.
std::optional<TestVerdict> testVerdict(const xq::v1::TestView& view);

}  // namespace xq::coord
