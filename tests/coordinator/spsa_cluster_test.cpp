// SPSA on a real cluster: xq-coordinator and two xq-workers on loopback, the test submitted and exported
// with `xq`. The engine is the mock engine, whose strength falls with its option Target's distance from a
// hidden 70 (tests/match/mock_engine.cpp --optimum); SPSA, started 40 away, has to find it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cluster.h"

using namespace xq::coord::testing;
using nlohmann::json;

TEST(SpsaCluster, TwoWorkersMoveAParameterToWithinTenOfItsHiddenOptimum) {
    Cluster c;
    c.startCoordinator();
    std::string params = c.dir.file("params.txt");
    std::ofstream(params) << "# name,start,min,max,c_end,r_end\nTarget,30,0,100,5,0.05\n";
    auto r = c.xq({"submit", "spsa", "--engine", bin("mock-engine"), "--params", params, "--pairs", "300",
                   "--each", "nodes=1", "--each", "args=--optimum Target=70:60", "--no-openings"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto id = std::stoull(lastLine(r.out));
    c.startWorker();
    c.startWorker();
    auto view = c.waitFor(
        id, [](const json& v) { return v["state"] != "running"; }, std::chrono::seconds(180));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["kind"], "spsa");
    EXPECT_EQ(view["spsa"]["iterations"], 300);
    double value = view["spsa"]["params"][0]["value"];
    EXPECT_NEAR(value, 70, 10) << "from 30, the hidden optimum is 70";
    // Both workers played, and every iteration is a counted pair.
    EXPECT_EQ(view["workers"].size(), 2u) << c.workerLogs();
    EXPECT_EQ(pentaGames(view), 600);
    // The trajectory starts at the start value and ends at the value now.
    const auto& history = view["spsa"]["history"];
    ASSERT_GE(history.size(), 10u);
    EXPECT_EQ(history.front()["values"][0], 30);
    EXPECT_EQ(history.back()["iteration"], 300);
    EXPECT_DOUBLE_EQ(history.back()["values"][0].get<double>(), value);

    // The tuned value as an options file: the engine's ParamsFile format, which --params reads again.
    std::string out = c.dir.file("tuned.params");
    auto e = c.xq({"spsa", "export", std::to_string(id), "--out", out});
    ASSERT_EQ(e.code, 0) << e.err;
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("\nTarget," + std::to_string(std::llround(value)) + ",0,100,5,0.05\n"),
              std::string::npos)
        << text.str();
    auto show = c.xq({"show", std::to_string(id)});
    EXPECT_NE(show.out.find("Target"), std::string::npos) << show.out;
}
