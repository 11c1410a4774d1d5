#include "test_verdict.h"

#include "test_report.h"

namespace xq::coord {

std::optional<TestVerdict> testVerdict(const v1::TestView& view) {
    const auto& s = view.summary();
    const std::string& result = s.result();
    switch (s.state()) {
        case v1::TEST_STATE_RUNNING:
        case v1::TEST_STATE_PENDING:
            return std::nullopt;
        case v1::TEST_STATE_FINISHED:
            if (!s.is_sprt())
                return TestVerdict{VerdictPassed,
                                   "passed: played its " + std::to_string(s.games()) +
                                       " games (a fixed-games test has no hypothesis to fail)"};
            if (result == "H1 accepted") return TestVerdict{VerdictPassed, "passed: H1 accepted"};
            if (result == "H0 accepted") return TestVerdict{VerdictFailed, "failed: H0 accepted"};
            return TestVerdict{VerdictFailed,
                               "failed: " + (result.empty() ? std::string("no verdict") : result)};
        default:
            break;
    }
    std::string why = stateName(s.state());
    if (!result.empty() && result != why) why += " (" + result + ")";
    return TestVerdict{VerdictNone, "no verdict: " + why};
}

}  // namespace xq::coord
