// Building a test spec from what a user gives `xq submit` (coordinator/submission.h).
#include "submission.h"

#include <gtest/gtest.h>

// `xq submit --each tc=10+0.1 --dev-option tc=5+0.05`: the engine's own value replaces --each's (as in
// `xq match`), and args= reaches the spec.
TEST(EngineSettings, SubmitBuildsTheEnginesAsMatchWould) {
    xq::coord::SubmissionOptions o;
    o.each = {"tc=10+0.1 option.Hash=16"};
    o.dev.settings = {"tc=5+0.05", "args=--threads 2"};
    o.sprt = "elo0=0,elo1=5";
    xq::coord::ArtifactHashes h;
    h.base = std::string(64, 'a');
    h.dev = std::string(64, 'b');
    auto spec = xq::coord::buildTestSpec(o, h);
    EXPECT_EQ(spec.match().base().tc(), "tc=10+0.1");
    EXPECT_EQ(spec.match().dev().tc(), "tc=5+0.05");
    ASSERT_EQ(spec.match().dev().args_size(), 2);
    EXPECT_EQ(spec.match().dev().args(1), "2");
    EXPECT_EQ(spec.match().dev().options().at("Hash"), "16");
    EXPECT_EQ(spec.sprt().elo1(), 5);
}
