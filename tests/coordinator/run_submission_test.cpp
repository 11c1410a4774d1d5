// `xq submit run`'s flags built into a RunSpec (coordinator/client/run_submission.h): what each flag sets,
// where the run starts (the engine's shipped network exported, the hand-written evaluation, a file, a hash),
// and bad input refused with a message naming the flag, before anything is uploaded.
#include "run_submission.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "net_file.h"
#include "test_util.h"
#include "util/sha256.h"

namespace {

using xq::coord::testing::TempDir;

std::string engine() {
    return std::string(XQ_BIN_DIR) + "/xq-engine";
}

std::string book() {
    return std::string(XQ_SOURCE_DIR) + "/data/openings/xq-balanced.epd";
}

// The tiny run of the cluster test: the hand-written evaluation, 4 games at 200 nodes a generation.
xq::coord::RunSubmission tinyRun() {
    xq::coord::RunSubmission s;
    s.selfplay.engine = engine();
    s.selfplay.games = 4;
    s.selfplay.nodes = 200;
    s.start = "hce";
    s.train = "hidden=16,epochs=1";
    s.gate = "nodes=200";
    s.gateGames = 4;
    s.generations = 1;
    s.gateMatch.openings = book();
    return s;
}

// What prepareRun refuses the submission with (empty if it is accepted).
std::string refusal(const xq::coord::RunSubmission& s) {
    TempDir dir;
    try {
        xq::coord::prepareRun(s, dir.path);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

bool uploads(const xq::coord::PreparedRun& run, const std::string& path, const std::string& kind) {
    for (const auto& [p, k] : run.uploads)
        if (p == path && k == kind) return true;
    return false;
}

}  // namespace

TEST(RunSubmission, FlagsBecomeTheRunSpec) {
    auto s = tinyRun();
    s.selfplay.options = {"Hash=16"};
    s.selfplay.randomPlies = 6;
    s.selfplay.sampleRate = 0.5;
    s.selfplay.sliceGames = 2;
    s.selfplay.seed = 7;
    s.selfplay.rules = "chinese";
    s.selfplay.priority = 3;
    s.selfplay.throughput = 2;
    s.selfplay.description = "tiny";
    s.window = 2;
    s.gateSprt = "elo0=0,elo1=10";
    s.gateMatch.resignScore = 600;
    s.gateMatch.resignMoves = 3;
    s.gateMatch.maxMoves = 120;
    s.maxFailedGates = 2;
    s.webhooks = {"https://example.com/hook,format=text"};
    TempDir dir;
    auto run = xq::coord::prepareRun(s, dir.path);
    const auto& spec = run.spec;
    EXPECT_EQ(spec.games_per_generation(), 4u);
    EXPECT_EQ(spec.datagen().nodes(), 200u);
    EXPECT_EQ(spec.datagen().random_plies(), 6u);
    EXPECT_EQ(spec.datagen().sample_rate(), 0.5);
    EXPECT_EQ(spec.datagen().slice_games(), 2u);
    EXPECT_EQ(spec.datagen().seed(), 7u);
    EXPECT_EQ(spec.datagen().rules(), "chinese");
    EXPECT_EQ(spec.datagen().engine().binary_sha256(), xq::sha256File(engine()));
    EXPECT_EQ(spec.datagen().engine().options().at("Hash"), "16");
    EXPECT_TRUE(spec.datagen().engine().net_sha256().empty()) << "the run sets the network itself";
    EXPECT_TRUE(spec.start_hce());
    EXPECT_TRUE(spec.start_net_sha256().empty());
    EXPECT_EQ(spec.recipe().size(), 2u);
    EXPECT_EQ(spec.recipe().at("hidden"), "16");
    EXPECT_EQ(spec.recipe().at("epochs"), "1");
    EXPECT_EQ(spec.window(), 2u);
    EXPECT_EQ(spec.gate().base().tc(), "nodes=200");
    EXPECT_TRUE(spec.gate().base().binary_sha256().empty()) << "the gate's engines are the run's";
    EXPECT_EQ(spec.gate().rules(), "chinese");
    EXPECT_EQ(spec.gate().openings_sha256(), xq::sha256File(book()));
    EXPECT_EQ(spec.gate().resign_score(), 600);
    EXPECT_EQ(spec.gate().resign_moves(), 3);
    EXPECT_EQ(spec.gate().max_moves(), 120);
    EXPECT_EQ(spec.gate_sprt().elo0(), 0);
    EXPECT_EQ(spec.gate_sprt().elo1(), 10);
    EXPECT_EQ(spec.gate_games(), 4u);
    EXPECT_EQ(spec.generations(), 1u);
    EXPECT_EQ(spec.max_failed_gates(), 2u);
    EXPECT_EQ(spec.priority(), 3);
    EXPECT_EQ(spec.throughput(), 2);
    EXPECT_EQ(spec.description(), "tiny");
    ASSERT_EQ(spec.webhooks_size(), 1);
    EXPECT_EQ(spec.webhooks(0).url(), "https://example.com/hook");
    EXPECT_TRUE(uploads(run, engine(), "engine"));
    EXPECT_TRUE(uploads(run, book(), "openings"));
    EXPECT_EQ(run.uploads.size(), 2u) << "no network for a start from the hand-written evaluation";
}

TEST(RunSubmission, DefaultsAreARunsNotADatagenTests) {
    xq::coord::RunSubmission s;
    s.selfplay.engine = engine();
    s.selfplay.games = 4;
    s.start = "hce";
    TempDir dir;
    auto spec = xq::coord::prepareRun(s, dir.path).spec;
    EXPECT_EQ(spec.datagen().nodes(), 5000u);
    EXPECT_EQ(spec.datagen().sample_rate(), 1.0)
        << "every quiet position, as the coordinator's default for runs";
    EXPECT_EQ(spec.gate().base().tc(), "tc=10+0.1");
    EXPECT_EQ(spec.gate_sprt().elo0(), 0);
    EXPECT_EQ(spec.gate_sprt().elo1(), 10);
    EXPECT_TRUE(spec.recipe().empty()) << "the recipe's defaults are the coordinator's";
}

TEST(RunSubmission, GateSprtTakesThePresetsOfXqSubmit) {
    auto s = tinyRun();
    s.gateSprt = "gainer";
    TempDir dir;
    auto spec = xq::coord::prepareRun(s, dir.path).spec;
    EXPECT_EQ(spec.gate_sprt().elo0(), 0);
    EXPECT_EQ(spec.gate_sprt().elo1(), 2);
    EXPECT_EQ(spec.gate_sprt().model(), "normalized");
}

// The default start: the engine's embedded network, written out by `xq-engine nnue export` and uploaded.
TEST(RunSubmission, StartShippedExportsTheEnginesEmbeddedNetwork) {
    auto s = tinyRun();
    s.start = "shipped";
    TempDir dir;
    auto run = xq::coord::prepareRun(s, dir.path);
    const std::string exported = dir.file("shipped.nnue");
    ASSERT_TRUE(std::filesystem::is_regular_file(exported));
    EXPECT_EQ(xq::coord::networkFileProblem(exported), "");
    EXPECT_FALSE(run.spec.start_hce());
    EXPECT_EQ(run.spec.start_net_sha256(), xq::sha256File(exported));
    EXPECT_TRUE(uploads(run, exported, "net"));
}

TEST(RunSubmission, StartFromANetworkFileOrAHash) {
    TempDir dir;
    auto s = tinyRun();
    const std::string net = dir.file("start.nnue");
    xq::coord::exportShippedNetwork(engine(), net);
    s.start = net;
    auto run = xq::coord::prepareRun(s, dir.path);
    EXPECT_EQ(run.spec.start_net_sha256(), xq::sha256File(net));
    EXPECT_TRUE(uploads(run, net, "net"));

    s.start = std::string(64, 'a');
    run = xq::coord::prepareRun(s, dir.path);
    EXPECT_EQ(run.spec.start_net_sha256(), s.start) << "a hash names a network the coordinator holds";
    EXPECT_EQ(run.uploads.size(), 2u) << "engine and book; nothing for the hash";
}

TEST(RunSubmission, AnEngineThatCannotExportItsNetworkIsNamedWithTheWayRound) {
    TempDir dir;
    const std::string script = dir.file("old-engine");
    xq::coord::testing::writeFile(script, "#!/bin/sh\necho \"unknown command: $1\" >&2\nexit 2\n");
    chmod(script.c_str(), 0755);
    auto s = tinyRun();
    s.selfplay.engine = script;
    s.start = "shipped";
    const std::string why = refusal(s);
    EXPECT_NE(why.find("--start shipped"), std::string::npos) << why;
    EXPECT_NE(why.find(script), std::string::npos) << why;
    EXPECT_NE(why.find("unknown command: nnue"), std::string::npos) << why;
    EXPECT_NE(why.find("--start FILE"), std::string::npos) << why;
}

TEST(RunSubmission, BadFlagsAreRefusedNamingTheFlag) {
    TempDir dir;
    const std::string notANet = dir.file("not.nnue");
    xq::coord::testing::writeFile(notANet, "hello");
    struct Case {
        const char* flag;
        std::function<void(xq::coord::RunSubmission&)> set;
    };
    const std::vector<Case> cases = {
        {"--start", [](auto& s) { s.start = "yesterday"; }},
        {"--start", [&](auto& s) { s.start = notANet; }},
        {"--start-checkpoint", [&](auto& s) { s.startCheckpoint = dir.file("missing.ckpt"); }},
        {"--train", [](auto& s) { s.train = "hidden=16,epochs"; }},
        {"--train", [](auto& s) { s.train = "=3"; }},
        {"--train", [](auto& s) { s.train = "epochs=1,epochs=2"; }},
        {"--window", [](auto& s) { s.window = 5000; }},
        {"--gate", [](auto& s) { s.gate = "option.Hash=16"; }},
        {"--gate", [](auto& s) { s.gate = "speed=3"; }},
        {"--gate", [](auto& s) { s.gate = ""; }},
        {"--gate-sprt", [](auto& s) { s.gateSprt = "elo0=5,elo1=1"; }},
        {"--gate-sprt", [](auto& s) { s.gateSprt = "fast"; }},
        {"--games", [](auto& s) { s.selfplay.games = 1; }},
        {"--nodes", [](auto& s) { s.selfplay.nodes = 0; }},
        {"--rules", [](auto& s) { s.selfplay.rules = "western"; }},
        {"--sample-rate", [](auto& s) { s.selfplay.sampleRate = 2; }},
    };
    for (const auto& c : cases) {
        auto s = tinyRun();
        c.set(s);
        const std::string why = refusal(s);
        EXPECT_NE(why.find(c.flag), std::string::npos) << c.flag << ": " << (why.empty() ? "accepted" : why);
    }
}

TEST(RunSubmission, RecipeIsNamesAndValuesLeftForTheCoordinatorToCheck) {
    auto r = xq::coord::parseRecipe(" hidden=128, epochs=4 ,lr=5e-4,,anything=x");
    EXPECT_EQ(r.size(), 4u);
    EXPECT_EQ(r.at("hidden"), "128");
    EXPECT_EQ(r.at("epochs"), "4");
    EXPECT_EQ(r.at("lr"), "5e-4");
    EXPECT_EQ(r.at("anything"), "x") << "unknown names are the coordinator's to refuse";
    EXPECT_TRUE(xq::coord::parseRecipe("").empty());
}
