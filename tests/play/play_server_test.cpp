// xq play's server as a page's script meets it: the real `xq play` process serving HTTP on 127.0.0.1 (an
// OS-picked port), one real xq-engine process per game.
#include "play_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "oracle.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"
#include "xq_play_process.h"

namespace play_server_test {

using nlohmann::json;

namespace {

// `xq play` with a client for its JSON API.
struct Served : xq::testing::XqPlayProcess {
    using XqPlayProcess::XqPlayProcess;
    httplib::Client client() const {
        httplib::Client c(host, port);
        c.set_read_timeout(60, 0);
        c.set_keep_alive(true);
        return c;
    }
};

struct Reply {
    int status = 0;
    json body;
};

Reply call(httplib::Client& c, const std::string& method, const std::string& path,
           const json& body = json()) {
    const std::string text = body.is_null() ? "" : body.dump();
    httplib::Result r = method == "GET"      ? c.Get(path)
                        : method == "DELETE" ? c.Delete(path)
                                             : c.Post(path, text, "application/json");
    Reply out;
    if (!r) {
        out.body = json{{"transport_error", httplib::to_string(r.error())}};
        return out;
    }
    out.status = r->status;
    out.body = json::parse(r->body, nullptr, false);
    if (out.body.is_discarded()) out.body = json{{"text", r->body}};
    return out;
}

// Waits until `count` threads have arrived (libstdc++ 12's std::latch can miss a wake-up and hang).
class Gate {
  public:
    explicit Gate(int count) : left_(count) {}
    void arriveAndWait() {
        std::unique_lock lock(mutex_);
        if (--left_ <= 0) open_.notify_all();
        open_.wait(lock, [this] { return left_ <= 0; });
    }
    void wait() {
        std::unique_lock lock(mutex_);
        open_.wait(lock, [this] { return left_ <= 0; });
    }

  private:
    std::mutex mutex_;
    std::condition_variable open_;
    int left_;
};

// The processes whose parent is `parent` (from /proc).
std::vector<pid_t> childrenOf(pid_t parent) {
    std::vector<pid_t> out;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 1));
        char state;
        pid_t ppid = 0;
        rest >> state >> ppid;
        if (ppid == parent) out.push_back(pid_t(std::stoi(name)));
    }
    return out;
}

// A request written by hand on a fresh connection (httplib's client always sends a Content-Length): its
// status and its body.
std::pair<int, std::string> rawRequest(int port, const std::string& request) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        if (fd >= 0) close(fd);
        return {0, "connect failed"};
    }
    (void)!write(fd, request.data(), request.size());
    std::string reply;
    char buf[4096];
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) reply.append(buf, std::size_t(n));
    close(fd);
    const auto gap = reply.find("\r\n\r\n");
    if (reply.size() < 12 || gap == std::string::npos) return {0, reply};
    return {std::stoi(reply.substr(9, 3)), reply.substr(gap + 4)};
}

const std::string Engine = std::string(XQ_BIN_DIR) + "/xq-engine";

bool haveEngine() {
    return std::filesystem::exists(Engine);
}

}  // namespace

