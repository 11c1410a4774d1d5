// Capture Go on the cluster: a real coordinator (with its web view) and two real workers play an SPRT of
// GNU Go level 10 against level 0 ([0, 200], alpha = beta = 0.1) on the 5x5 Go board (Tromp-Taylor area
// scoring, komi 0.5) from data/openings/go-5x5.txt to a verdict; the games come back as SGF, served as
// games.sgf.gz and read back by the rules library. And what `xq submit --game capturego` refuses, each with a
// message naming it.
#include <gtest/gtest.h>
#include <httplib.h>

#include <fstream>
#include <set>

#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "cluster.h"
#include "data_chunk.h"
#include "dataset.h"
#include "report_games.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

const std::string GnuGo = "/usr/games/gnugo";

std::string go5Book() {
    return std::string(XQ_SOURCE_DIR) + "/data/openings/go-5x5.txt";
}

// GNU Go over GTP at `level`, as README's "Capture Go on the cluster" submits it.
std::string gnugoArgs(int level) {
    return "args=--mode gtp --level " + std::to_string(level);
}

// `xq submit --game capturego` of GNU Go level `dev` against level `base` on `board` (5x5 Go, komi 0.5)
// from `book` (the 5x5 book), plus `extra`.
std::vector<std::string> goSubmit(int dev, int base, std::vector<std::string> extra = {},
                                  const std::string& board = "size=5,rules=go,komi=0.5",
                                  const std::string& book = go5Book()) {
    std::vector<std::string> args = {
        "submit",       "--game",        "capturego",     "--board",    board,     "--base",
        GnuGo,          "--dev",         GnuGo,           "--each",     "nodes=1", "--dev-option",
        gnugoArgs(dev), "--base-option", gnugoArgs(base), "--openings", book};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// The game trees of an SGF collection written one tree a line, as the workers send them.
std::vector<std::string> gameTrees(const std::string& sgf) {
    std::vector<std::string> trees;
    std::istringstream in(sgf);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("(;", 0) == 0)
            trees.push_back(line);
        else if (!trees.empty())
            trees.back() += "\n" + line;
    }
    return trees;
}

}  // namespace

TEST(GoCluster, TwoWorkersPlayGnuGoLevel10AgainstLevel0OnFiveByFiveGoToAnSprtVerdict) {
    ASSERT_TRUE(std::filesystem::exists(GnuGo)) << "GNU Go is not installed (scripts/install-deps.sh)";
    Cluster c;
    c.coordinatorArgs.insert(c.coordinatorArgs.end(), {"--http", "127.0.0.1:0"});
    c.startCoordinator();
    auto web = c.coordinator->waitForLine("web view on ");
    ASSERT_TRUE(web);
    auto r = c.xq(goSubmit(10, 0, {"--sprt", "elo0=0,elo1=200,alpha=0.1,beta=0.1", "--games", "170"}));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::uint64_t id = std::stoull(lastLine(r.out));
    c.startWorker();
    c.startWorker();
    auto view = c.waitFor(
        id, [](const json& v) { return v["state"] != "running"; }, std::chrono::seconds(180));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    // GNU Go at a level replays the same game from the same opening, so the games are those of a local
    // `xq match` from the same book; level 10 reached H1 after 14 to 18 games in our runs.
    EXPECT_EQ(view["result"], "H1 accepted") << view.dump();
    std::cerr << "GoCluster: " << view["result"] << " after " << view["games"] << " games, W-D-L "
              << view["wdl"].dump() << ", Elo " << view["elo"] << " +- " << view["elo_error"] << "\n";
    EXPECT_EQ(view["game"], "capturego");
    EXPECT_EQ(view["board"], "size=5,rules=go,komi=0.5");
    EXPECT_FALSE(view.contains("rules")) << view.dump();
    EXPECT_EQ(pentaGames(view), view["games"].get<std::int64_t>());
    EXPECT_EQ(wdlGames(view), view["games"].get<std::int64_t>());
    for (const char* failure : {"crashes", "illegal_moves", "stalls", "time_losses"})
        EXPECT_EQ(view["failures"][failure], 0) << failure << "\n" << c.workerLogs();

    auto text = c.xq({"show", std::to_string(id)});
    EXPECT_NE(text.out.find("game       capturego (board size=5,rules=go,komi=0.5"), std::string::npos)
        << text.out;

    // Every game came back as SGF, stored and counted by game trees, served as games.sgf.gz.
    httplib::Client http(*web);
    auto download = http.Get("/tests/" + std::to_string(id) + "/games.sgf.gz");
    ASSERT_TRUE(download);
    ASSERT_EQ(download->status, 200);
    EXPECT_NE(download->get_header_value("Content-Disposition").find(".sgf.gz"), std::string::npos);
    const std::string sgf = xq::coord::gunzipText(download->body, 1 << 24, true);
    EXPECT_EQ(xq::coord::countSgfGameTrees(sgf), view["games"].get<std::int64_t>());
    const auto trees = gameTrees(sgf);
    ASSERT_EQ(std::int64_t(trees.size()), view["games"].get<std::int64_t>());
    for (const auto& tree : trees) {
        EXPECT_NE(tree.find("SZ[5]"), std::string::npos) << tree;
        EXPECT_NE(tree.find("KM[0.5]"), std::string::npos) << tree;
        EXPECT_NE(tree.find("RE["), std::string::npos) << tree;
        EXPECT_NO_THROW(xq::capturego::readSgf(tree)) << tree;
    }
    EXPECT_EQ(http.Get("/tests/" + std::to_string(id) + "/games.pgn.gz")->status, 404);
    auto page = http.Get("/tests/" + std::to_string(id));
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("Capture Go, board size=5,rules=go,komi=0.5"), std::string::npos);
    EXPECT_NE(page->body.find("games.sgf.gz"), std::string::npos);
    // xq pgn downloads the same games.
    auto fetched = c.xq({"pgn", std::to_string(id), "--out", c.dir.file("games.sgf")});
    ASSERT_EQ(fetched.code, 0) << fetched.err;
    std::ifstream in(c.dir.file("games.sgf"));
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), sgf);
}

