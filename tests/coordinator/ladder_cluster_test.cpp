// Ratings across versions with real processes: a ladder on a real coordinator (with its web view) and
// workers, whose versions play their predecessors, our engine at a low node count and Debian's
// Fairy-Stockfish; `xq rate --ladder` and the ladder's page rate them. And `xq rate` on PGN and
// `xq match --json` files.
#include <gtest/gtest.h>
#include <httplib.h>

#include "cluster.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

// An engine version: our engine with every `go` turned into `go nodes N`.
std::string versionScript(const TempDir& dir, const std::string& name, int nodes) {
    std::string path = dir.file(name + ".sh");
    writeFile(path, "#!/bin/sh\nsed -u 's/^go .*/go nodes " + std::to_string(nodes) + "/' | exec " +
                        bin("xq-engine") + "\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
}

std::vector<std::uint64_t> submittedIds(const std::string& out) {
    std::vector<std::uint64_t> ids;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("test ", 0) == 0) ids.push_back(std::stoull(line.substr(5)));
    return ids;
}

const json* player(const json& rating, const std::string& name) {
    for (const auto& p : rating["players"])
        if (p["name"] == name) return &p;
    return nullptr;
}

}  // namespace

TEST(Ladder, VersionsPlayTheirPredecessorsAndReferencesAndAreRatedInOrder) {
    Cluster c;
    c.coordinatorArgs.insert(c.coordinatorArgs.end(), {"--http", "127.0.0.1:0"});
    c.startCoordinator();
    auto web = c.coordinator->waitForLine("web view on ");
    ASSERT_TRUE(web);
    // The versions are shell scripts with a pipe that run our binaries, wherever the checkout is.
    c.workerArgs = {"--sandbox-allow-fork", "--sandbox-read", XQ_BIN_DIR};
    c.startWorker();
    c.startWorker();
    const std::vector<std::string> common = {"--games", "8", "--each", "nodes=300", "--max-moves", "80"};
    auto add = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"ladder", "add", "main"});
        args.insert(args.end(), common.begin(), common.end());
        return c.xq(args);
    };
    auto first = add({"--version", "v1", "--engine", versionScript(c.dir, "v1", 100), "--reference",
                      "name=weak,cmd=" + bin("xq-engine") + ",nodes=20", "--reference",
                      "name=fairy,cmd=/usr/games/fairy-stockfish,proto=fairy,nodes=300"});
    ASSERT_EQ(first.code, 0) << first.err;
    auto second = add({"--version", "v2", "--engine", versionScript(c.dir, "v2", 1500)});
    ASSERT_EQ(second.code, 0) << second.err;
    auto ids = submittedIds(first.out + second.out);
    ASSERT_EQ(ids.size(), 5u) << "v1 against 2 references, v2 against v1 and the 2 references\n"
                              << first.out << second.out;
    for (auto id : ids) {
        auto view = c.waitFor(
            id, [](const json& v) { return v["state"] != "running"; }, std::chrono::seconds(180));
        ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    }
    EXPECT_NE(second.out.find("v2 vs v1"), std::string::npos) << second.out;
    EXPECT_NE(second.out.find("v2 vs fairy"), std::string::npos) << second.out;

    auto rated = c.xq({"rate", "--ladder", "main", "--json"});
    ASSERT_EQ(rated.code, 0) << rated.err;
    auto rating = json::parse(rated.out);
    ASSERT_EQ(rating["players"].size(), 4u) << rating.dump();
    EXPECT_EQ(rating["players"][0]["name"], "v1") << "versions in the order they joined";
    const json *v1 = player(rating, "v1"), *v2 = player(rating, "v2");
    ASSERT_TRUE(v1 && v2);
    EXPECT_EQ((*v1)["games"], 24);
    EXPECT_EQ((*v2)["games"], 24);
    EXPECT_GT((*v2)["elo"].get<double>(), (*v1)["elo"].get<double>()) << "1500 nodes against 100";
    for (const auto& p : rating["players"]) EXPECT_LT(p["low"].get<double>(), p["high"].get<double>());

    httplib::Client http(*web);
    auto page = http.Get("/ladder/main");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find("<svg"), std::string::npos);
    EXPECT_NE(page->body.find(">v2<"), std::string::npos);
    EXPECT_EQ(http.Get("/ladder/nosuch")->status, 404);

    auto again = add({"--version", "v2", "--engine", versionScript(c.dir, "v2", 1500)});
    EXPECT_EQ(again.code, 2);
    EXPECT_NE(again.err.find("has a version 'v2' already"), std::string::npos) << again.err;
}

TEST(Rate, ReadsPgnAndMatchReportsAndGivesGradePoints) {
    TempDir dir;
    std::string pgn;
    auto game = [&](const std::string& red, const std::string& black, const std::string& result) {
        pgn += "[Event \"t\"]\n[Red \"" + red + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result +
               "\"]\n\n1. h2e2 h9g7 " + result + "\n\n";
    };
    for (int i = 0; i < 6; ++i) game("alpha", "beta", i % 3 ? "1-0" : "1/2-1/2");
    for (int i = 0; i < 6; ++i) game("beta", "alpha", i % 2 ? "0-1" : "1/2-1/2");
    game("beta", "gamma", "1-0");
    game("gamma", "alpha", "*");  // unfinished: skipped
    writeFile(dir.file("games.pgn"), pgn);
    writeFile(dir.file("report.json"), R"({"engines": ["gamma", "delta"], "wdl": [3, 2, 1]})");
    auto r = runCommand(
        {bin("xq"), "rate", dir.file("games.pgn"), dir.file("report.json"), "--json", "--grades"}, dir.path);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("1 games without players or a result skipped"), std::string::npos) << r.err;
    auto j = json::parse(r.out);
    ASSERT_EQ(j["players"].size(), 4u);
    EXPECT_EQ(j["players"][0]["name"], "alpha") << "strongest first";
    const json* alpha = player(j, "alpha");
    EXPECT_EQ((*alpha)["games"], 12);
    EXPECT_DOUBLE_EQ((*alpha)["score"].get<double>(), 4 + 1 + 3 + 1.5);
    for (const auto& p : j["players"]) EXPECT_TRUE(p.contains("grade") && p.contains("points")) << p.dump();
    // The first game: equal points, a draw moves nothing; then alpha's wins earn points.
    EXPECT_GT((*alpha)["points"].get<double>(), 0);
    EXPECT_EQ(player(j, "delta")->at("games"), 6);

    auto text = runCommand(
        {bin("xq"), "rate", dir.file("games.pgn"), "--anchor", "beta", "--anchor-elo", "1500"}, dir.path);
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("1500.0"), std::string::npos) << text.out;
    writeFile(dir.file("bad.pgn"), "[Event \"x\"]\n[Red \"unterminated]\n");
    auto bad = runCommand({bin("xq"), "rate", dir.file("bad.pgn")}, dir.path);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("line 2"), std::string::npos) << bad.err;
}