TEST(PlayServer, FiftyConcurrentGamesAreNeitherLostNorMixedUp) {
    XQ_REQUIRE_ORACLE(haveEngine(), "xq-engine not built");
    Served s(50);
    std::atomic<int> finished{0};
    std::vector<std::string> problems(50);
    std::vector<std::thread> players;
    Gate allCreated(50);
    std::thread census([&] {
        allCreated.wait();
        // Every slot is taken: one more player is told to wait.
        auto c = s.client();
        EXPECT_EQ(call(c, "POST", "/api/games", {{"level", 1}}).status, 503);
    });
    for (int p = 0; p < 50; ++p)
        players.emplace_back([&, p] {
            auto c = s.client();
            std::mt19937 rng{unsigned(p)};
            Reply r = call(c, "POST", "/api/games", {{"level", 1}, {"color", p % 2 ? "black" : "red"}});
            if (r.status != 201) {
                problems[p] = "create: " + std::to_string(r.status) + r.body.dump();
                return allCreated.arriveAndWait();  // the others do not wait for this one forever
            }
            const std::string id = r.body["id"];
            std::vector<std::string> moves = r.body["moves"];  // the engine's first move when it plays red
            allCreated.arriveAndWait();                        // fifty games at once from here on
            for (int turn = 0; turn < 8 && !r.body["over"].get<bool>(); ++turn) {
                const auto& legal = r.body["legal"];
                const std::string mine = legal[rng() % legal.size()];
                r = call(c, "POST", "/api/games/" + id + "/move", {{"move", mine}});
                if (r.status != 200) return void(problems[p] = "move: " + r.body.dump());
                moves.push_back(mine);
                if (!r.body["engine_move"].get<std::string>().empty()) moves.push_back(r.body["engine_move"]);
                // The server's game is this player's game, move for move, and its position follows.
                if (r.body["moves"] != json(moves) || r.body["id"] != id)
                    return void(problems[p] =
                                    "moves differ: " + r.body["moves"].dump() + " vs " + json(moves).dump());
                xq::Position pos(r.body["start_fen"].get<std::string>());
                for (const auto& m : moves) pos.doMove(*xq::parseMove(pos, m));
                if (pos.fen() != r.body["fen"]) return void(problems[p] = "position differs");
                if (r.body["notation"].size() != moves.size()) return void(problems[p] = "notation differs");
            }
            if (call(c, "DELETE", "/api/games/" + id).status != 204) return void(problems[p] = "delete");
            ++finished;
        });
    for (auto& t : players) t.join();
    census.join();
    for (int p = 0; p < 50; ++p) EXPECT_EQ(problems[p], "") << "player " << p;
    EXPECT_EQ(finished, 50);
    // Every player left: the slots are free again.
    auto c = s.client();
    EXPECT_EQ(call(c, "POST", "/api/games", {{"level", 1}}).status, 201);
}

TEST(PlayServer, AnIllegalMoveIsRefusedWithItsReasonInWords) {
    XQ_REQUIRE_ORACLE(haveEngine(), "xq-engine not built");
    Served s(2);
    auto c = s.client();
    Reply r = call(c, "POST", "/api/games", {{"fen", "4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1"}});
    ASSERT_EQ(r.status, 201) << r.body.dump();
    const std::string id = r.body["id"];
    Reply facing = call(c, "POST", "/api/games/" + id + "/move", {{"move", "e1d2"}});
    EXPECT_EQ(facing.status, 400);
    EXPECT_EQ(facing.body["error"], "this move leaves the generals facing");
    EXPECT_EQ(facing.body["state"]["moves"].size(), 0u);
    Reply nonsense = call(c, "POST", "/api/games/" + id + "/move", {{"move", "a0b1"}});
    EXPECT_EQ(nonsense.body["error"], "the rook on a0 cannot move to b1");
    EXPECT_EQ(call(c, "POST", "/api/games/" + id + "/undo").body["error"],
              "there is no move of yours to take back");
    EXPECT_EQ(call(c, "GET", "/api/games/0123abcd").status, 404);
    EXPECT_EQ(call(c, "POST", "/api/games", {{"level", 9}}).body["error"],
              "level must be a whole number from 1 to 6");
    EXPECT_EQ(call(c, "POST", "/api/games", {{"fen", "not a fen"}}).status, 400);
    httplib::Result garbage = c.Post("/api/games", "{not json", "application/json");
    ASSERT_TRUE(garbage);
    EXPECT_EQ(garbage->status, 400);
}