TEST(GoCluster, SubmitRefusesABadBoardAProtocolMismatchAndWhatCaptureGoDoesNotUse) {
    Cluster c;
    c.startCoordinator();
    struct Case {
        std::vector<std::string> extra;
        std::string message;
        std::string board = "size=5,rules=go,komi=0.5";
        std::string book = go5Book();
    };
    const std::vector<Case> cases = {
        {{"--games", "2"}, "--board: size must be a whole number from 5 to 19", "size=5;rules=go"},
        {{"--games", "2"}, "--board: unknown setting 'colour'", "size=5,colour=black"},
        {{"--games", "2"}, "--board: size must be a whole number from 5 to 19, got '21'", "size=21"},
        {{"--games", "2"}, "--board: expected key=value, got 'size5'", "size5"},
        {{"--games", "2", "--base-option", "proto=uci"}, "base protocol must be gtp for capturego"},
        {{"--games", "2", "--rules", "chinese"}, "'chinese' is a Xiangqi rule set"},
        {{"--games", "2", "--resign", "500", "--resign-moves", "3"}, "resign and draw adjudication"},
        {{"--games", "2", "--bench-signatures"}, "a GTP engine has none"},
        {{"--games", "2", "--dev-signature", "123"}, "dev bench signature: a GTP engine has no bench"},
        {{"--games", "2"},
         "the opening is a 9x9 board, the test's board is 5x5",
         "size=5,rules=go,komi=0.5",
         std::string(XQ_SOURCE_DIR) + "/data/openings/capturego-9x9.txt"},
        {{"--games", "2"},
         "openings (capturego)",
         "size=5,rules=go,komi=0.5",
         std::string(XQ_SOURCE_DIR) + "/data/openings/xq-balanced.epd"},
    };
    for (const Case& k : cases) {
        auto r = c.xq(goSubmit(10, 0, k.extra, k.board, k.book));
        EXPECT_NE(r.code, 0) << k.message;
        EXPECT_NE(r.err.find(k.message), std::string::npos) << k.message << "\n" << r.err;
    }
    // GTP is Capture Go's: a Xiangqi test of a GTP engine is refused by the coordinator.
    auto gtp = c.xq({"submit", "--base", GnuGo, "--dev", GnuGo, "--each", "proto=gtp", "--each", "nodes=1",
                     "--games", "2", "--no-openings"});
    EXPECT_NE(gtp.code, 0);
    EXPECT_NE(gtp.err.find("protocol gtp is Capture Go's"), std::string::npos) << gtp.err;
    auto board = c.xq({"submit", "--base", GnuGo, "--dev", GnuGo, "--each", "nodes=1", "--games", "2",
                       "--no-openings", "--board", "size=5"});
    EXPECT_NE(board.code, 0);
    EXPECT_NE(board.err.find("--board is Capture Go's"), std::string::npos) << board.err;
    auto list = c.xq({"tests", "--json"});
    EXPECT_EQ(list.out.find("capturego"), std::string::npos) << list.out;
}

