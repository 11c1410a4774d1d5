// The network through the engine's interfaces: EvalFile loads a network or hand-written weights (told apart
// by the network's magic), Use NNUE switches the evaluation of `eval` and of the search, and the `xq-engine
// nnue` and `bench` commands. A real xq-engine process, as a GUI drives it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "bench.h"
#include "engine_process.h"
#include "evaluate.h"
#include "nnue_accumulator.h"
#include "nnue_default.h"
#include "nnue_tool.h"
#include "thread.h"
#include "weights.h"

using namespace xq;
using xq::test::EngineProcess;

namespace {

void handshake(EngineProcess& e) {
    ASSERT_TRUE(e.send("uci"));
    ASSERT_TRUE(e.readUntil("uciok", 10000));
}

std::string finalEvaluation(EngineProcess& e) {
    e.send("eval");
    auto lines = e.readUntil("Final evaluation: ", 5000);
    return lines ? lines->back() : "(no answer)";
}

// The nodes of the last info line before bestmove.
std::uint64_t searchedNodes(const std::vector<std::string>& lines) {
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
        if (auto at = it->find(" nodes "); at != std::string::npos) return std::stoull(it->substr(at + 7));
    return 0;
}

struct TempNetwork {
    std::string path;
    nnue::Network net;
    TempNetwork(const std::string& file, int hidden, std::uint64_t seed)
        : path(::testing::TempDir() + file), net(nnue::randomNetwork(hidden, seed)) {
        nnue::saveNetworkFile(path, net);
    }
    ~TempNetwork() { std::remove(path.c_str()); }
};

// Runs a command line, returning its standard output (and error, with 2>&1) and exit status.
std::pair<std::string, int> run(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return {"", -1};
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    int status = pclose(p);
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

const std::string Engine = std::string(XQ_BIN_DIR) + "/xq-engine";
const char* const Fen = "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 1";

}  // namespace

TEST(NnueUci, UseNnueIsACheckOptionOffUntilANetworkIsTheDefault) {
    EngineProcess e;
    e.send("uci");
    auto lines = e.readUntil("uciok", 10000);
    ASSERT_TRUE(lines);
    std::string all;
    for (auto& l : *lines) all += l + "\n";
    const std::string expected = std::string("option name Use NNUE type check default ") +
                                 (nnue::hasDefaultNetwork() ? "true" : "false") + "\n";
    EXPECT_NE(all.find(expected), std::string::npos) << all;
}

TEST(NnueUci, UseNnueSwitchesTheEvaluation) {
    TempNetwork t("xq_uci_switch.nnue", 64, 17);
    const Position pos(Fen);
    const int hand = eval::evaluate(pos);
    const int nnueRed = -nnue::evaluate(t.net, pos);  // Black to move: Red's view is the opposite
    ASSERT_NE(hand, nnueRed);
    EngineProcess e;
    handshake(e);
    e.send(std::string("position fen ") + Fen);
    e.send("setoption name EvalFile value " + t.path);
    auto loaded = e.readUntil("info string", 5000);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->back(), "info string EvalFile: loaded network " + t.net.name + " from " + t.path +
                                  (nnue::hasDefaultNetwork() ? "" : "; Use NNUE is now true"));
    e.send("setoption name Use NNUE value false");
    EXPECT_EQ(finalEvaluation(e), "Final evaluation: " + std::to_string(hand));
    e.send("setoption name Use NNUE value true");
    e.send("eval");
    auto report = e.readUntil("Final evaluation: ", 5000);
    ASSERT_TRUE(report);
    EXPECT_EQ(report->back(), "Final evaluation: " + std::to_string(nnueRed));
    EXPECT_EQ((*report)[0], "NNUE network: " + t.net.name + " (H = 64)");
    e.send("setoption name Use NNUE value False");
    EXPECT_EQ(finalEvaluation(e), "Final evaluation: " + std::to_string(hand));
    e.send("setoption name Use NNUE value maybe");
    auto error = e.readUntil("info string", 5000);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->back(), "info string error: setoption Use NNUE: value 'maybe' is not true or false");
}

// The search in the process evaluates with the network: its node count at a fixed depth is the one of an
// in-process search with that network, and not the hand-written evaluation's.
TEST(NnueUci, TheSearchUsesTheNetworkWhenUseNnueIsOn) {
    TempNetwork t("xq_uci_search.nnue", 32, 23);
    auto searchHere = [&](std::shared_ptr<const nnue::Network> net) {
        ThreadPool pool;
        pool.network = std::move(net);
        SearchLimits limits;
        limits.depth = 6;
        return pool.think(Position(Fen), limits).nodes;
    };
    const std::uint64_t withNet = searchHere(std::make_shared<const nnue::Network>(t.net));
    const std::uint64_t without = searchHere(nullptr);
    ASSERT_NE(withNet, without);

    EngineProcess e;
    handshake(e);
    e.send("setoption name EvalFile value " + t.path);
    for (const char* use : {"true", "false", "true"}) {
        e.send(std::string("setoption name Use NNUE value ") + use);
        e.send("ucinewgame");
        e.send(std::string("position fen ") + Fen);
        e.send("go depth 6");
        auto lines = e.readUntil("bestmove", 60000);
        ASSERT_TRUE(lines) << use;
        EXPECT_EQ(searchedNodes(*lines), std::string(use) == "true" ? withNet : without) << use;
    }
}