TEST(PlayServer, ThePlayerWhoOnlyKeepsCheckingLosesByPerpetualCheckAndThePgnReadsBack) {
    XQ_REQUIRE_ORACLE(haveEngine(), "xq-engine not built");
    Served s(2);
    auto c = s.client();
    // A rook against a bare king: the player gives check with every move, back to positions already seen
    // whenever one is; the engine, scoring that as a win for itself, lets the checks repeat.
    Reply r = call(c, "POST", "/api/games", {{"fen", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"}, {"level", 5}});
    ASSERT_EQ(r.status, 201) << r.body.dump();
    const std::string id = r.body["id"];
    std::set<std::string> seen;
    for (int turn = 0; turn < 30 && !r.body["over"].get<bool>(); ++turn) {
        xq::Position pos(r.body["fen"].get<std::string>());
        std::string chosen;
        for (const auto& m : r.body["legal"]) {
            xq::Position after = pos;
            after.doMove(*xq::parseMove(after, m.get<std::string>()));
            if (!after.inCheck()) continue;
            const std::string board = after.fen().substr(0, after.fen().find(' '));
            if (chosen.empty() || seen.count(board)) chosen = m;
            if (seen.count(board)) break;
        }
        ASSERT_FALSE(chosen.empty()) << "no check in " << r.body["fen"];
        xq::Position after = pos;
        after.doMove(*xq::parseMove(after, chosen));
        seen.insert(after.fen().substr(0, after.fen().find(' ')));
        r = call(c, "POST", "/api/games/" + id + "/move", {{"move", chosen}});
        ASSERT_EQ(r.status, 200) << r.body.dump();
    }
    ASSERT_TRUE(r.body["over"].get<bool>()) << r.body.dump();
    EXPECT_EQ(r.body["result"], "0-1");
    EXPECT_EQ(r.body["verdict"], "Black wins: perpetual check by red");
    EXPECT_EQ(call(c, "POST", "/api/games/" + id + "/move", {{"move", "a0a1"}})
                  .body["error"]
                  .get<std::string>()
                  .rfind("the game is over", 0),
              0u);

    httplib::Result pgn = c.Get("/api/games/" + id + "/pgn");
    ASSERT_TRUE(pgn);
    const std::string path = ::testing::TempDir() + "xq_play_test.pgn";
    std::ofstream(path) << pgn->body;
    FILE* p = popen((std::string(XQ_BIN_DIR) + "/xq judge --json --pgn " + path).c_str(), "r");
    ASSERT_TRUE(p);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
    const json judged = json::parse(out, nullptr, false);
    ASSERT_FALSE(judged.is_discarded()) << out;
    EXPECT_EQ(judged["agree"], 1) << out;
    EXPECT_EQ(judged["games"][0]["reason"], "perpetual check by red");
    std::remove(path.c_str());
}

TEST(PlayServer, TheNextPlayerWaitsAndALeavingPlayerFreesTheGame) {
    XQ_REQUIRE_ORACLE(haveEngine(), "xq-engine not built");
    Served s(1);
    auto c = s.client();
    Reply first = call(c, "POST", "/api/games", {{"level", 1}});
    ASSERT_EQ(first.status, 201);
    Reply second = call(c, "POST", "/api/games", {{"level", 1}});
    EXPECT_EQ(second.status, 503);
    EXPECT_TRUE(second.body["wait"].get<bool>());
    EXPECT_EQ(call(c, "DELETE", "/api/games/" + first.body["id"].get<std::string>()).status, 204);
    EXPECT_EQ(call(c, "POST", "/api/games", {{"level", 1}}).status, 201);
    // The page and its script are served by the same server.
    httplib::Result page = c.Get("/");
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("<svg id=\"board\""), std::string::npos);
    EXPECT_NE(c.Get("/play.js")->body.find("/api/games"), std::string::npos);
}

TEST(PlayServer, StoppingTheServerEndsItAndEveryEngineOfTheGamesStillOpen) {
    XQ_REQUIRE_ORACLE(haveEngine(), "xq-engine not built");
    Served s(4);
    auto c = s.client();
    for (int i = 0; i < 3; ++i) ASSERT_EQ(call(c, "POST", "/api/games", {{"level", 1}}).status, 201);
    const std::vector<pid_t> engines = childrenOf(s.pid);
    EXPECT_EQ(engines.size(), 3u);
    EXPECT_EQ(s.stop(), 0);
    for (pid_t e : engines) EXPECT_NE(kill(e, 0), 0) << "engine " << e << " outlived xq play";
}

TEST(PlayServer, EitherSideMayMoveFirstAndTheEngineMovesAtOnceWhenItIsItsTurn) {
    XQ_REQUIRE_ORACLE(haveEngine(), "xq-engine not built");
    Served s(2);
    auto c = s.client();
    Reply r = call(c, "POST", "/api/games", {{"level", 1}, {"color", "red"}, {"first", "black"}});
    ASSERT_EQ(r.status, 201) << r.body.dump();
    EXPECT_EQ(xq::Position(r.body["start_fen"].get<std::string>()).sideToMove(), xq::BLACK);
    EXPECT_EQ(r.body["moves"].size(), 1u) << "black, the engine, has moved";
    EXPECT_TRUE(r.body["your_turn"].get<bool>());
    EXPECT_EQ(call(c, "DELETE", "/api/games/" + r.body["id"].get<std::string>()).status, 204);
    EXPECT_EQ(call(c, "POST", "/api/games", {{"first", "blue"}}).body["error"], "first must be red or black");
}

TEST(PlayServer, AGameNobodyTouchesForTheIdleTimeIsClosedAndItsEngineFreed) {
    XQ_REQUIRE_ORACLE(haveEngine(), "xq-engine not built");
    auto now = std::make_shared<std::atomic<std::int64_t>>(0);  // seconds on the test's clock
    xq::play::PlayServerOptions o;
    o.listen = "127.0.0.1:0";
    o.engineCmd = Engine;
    o.maxGames = 2;
    o.idleSeconds = 600;
    o.clock = [now] { return std::chrono::steady_clock::time_point(std::chrono::seconds(now->load())); };
    xq::play::PlayServer server(o);
    server.start();
    const std::string url = server.url();
    httplib::Client c(url.substr(7, url.rfind(':') - 7), std::stoi(url.substr(url.rfind(':') + 1)));
    c.set_read_timeout(60, 0);
    const std::string idle = call(c, "POST", "/api/games", {{"level", 1}}).body["id"];
    const std::string busy = call(c, "POST", "/api/games", {{"level", 1}}).body["id"];
    ASSERT_EQ(server.games(), 2);
    *now = 400;
    EXPECT_EQ(call(c, "GET", "/api/games/" + busy).status, 200);  // touched at 400 s
    *now = 601;
    server.closeIdleGames();  // (the server's own pass, each second, may be first)
    EXPECT_EQ(server.games(), 1);
    EXPECT_EQ(call(c, "GET", "/api/games/" + idle).status, 404);
    EXPECT_EQ(call(c, "GET", "/api/games/" + busy).status, 200);
    EXPECT_EQ(call(c, "POST", "/api/games", {{"level", 1}}).status, 201) << "the slot is free again";
    server.stop();
}

}  // namespace play_server_test

namespace play_server_test {

TEST(PlayServer, APostWithoutABodyIsAnsweredAndEveryRefusalSaysWhy) {
    if (!haveEngine()) GTEST_SKIP() << "xq-engine not built";
    Served s(2);
    auto c = s.client();
    Reply r = call(c, "POST", "/api/games", {{"level", 1}});
    ASSERT_EQ(r.status, 201) << r.body.dump();
    const std::string id = r.body["id"];
    // As `curl -X POST` sends them: no body, no Content-Length.
    auto post = [&](const std::string& what) {
        return rawRequest(s.port, "POST /api/games/" + id + "/" + what +
                                      " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    };
    auto [undoStatus, undo] = post("undo");
    EXPECT_EQ(undoStatus, 400);
    EXPECT_EQ(json::parse(undo, nullptr, false).value("error", ""), "there is no move of yours to take back")
        << undo;
    auto [hintStatus, hint] = post("hint");
    EXPECT_EQ(hintStatus, 200) << hint;
    // The hint also in Chinese notation, for a page whose move list is in it.
    const json h = json::parse(hint, nullptr, false);
    EXPECT_EQ(h.value("move", "").size(), 4u) << hint;
    EXPECT_GT(h.value("notation", "").size(), 4u) << hint;
    auto [resignStatus, resign] = post("resign");
    EXPECT_EQ(resignStatus, 200) << resign;
    EXPECT_EQ(json::parse(resign, nullptr, false).value("verdict", ""), "Black wins: red resigned");
    // A resigned game ends normally in PGN's words (its Termination tag), with the resignation in a comment.
    auto pgn = c.Get("/api/games/" + id + "/pgn");
    ASSERT_TRUE(pgn);
    EXPECT_NE(pgn->body.find("[Termination \"normal\"]"), std::string::npos) << pgn->body;
    EXPECT_NE(pgn->body.find("{resignation}"), std::string::npos) << pgn->body;
    // What httplib refuses by itself (a body over the limit, before reading it) also says why, in JSON.
    auto [bigStatus, big] = rawRequest(s.port,
                                       "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                                       "100000\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(bigStatus, 413);
    EXPECT_EQ(json::parse(big, nullptr, false).value("error", ""),
              "the request body is too large (at most 64 KiB): POST /api/games")
        << big;
    Reply missing = call(c, "GET", "/api/nothing");
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.body.value("error", ""), "no such page or API call: GET /api/nothing");
}

}  // namespace play_server_test

namespace play_server_test {

TEST(PlayServer, BothPagesCarryTheirIconSoTheBrowserAsksForNoFavicon) {
    for (const std::vector<std::string>& options :
         {std::vector<std::string>{},
          std::vector<std::string>{"--game", "capturego", "--engine", xq::testing::XqGoBinary}}) {
        Served s(1, options);
        auto c = s.client();
        auto page = c.Get("/");
        ASSERT_TRUE(page);
        EXPECT_NE(page->body.find("<link rel=\"icon\" href=\"data:image/svg+xml,"), std::string::npos)
            << page->body.substr(0, 400);
    }
}

}  // namespace play_server_test