// `xq regress --game capturego`: the embedded coordinator (SQLite) and two local workers play GNU Go level 10
// against level 0 on 5x5 Go, komi 0.5, from the 5x5 book to an SPRT verdict, as README's "Capture Go on
// the cluster" measures it. Leases of at most 2 pairs, as GoCluster's coordinator hands out, so that both
// workers play and report soon. (Its own suite: it runs no PostgreSQL store, so it is not repeated as pg.*.)
TEST(GoRegress, GnuGoLevel10AgainstLevel0OnFiveByFiveGoReachesAnSprtVerdict) {
    ASSERT_TRUE(std::filesystem::exists(GnuGo)) << "GNU Go is not installed (scripts/install-deps.sh)";
    TempDir dir;
    std::vector<std::string> args = {bin("xq"),
                                     "regress",
                                     "--game",
                                     "capturego",
                                     "--board",
                                     "size=5,rules=go,komi=0.5",
                                     "--base",
                                     GnuGo,
                                     "--dev",
                                     GnuGo,
                                     "--each",
                                     "nodes=1",
                                     "--dev-option",
                                     gnugoArgs(10),
                                     "--base-option",
                                     gnugoArgs(0),
                                     "--openings",
                                     go5Book(),
                                     "--sprt",
                                     "elo0=0,elo1=200,alpha=0.1,beta=0.1",
                                     "--workers",
                                     "2",
                                     "--concurrency",
                                     "1",
                                     "--max-chunk-pairs",
                                     "2",
                                     "--data",
                                     dir.file("regress"),
                                     "--json",
                                     dir.file("result.json")};
    const auto start = std::chrono::steady_clock::now();
    auto r = runCommand(args, dir.path, {}, std::chrono::seconds(120));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("result: H1 accepted"), std::string::npos) << r.out;
    auto result = json::parse(readFileOrEmpty(dir.file("result.json")));
    EXPECT_EQ(result["state"], "finished") << result.dump();
    EXPECT_EQ(result["result"], "H1 accepted") << result.dump();
    EXPECT_EQ(result["game"], "capturego");
    EXPECT_EQ(result["board"], "size=5,rules=go,komi=0.5");
    EXPECT_FALSE(result.contains("rules")) << result.dump();
    EXPECT_EQ(pentaGames(result), result["games"].get<std::int64_t>());
    for (const char* failure : {"crashes", "illegal_moves", "stalls", "time_losses"})
        EXPECT_EQ(result["failures"][failure], 0) << failure << "\n" << r.out << r.err;
    std::cerr << "GoRegress: " << result["result"] << " after " << result["games"] << " games, W-D-L "
              << result["wdl"].dump() << ", Elo " << result["elo"] << " +- " << result["elo_error"] << ", "
              << seconds << " s\n";
    EXPECT_LT(seconds, 60) << r.out;
}