TEST(NnueUci, UseNnueWithoutANetworkSaysSoAndSearchesWithTheHandWrittenEvaluation) {
    if (nnue::hasDefaultNetwork()) GTEST_SKIP() << "this build has an embedded network";
    EngineProcess e;
    handshake(e);
    e.send("setoption name Use NNUE value true");
    e.send("position startpos");
    e.send("go depth 3");
    auto lines = e.readUntil("bestmove", 30000);
    ASSERT_TRUE(lines);
    EXPECT_EQ((*lines)[0],
              "info string error: Use NNUE is true but no network is loaded (set EvalFile to a "
              "network file); searching with the hand-written evaluation");
    EXPECT_EQ(finalEvaluation(e), "Final evaluation: " + std::to_string(eval::evaluate(Position())));
}

TEST(NnueUci, ABadNetworkFileIsRefusedAndTheLoadedOneKept) {
    TempNetwork t("xq_uci_keep.nnue", 16, 29);
    const std::string bad = ::testing::TempDir() + "xq_uci_bad.nnue";
    {
        nnue::Network other = nnue::randomNetwork(16, 30);
        std::string bytes = nnue::serializeNetwork(other);
        bytes[nnue::HEADER_BYTES + 77] ^= 4;
        std::ofstream(bad, std::ios::binary) << bytes;
    }
    EngineProcess e;
    handshake(e);
    e.send("setoption name EvalFile value " + t.path);
    e.send("setoption name Use NNUE value true");
    e.send("setoption name EvalFile value " + bad);
    e.send("isready");
    auto lines = e.readUntil("readyok", 5000);
    ASSERT_TRUE(lines);
    bool refused = false;
    for (auto& l : *lines)
        refused |=
            l.rfind("info string error: EvalFile: network file '" + bad + "': hash mismatch", 0) == 0 &&
            l.find("; keeping network " + t.net.name) != std::string::npos;
    EXPECT_TRUE(refused) << lines->front();
    e.send("position startpos");
    EXPECT_EQ(finalEvaluation(e), "Final evaluation: " + std::to_string(nnue::evaluate(t.net, Position())));
    std::remove(bad.c_str());
}

// EvalFile keeps loading hand-written weights, also after a network: the two are kept side by side, and
// the file loaded last decides what evaluates (weights: Use NNUE off; a network: on).
TEST(NnueUci, EvalFileSelectsTheEvaluationOfTheFileItLoads) {
    TempNetwork t("xq_uci_side.nnue", 16, 31);
    const std::string weights = ::testing::TempDir() + "xq_uci_side.xqw";
    eval::Weights w = eval::defaultWeights();
    w[eval::weightIndex("Material.Cannon")] = {1500, 1500};
    eval::saveWeightsFile(weights, w);
    EngineProcess e;
    handshake(e);
    e.send(std::string("position fen ") + Fen);
    e.send("setoption name EvalFile value " + t.path);
    e.send("setoption name EvalFile value " + weights);
    auto loaded = e.readUntil("info string EvalFile: loaded " + weights, 5000);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->back(), "info string EvalFile: loaded " + weights +
                                  "; Use NNUE is now false (the hand-written evaluation)");
    EXPECT_EQ(finalEvaluation(e), "Final evaluation: " + std::to_string(eval::evaluate(Position(Fen), w)));
    e.send("setoption name Use NNUE value true");
    EXPECT_EQ(finalEvaluation(e),
              "Final evaluation: " + std::to_string(-nnue::evaluate(t.net, Position(Fen))));
    e.send("setoption name EvalFile value " + weights);
    EXPECT_EQ(finalEvaluation(e), "Final evaluation: " + std::to_string(eval::evaluate(Position(Fen), w)));
    e.send("setoption name EvalFile value " + t.path);
    EXPECT_EQ(finalEvaluation(e),
              "Final evaluation: " + std::to_string(-nnue::evaluate(t.net, Position(Fen))));
    std::remove(weights.c_str());
}

