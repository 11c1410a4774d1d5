// Building a test spec from what a user gives `xq submit` (coordinator/submission.h).
#include "submission.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "spsa_submission.h"

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

namespace {

xq::coord::SubmissionOptions captureGoSubmission() {
    xq::coord::SubmissionOptions o;
    o.game = "capturego";
    o.board = "size=5,rules=go,komi=0.5";
    o.each = {"nodes=1"};
    o.sprt = "elo0=0,elo1=200";
    return o;
}

xq::coord::ArtifactHashes twoEngines() {
    xq::coord::ArtifactHashes h;
    h.base = std::string(64, 'a');
    h.dev = std::string(64, 'b');
    return h;
}

}  // namespace

// A GTP engine takes no options: refused before submitting, not failed by every worker's lease.
TEST(EngineSettings, CaptureGoEnginesGivenAnOptionAreRefusedNamingIt) {
    auto o = captureGoSubmission();
    o.each = {"nodes=1 option.Hash=16"};
    try {
        xq::coord::buildTestSpec(o, twoEngines());
        FAIL() << "an option for a GTP engine was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("base option 'Hash': GTP engines take no options"),
                  std::string::npos)
            << e.what();
    }
}

// A ref's commit message may say "Bench: N", which becomes the Xiangqi engine's bench signature; a GTP
// engine has no bench, so a Capture Go test from refs takes none (the coordinator would refuse it).
TEST(EngineSettings, ACommitsBenchLineSignsAXiangqiEngineButNotACaptureGoOne) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("xq-submission-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "repo");
    const std::string repo = (dir / "repo").string();
    const std::string git = "git -C '" + repo + "' -c user.name=t -c user.email=t@t ";
    ASSERT_EQ(std::system(("git init -q '" + repo + "' && echo x > '" + repo + "/f' && " + git + "add f && " +
                           git + "commit -q -m 'change' -m 'Bench: 912519'")
                              .c_str()),
              0);
    for (const std::string game : {"xiangqi", "capturego"}) {
        auto o = game == "capturego" ? captureGoSubmission() : xq::coord::SubmissionOptions{};
        o.repo = repo;
        o.base.ref = o.dev.ref = "HEAD";
        std::filesystem::create_directories(dir / game);
        xq::coord::prepareSources(o, (dir / game).string());
        EXPECT_EQ(o.dev.benchSignature, game == "capturego" ? 0u : 912519u) << game;
        EXPECT_EQ(o.base.benchSignature, game == "capturego" ? 0u : 912519u) << game;
    }
    std::filesystem::remove_all(dir);
}

// `--webhook` of xq submit, xq submit spsa and xq ladder add: each value becomes a webhook of the spec, and a
// malformed one is refused before anything is uploaded.
TEST(EngineSettings, WebhooksOfEverySubmissionReachTheSpecAndAMalformedOneIsRefused) {
    xq::v1::TestSpec spec;
    xq::coord::addWebhooks(spec, {"https://ci.example.org/xq", "https://chat.example/hooks/1,format=text"});
    ASSERT_EQ(spec.webhooks_size(), 2);
    EXPECT_EQ(spec.webhooks(0).url(), "https://ci.example.org/xq");
    EXPECT_EQ(spec.webhooks(0).format(), "json");
    EXPECT_EQ(spec.webhooks(1).format(), "text");
    try {
        xq::coord::addWebhooks(spec, {"ci.example.org"});
        FAIL() << "a URL without a scheme is refused";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("webhook URL 'ci.example.org' must start with http://"),
                  std::string::npos)
            << e.what();
    }
    // An SPSA test's spec carries them too.
    const std::string params = std::filesystem::temp_directory_path() / "xq-webhook-spsa-params.txt";
    {
        FILE* f = std::fopen(params.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs("Threads,1,1,2,1,0.002\n", f);
        std::fclose(f);
    }
    xq::coord::SpsaSubmission s;
    s.engine.path = XQ_BIN_DIR "/xq-engine";
    s.paramsFile = params;
    s.pairs = 10;
    s.each = {"nodes=100"};
    s.webhooks = {"https://ci.example.org/spsa,format=content"};
    auto spsa = xq::coord::buildSpsaSpec(s);
    ASSERT_EQ(spsa.webhooks_size(), 1);
    EXPECT_EQ(spsa.webhooks(0).format(), "content");
    std::filesystem::remove(params);
}

TEST(SpsaSubmission, ANetworkIsPlayedByBothSidesOfTheTunedEngine) {
    const std::string params = std::filesystem::temp_directory_path() / "xq-net-spsa-params.txt";
    {
        FILE* f = std::fopen(params.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs("Threads,1,1,2,1,0.002\n", f);
        std::fclose(f);
    }
    xq::coord::SpsaSubmission s;
    s.engine.path = XQ_BIN_DIR "/xq-engine";
    s.engine.net = XQ_SOURCE_DIR "/engine/nets/xq-f62c1752bf61.nnue";
    s.paramsFile = params;
    s.pairs = 10;
    s.each = {"nodes=100"};
    auto spec = xq::coord::buildSpsaSpec(s);
    const std::string shipped = "f62c1752bf61";
    EXPECT_EQ(spec.spsa().match().base().net_sha256().substr(0, 12), shipped);
    EXPECT_EQ(spec.spsa().match().dev().net_sha256().substr(0, 12), shipped);
    s.engine.net = params;  // not a network
    EXPECT_THROW(xq::coord::buildSpsaSpec(s), std::invalid_argument);
    std::filesystem::remove(params);
}