TEST(GoRegress, AMalformedBoardIsRefusedNamingWhatIsWrongBeforeAnythingStarts) {
    TempDir dir;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"size=21,rules=go", "--board: size must be a whole number from 5 to 19, got '21'"},
        {"size=5,colour=black", "--board: unknown setting 'colour'"},
        {"size5", "--board: expected key=value, got 'size5'"},
    };
    for (const auto& [board, message] : cases) {
        auto r = runCommand(
            {bin("xq"), "regress", "--game", "capturego", "--board", board, "--base", GnuGo, "--dev", GnuGo,
             "--each", "nodes=1", "--openings", go5Book(), "--games", "2", "--data", dir.file("regress")},
            dir.path);
        EXPECT_EQ(r.code, 2) << board << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("xq regress: " + message), std::string::npos) << board << "\n" << r.err;
        EXPECT_EQ(r.out.find("coordinator on "), std::string::npos) << r.out;
    }
    // --board belongs to capturego.
    auto xiangqi =
        runCommand({bin("xq"), "regress", "--board", "size=5", "--base", bin("xq-engine"), "--dev",
                    bin("xq-engine"), "--no-openings", "--games", "2", "--data", dir.file("regress")},
                   dir.path);
    EXPECT_EQ(xiangqi.code, 2) << xiangqi.out << xiangqi.err;
    EXPECT_NE(xiangqi.err.find("--board is Capture Go's"), std::string::npos) << xiangqi.err;
}

namespace {
const json* ratedPlayer(const json& rating, const std::string& name) {
    for (const auto& p : rating["players"])
        if (p["name"] == name) return &p;
    return nullptr;
}
}  // namespace

// A ladder of xq-go versions on 6x6 Capture Go (target 1) from the solver's positions
// (data/openings/capturego-6x6-solved.txt): each version plays its predecessors and a random-playout
// reference on a real coordinator with two workers, and `xq rate --ladder` rates them. The versions are the
// engine's own search settings, weakest first: random playouts, MCTS, then the alpha-beta search with the
// solver (xq-go's default).
TEST(GoCluster, ALadderOfXqGoVersionsFromTheSolversPositionsIsRatedInOrder) {
    Cluster c;
    c.startCoordinator();
    c.startWorker();
    c.startWorker();
    const std::string book = std::string(XQ_SOURCE_DIR) + "/data/openings/capturego-6x6-solved.txt";
    auto add = [&](const std::string& version, const std::string& args, std::vector<std::string> extra = {}) {
        std::vector<std::string> cmd = {"ladder",   "add",        "go6",       "--version",    version,
                                        "--engine", bin("xq-go"), "--option",  "args=" + args, "--games",
                                        "40",       "--each",     "proto=gtp", "--each",       "nodes=1"};
        cmd.insert(cmd.end(), extra.begin(), extra.end());
        return c.xq(cmd);
    };
    auto first = add(
        "v1", "--engine random-mcts --nodes 1000",
        {"--game", "capturego", "--board", "size=6,rules=capture,target=1", "--openings", book, "--reference",
         "name=random50,cmd=" + bin("xq-go") + ",proto=gtp,args=--engine random-mcts --nodes 50"});
    ASSERT_EQ(first.code, 0) << first.err;
    // Later versions take the ladder's game and board; the book is given again (it is checked the same).
    auto second = add("v2", "--engine mcts --nodes 1000", {"--openings", book});
    ASSERT_EQ(second.code, 0) << second.err;
    auto third = add("v3", "--nodes 3000", {"--openings", book});
    ASSERT_EQ(third.code, 0) << third.err;
    std::vector<std::uint64_t> ids;
    std::istringstream lines(first.out + second.out + third.out);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("test ", 0) == 0) ids.push_back(std::stoull(line.substr(5)));
    ASSERT_EQ(ids.size(), 6u) << "v1 against the reference, v2 against v1 and it, v3 against all three";
    for (auto id : ids) {
        auto view = c.waitFor(
            id, [](const json& v) { return v["state"] != "running"; }, std::chrono::seconds(240));
        ASSERT_EQ(view["state"], "finished") << c.workerLogs();
        EXPECT_EQ(view["game"], "capturego");
    }

    auto rated = c.xq({"rate", "--ladder", "go6", "--json"});
    ASSERT_EQ(rated.code, 0) << rated.err;
    auto rating = json::parse(rated.out);
    std::cerr << "GoLadder: " << rating.dump() << "\n";
    ASSERT_EQ(rating["players"].size(), 4u) << rating.dump();
    EXPECT_EQ(rating["players"][0]["name"], "v1") << "versions in the order they joined";
    const json *v1 = ratedPlayer(rating, "v1"), *v3 = ratedPlayer(rating, "v3"),
               *reference = ratedPlayer(rating, "random50");
    ASSERT_TRUE(v1 && v3 && reference);
    EXPECT_EQ((*v3)["games"], 120);
    EXPECT_GT((*v3)["elo"].get<double>(), (*v1)["elo"].get<double>())
        << "alpha-beta with the solver over random playouts";
    EXPECT_GT((*v1)["elo"].get<double>(), (*reference)["elo"].get<double>())
        << "1000 random playouts over 50";

    // The ladder plays one game on one board from one book.
    auto otherBoard = add("v4", "--nodes 3000", {"--board", "size=7", "--openings", book});
    EXPECT_EQ(otherBoard.code, 2);
    EXPECT_NE(otherBoard.err.find("plays on the board size=6,rules=capture,target=1,komi=0, not "
                                  "size=7,rules=capture,target=1,komi=0 (--board)"),
              std::string::npos)
        << otherBoard.err;
    auto otherGame = add("v4", "--nodes 3000", {"--game", "xiangqi"});
    EXPECT_EQ(otherGame.code, 2);
    EXPECT_NE(otherGame.err.find("the ladder 'go6' plays capturego, not xiangqi (--game)"), std::string::npos)
        << otherGame.err;
    auto noBook = add("v4", "--nodes 3000");
    EXPECT_EQ(noBook.code, 2);
    EXPECT_NE(noBook.err.find("plays from another book than this version's (--openings)"), std::string::npos)
        << noBook.err;
}