TEST(NnueTool, RandomWritesTheSeedsNetworkAndInfoDescribesIt) {
    const std::string path = ::testing::TempDir() + "xq_tool_random.nnue";
    auto [written, status] = run(Engine + " nnue random " + path + " 48 5 2>&1");
    ASSERT_EQ(status, 0) << written;
    nnue::Network expected = nnue::randomNetwork(48, 5);
    nnue::serializeNetwork(expected);
    EXPECT_EQ(written, "wrote " + path + ": " + expected.name + " (H = 48, seed 5)\n");
    EXPECT_EQ(nnue::loadNetworkFile(path).name, expected.name);

    auto [info, infoStatus] = run(Engine + " nnue info " + path + " 2>&1");
    ASSERT_EQ(infoStatus, 0) << info;
    for (const std::string& line :
         {"name:            " + expected.name, std::string("version:         2"),
          std::string("architecture:    (1260 -> 48) x 2 -> 1, SCReLU"),
          std::string("quantisation:    QA 255, QB 64, SCALE 400"),
          std::string("description:     random network H=48 seed=5"),
          "start position:  " + std::to_string(nnue::evaluate(expected, Position())) + " cp (Red to move)"})
        EXPECT_NE(info.find(line + "\n"), std::string::npos) << line << "\nin\n" << info;

    std::ofstream(path, std::ios::binary | std::ios::app) << "x";
    auto [refused, refusedStatus] = run(Engine + " nnue info " + path + " 2>&1");
    EXPECT_EQ(refusedStatus, 1);
    EXPECT_NE(refused.find("file too long"), std::string::npos) << refused;
    auto [usage, usageStatus] = run(Engine + " nnue random 2>&1");
    EXPECT_EQ(usageStatus, 2);
    EXPECT_NE(usage.find("usage: xq-engine nnue random FILE [H [SEED]]"), std::string::npos) << usage;
    std::remove(path.c_str());
}

TEST(NnueTool, BenchRunsWithANetworkAndKeepsItsDefaultSignature) {
    TempNetwork t("xq_bench.nnue", 32, 37);
    auto [withNet, status] = run(Engine + " bench 4 1 16 " + t.path + " 2>&1");
    ASSERT_EQ(status, 0) << withNet;
    EXPECT_NE(withNet.find("Evaluation: network " + t.net.name), std::string::npos) << withNet;
    const auto nodesIn = [](const std::string& out) { return out.substr(out.find("Nodes searched: ")); };
    EXPECT_EQ(
        nodesIn(withNet).substr(0, nodesIn(withNet).find('\n')),
        "Nodes searched: " +
            std::to_string(runBench(4, 1, 16, nullptr, std::make_shared<const nnue::Network>(t.net)).nodes));
    auto [hand, handStatus] = run(Engine + " bench 4 1 16 handwritten 2>&1");
    ASSERT_EQ(handStatus, 0) << hand;
    EXPECT_EQ(nodesIn(hand).substr(0, nodesIn(hand).find('\n')),
              "Nodes searched: " + std::to_string(runBench(4, 1, 16, nullptr, nullptr).nodes));
}

TEST(NnueTool, ExportWritesTheEmbeddedNetworkByteForByte) {
    const std::string dir = ::testing::TempDir() + "xq_tool_export";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    if (!nnue::hasDefaultNetwork()) {
        auto [out, status] = run(Engine + " nnue export " + dir + "/net.nnue 2>&1");
        EXPECT_EQ(status, 1);
        EXPECT_NE(out.find("this engine has no embedded network"), std::string::npos) << out;
        return;
    }
    // The file the build embedded (engine/nets/xq-<hash>.nnue): named by its own SHA-256.
    const std::string shipped = nnue::defaultNetworkPath();
    std::ifstream in(shipped, std::ios::binary);
    const std::string expected((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(expected.empty()) << shipped;
    const std::string name = std::filesystem::path(shipped).filename().string();
    ASSERT_EQ(nnue::networkName(expected), name);
    const auto bytesOf = [](const std::string& path) {
        std::ifstream f(path, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    };

    auto [out, status] = run(Engine + " nnue export " + dir + "/copy.nnue 2>&1");
    ASSERT_EQ(status, 0) << out;
    EXPECT_EQ(
        out.rfind("wrote " + dir + "/copy.nnue: " + name + " (" + std::to_string(expected.size()) + " bytes",
                  0),
        0u)
        << out;
    EXPECT_TRUE(bytesOf(dir + "/copy.nnue") == expected);
    // A directory: the file is named as the shipped one.
    auto [inDir, dirStatus] = run(Engine + " nnue export " + dir + " 2>&1");
    ASSERT_EQ(dirStatus, 0) << inDir;
    EXPECT_TRUE(bytesOf(dir + "/" + name) == expected) << inDir;

    auto [refused, refusedStatus] = run(Engine + " nnue export " + dir + "/missing/net.nnue 2>&1");
    EXPECT_EQ(refusedStatus, 1);
    EXPECT_NE(
        refused.find("cannot write network file '" + dir + "/missing/net.nnue': No such file or directory"),
        std::string::npos)
        << refused;
    auto [usage, usageStatus] = run(Engine + " nnue export 2>&1");
    EXPECT_EQ(usageStatus, 2);
    EXPECT_NE(usage.find("xq-engine nnue export FILE|DIR"), std::string::npos) << usage;
    std::filesystem::remove_all(dir);
}
