// Chess on the cluster: a real coordinator and two real workers play an SPRT of two settings of Debian's
// Stockfish (installed by scripts/install-deps.sh) to a verdict, from the project's chess book, with the
// workers checking Stockfish's bench signature; the games come back as SAN that `xq judge --pgn` replays.
// And what a chess test refuses: a UCCI engine, a Xiangqi rule set, a Xiangqi book. Chess self-play data.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "chess/position.h"
#include "cluster.h"
#include "dataset.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

const std::string Stockfish = "/usr/games/stockfish";

std::string chessBook() {
    return std::string(XQ_SOURCE_DIR) + "/data/openings/chess-balanced.epd";
}

// `xq submit` of Stockfish against itself, as a chess test from `book` unless `extra` says otherwise.
std::vector<std::string> stockfishArgs(std::vector<std::string> extra, const std::string& game = "chess",
                                       const std::string& book = chessBook()) {
    std::vector<std::string> args = {"submit", "--game",      game,     "--base",        Stockfish,
                                     "--dev",  Stockfish,     "--each", "option.Hash=8", "--openings",
                                     book,     "--max-moves", "150"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

}  // namespace

TEST(ChessCluster, TwoWorkersPlayAStockfishSprtToAVerdictAndItsPgnReplaysAsSan) {
    ASSERT_TRUE(std::filesystem::exists(Stockfish)) << "stockfish is not installed (scripts/install-deps.sh)";
    Cluster c;
    c.startCoordinator();
    // 2000 nodes against 200: a verdict within a few pairs; both signatures are checked by the workers.
    auto r = c.xq(stockfishArgs({"--each", "nodes=2000", "--base-option", "nodes=200", "--sprt",
                                 "elo0=0,elo1=150", "--bench-signatures"}));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::uint64_t id = std::stoull(lastLine(r.out));
    c.startWorker();
    c.startWorker();
    auto view = c.waitFor(
        id, [](const json& v) { return v["state"] != "running"; }, std::chrono::seconds(240));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["game"], "chess");
    EXPECT_FALSE(view.contains("rules")) << view.dump();
    EXPECT_EQ(view["result"], "H1 accepted") << view.dump();
    EXPECT_EQ(pentaGames(view), view["games"].get<std::int64_t>());
    int active = 0;
    for (const auto& w : view["workers"]) active += w["games"].get<std::int64_t>() > 0;
    EXPECT_EQ(active, 2) << view.dump();
    EXPECT_EQ(view["failures"]["crashes"], 0) << c.workerLogs();
    EXPECT_EQ(view["failures"]["illegal_moves"], 0) << c.workerLogs();

    auto text = c.xq({"show", std::to_string(id)});
    EXPECT_NE(text.out.find("game       chess"), std::string::npos) << text.out;

    // Every game the workers sent: standard chess tags, SAN that our own parser replays, results that the
    // rules confirm wherever they decided the game.
    const std::string pgn = c.dir.file("games.pgn");
    auto fetched = c.xq({"pgn", std::to_string(id), "--out", pgn});
    ASSERT_EQ(fetched.code, 0) << fetched.err;
    std::ifstream in(pgn);
    std::string games((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(games.find("[White \""), std::string::npos);
    EXPECT_EQ(games.find("[Variant"), std::string::npos);
    auto judged = runCommand({bin("xq"), "judge", "--pgn", pgn, "--json"}, c.dir.path);
    ASSERT_EQ(judged.code, 0) << judged.err << judged.out;
    const json j = json::parse(judged.out);
    EXPECT_EQ(j["errors"], 0) << judged.out;
    EXPECT_EQ(j["differ"], 0) << judged.out;
    EXPECT_EQ(j["games"].size(), std::size_t(view["games"].get<std::int64_t>()));
    EXPECT_GT(j["agree"].get<int>(), 0) << judged.out;
    for (const auto& g : j["games"]) EXPECT_EQ(g["rules"], "FIDE") << g.dump();
}

TEST(ChessCluster, AChessTestRefusesUcciXiangqiRulesAndAXiangqiBook) {
    Cluster c;
    c.startCoordinator();
    auto ucci = c.xq(stockfishArgs({"--each", "nodes=100", "--games", "2", "--base-option", "proto=ucci"}));
    EXPECT_NE(ucci.code, 0);
    EXPECT_NE(ucci.err.find("ucci is Xiangqi's"), std::string::npos) << ucci.err;

    auto rules = c.xq(stockfishArgs({"--each", "nodes=100", "--games", "2", "--rules", "chinese"}));
    EXPECT_NE(rules.code, 0);
    EXPECT_NE(rules.err.find("Xiangqi rule set"), std::string::npos) << rules.err;

    auto book = c.xq(stockfishArgs({"--each", "nodes=100", "--games", "2"}, "chess",
                                   std::string(XQ_SOURCE_DIR) + "/data/openings/xq-balanced.epd"));
    EXPECT_NE(book.code, 0);
    EXPECT_NE(book.err.find("openings (chess)"), std::string::npos) << book.err;
    EXPECT_NE(book.err.find("xq-balanced.epd:"), std::string::npos) << book.err;

    auto game = c.xq(stockfishArgs({"--each", "nodes=100", "--games", "2"}, "go"));
    EXPECT_NE(game.code, 0);
    EXPECT_NE(game.err.find("unknown game 'go'"), std::string::npos) << game.err;
}

// Self-play chess data on the cluster: two workers play Stockfish against itself, slices as for Xiangqi, and
// the export is chess positions only, each once, labelled from White's view; the same seed played locally
// gives the same positions.
TEST(ChessCluster, TwoWorkersGenerateChessDataThatExportsAsChessPositions) {
    Cluster c;
    c.startCoordinator();
    c.startWorker();
    c.startWorker();
    const std::vector<std::string> settings = {"--engine", Stockfish, "--option", "Hash=8",         "--games",
                                               "4",        "--nodes", "300",      "--random-plies", "6",
                                               "--seed",   "5",       "--game",   "chess"};
    std::vector<std::string> submit = {"submit", "datagen", "--slice-games", "1", "--chunk-positions", "16"};
    submit.insert(submit.end(), settings.begin(), settings.end());
    auto r = c.xq(submit);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::uint64_t id = std::stoull(lastLine(r.out));
    auto view = c.waitFor(
        id, [](const json& v) { return v["state"] != "running"; }, std::chrono::seconds(120));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["datagen"]["game"], "chess") << view.dump();

    const std::string out = c.dir.file("chess-data.txt");
    auto exported = c.xq({"data", "export", "--test", std::to_string(id), "--out", out});
    ASSERT_EQ(exported.code, 0) << exported.err;
    std::set<std::string> cluster;
    xq::tuner::readDataFile(out, [&](const xq::tuner::LabeledPosition& p) {
        xq::chess::Position pos;
        EXPECT_TRUE(pos.setFen(p.fen)) << p.fen;
        EXPECT_TRUE(cluster.insert(p.fen).second) << "twice: " << p.fen;
        return true;
    });
    EXPECT_GT(cluster.size(), 10u);

    std::vector<std::string> local = {bin("xq"), "datagen", "--out", c.dir.file("local-chess.txt")};
    local.insert(local.end(), settings.begin(), settings.end());
    auto l = runCommand(local, c.dir.path);
    ASSERT_EQ(l.code, 0) << l.err;
    std::set<std::string> here;
    for (const auto& p : xq::tuner::readDataFile(c.dir.file("local-chess.txt"))) here.insert(p.fen);
    EXPECT_EQ(cluster, here);
}