// Capture Go training data on the cluster: `xq submit datagen --game capturego` with xq-go over GTP on a 7x7
// board, two workers, the positions exported back; a local `xq datagen` with the same settings keeps the
// same positions (each game number fixes its opening and sampling, and xq-go at a node count is
// deterministic).
TEST(GoCluster, CaptureGoTrainingDataFromTheWorkersIsTheLocalRunsPositions) {
    Cluster c;
    c.startCoordinator();
    c.startWorker();
    c.startWorker();
    const std::vector<std::string> settings = {"--game",        "capturego",   "--engine",       bin("xq-go"),
                                               "--args",        "--nodes 300", "--board",        "size=7",
                                               "--games",       "6",           "--random-plies", "4",
                                               "--sample-rate", "0.5",         "--seed",         "11"};
    std::vector<std::string> submit = {"submit", "datagen", "--slice-games", "2", "--chunk-positions", "8"};
    submit.insert(submit.end(), settings.begin(), settings.end());
    auto r = c.xq(submit);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::uint64_t id = std::stoull(lastLine(r.out));
    auto view = c.waitFor(
        id, [](const json& v) { return v["state"] != "running"; }, std::chrono::seconds(120));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["datagen"]["game"], "capturego") << view.dump();

    const std::string out = c.dir.file("go-data.txt");
    auto exported = c.xq({"data", "export", "--test", std::to_string(id), "--out", out});
    ASSERT_EQ(exported.code, 0) << exported.err;
    std::set<std::string> cluster;
    xq::tuner::readDataFile(out, [&](const xq::tuner::LabeledPosition& p) {
        EXPECT_EQ(xq::capturego::parsePositionText(p.fen).size(), 7) << p.fen;
        EXPECT_TRUE(cluster.insert(p.fen + " ; " + xq::tuner::formatResult(p.result)).second)
            << "twice: " << p.fen;
        return true;
    });
    EXPECT_GT(cluster.size(), 5u);

    std::vector<std::string> local = {bin("xq"), "datagen", "--out", c.dir.file("local-go.txt")};
    local.insert(local.end(), settings.begin(), settings.end());
    auto l = runCommand(local, c.dir.path);
    ASSERT_EQ(l.code, 0) << l.err;
    std::set<std::string> here;
    for (const auto& p : xq::tuner::readDataFile(c.dir.file("local-go.txt")))
        here.insert(p.fen + " ; " + xq::tuner::formatResult(p.result));
    EXPECT_EQ(cluster, here);

    auto refused = c.xq({"submit", "datagen", "--game", "capturego", "--engine", bin("xq-go"), "--games", "2",
                         "--option", "Hash=8"});
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.err.find("GTP engines take no options; give them as --args"), std::string::npos)
        << refused.err;
}
