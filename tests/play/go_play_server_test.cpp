// `xq play --game capturego` as its page's script meets it: the real `xq play` process serving HTTP on
// 127.0.0.1 (an OS-picked port), one real xq-go process per game (or a scripted GTP engine that fails);
// and the words the page shows for refusals and verdicts.
#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "go_game.h"
#include "oracle.h"
#include "xq_play_process.h"

namespace go_play_server_test {

using nlohmann::json;
namespace cg = xq::capturego;

namespace {

struct Reply {
    int status = 0;
    json body;
    std::string text;
};

// `xq play --game capturego` with a client for its JSON API.
struct GoServed : xq::testing::XqPlayProcess {
    explicit GoServed(const std::string& engine = xq::testing::XqGoBinary)
        : XqPlayProcess(2, {"--game", "capturego", "--engine", engine}), client(host, port) {
        client.set_read_timeout(60, 0);
    }
    Reply call(const std::string& method, const std::string& path, const json& body = json()) {
        const std::string text = body.is_null() ? "" : body.dump();
        httplib::Result r = method == "GET" ? client.Get(path) : client.Post(path, text, "application/json");
        Reply out;
        if (!r) {
            out.body = json{{"transport_error", httplib::to_string(r.error())}};
            return out;
        }
        out.status = r->status;
        out.text = r->body;
        out.body = json::parse(r->body, nullptr, false);
        return out;
    }
    Reply move(const std::string& id, const std::string& m) {
        return call("POST", "/api/games/" + id + "/move", {{"move", m}});
    }
    httplib::Client client;
};

bool haveXqGo() {
    return std::filesystem::exists(xq::testing::XqGoBinary);
}

// The game the state's moves make from the empty board under the state's rules.
cg::Game replayed(const json& state) {
    const cg::Position start =
        cg::emptyPosition(state["size"].get<int>(), cg::Rules::capture(state["target"]));
    std::vector<cg::Move> moves;
    for (const auto& m : state["moves"]) moves.push_back(cg::parseMove(m.get<std::string>(), start.size()));
    return cg::Game::replay(start, moves);
}

// A GTP engine as a shell script that answers everything with '=' and genmove with `genmove`.
std::string scriptedEngine(const std::string& name, const std::string& genmove) {
    const std::string path = ::testing::TempDir() + "xq-go-play-" + name + "-" + std::to_string(getpid());
    std::ofstream(path)
        << "#!/bin/sh\n"
           "while read -r line; do\n"
           "  case \"$line\" in\n"
           "    list_commands*) printf '= protocol_version\\nboardsize\\nclear_board\\nplay\\n"
           "genmove\\n\\n' ;;\n"
           "    genmove*) "
        << genmove
        << " ;;\n"
           "    *) printf '= \\n\\n' ;;\n"
           "  esac\n"
           "done\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
}

}  // namespace

TEST(CaptureGoPlayServer, WholeGamesAtTheLowestLevelEndWithAResultAndTheSgfReadsBackTheSame) {
    XQ_REQUIRE_ORACLE(haveXqGo(), "xq-go not built");
    GoServed s;
    std::mt19937 rng(7);
    for (const std::string colour : {"black", "white"}) {
        SCOPED_TRACE("playing " + colour);
        Reply r = s.call("POST", "/api/games", {{"size", 7}, {"color", colour}, {"level", 1}});
        ASSERT_EQ(r.status, 201) << r.text;
        const std::string id = r.body["id"];
        EXPECT_EQ(r.body["moves"].size(), colour == "white" ? 1u : 0u) << "black, the engine, moves first";
        int turns = 0;
        while (!r.body["over"].get<bool>() && turns++ < 60) {
            ASSERT_TRUE(r.body["your_turn"].get<bool>());
            const cg::Game game = replayed(r.body);
            // The server's board is the board its moves make.
            ASSERT_EQ(r.body["board"][0].get<std::string>().size(), 7u);
            EXPECT_EQ(r.body["captures"]["black"], game.position().captures(cg::Color::Black));
            std::vector<cg::Move> stones;
            for (const cg::Move& m : game.position().legalMoves())
                if (!m.isPass()) stones.push_back(m);
            ASSERT_FALSE(stones.empty());
            r = s.move(id, cg::moveName(stones[rng() % stones.size()]));
            ASSERT_EQ(r.status, 200) << r.text;
        }
        ASSERT_TRUE(r.body["over"].get<bool>()) << "no result after 60 moves of mine";
        const cg::Game game = replayed(r.body);
        EXPECT_EQ(game.result().sgf(), r.body["result"]);
        const std::string verdict = r.body["verdict"];
        EXPECT_TRUE(verdict.find(" wins") != std::string::npos || verdict.rfind("Draw: ", 0) == 0) << verdict;
        if (game.result().ending == cg::Ending::CaptureTarget) {
            EXPECT_NE(verdict.find("wins by capture: "), std::string::npos) << verdict;
        }
        // The SGF download reads back to the same game and result.
        Reply sgf = s.call("GET", "/api/games/" + id + "/sgf");
        ASSERT_EQ(sgf.status, 200);
        const cg::Game back = cg::readSgf(sgf.text);
        EXPECT_EQ(back.moves(), game.moves());
        EXPECT_EQ(back.result().sgf(), r.body["result"]);
        EXPECT_EQ(back.rules(), cg::Rules::capture(1));
        EXPECT_EQ(colour == "black" ? back.info.black : back.info.white, "player");
        // Nothing more is played once it is over.
        EXPECT_EQ(s.move(id, "pass").body["error"].get<std::string>().rfind("the game is over: ", 0), 0u);
    }
}

TEST(CaptureGoPlayServer, AnIllegalPointIsRefusedWithItsReasonInWordsAndNothingIsPlayed) {
    XQ_REQUIRE_ORACLE(haveXqGo(), "xq-go not built");
    GoServed s;
    Reply r = s.call("POST", "/api/games", {{"size", 9}, {"target", 3}, {"level", 1}});
    ASSERT_EQ(r.status, 201) << r.text;
    EXPECT_EQ(r.body["target"], 3);
    const std::string id = r.body["id"];
    r = s.move(id, "E5");
    ASSERT_EQ(r.status, 200);
    const json moves = r.body["moves"];
    ASSERT_EQ(moves.size(), 2u);
    for (const auto& [point, reason] : std::vector<std::pair<std::string, std::string>>{
             {"E5", "E5 is occupied"},
             {moves[1], moves[1].get<std::string>() + " is occupied"},
             {"K10", "K10 is off the 9x9 board"},
             {"I5", "'I5': GTP columns skip I (... H, J ...)"}}) {
        Reply refused = s.move(id, point);
        EXPECT_EQ(refused.status, 400);
        EXPECT_EQ(refused.body["error"], reason);
        EXPECT_EQ(refused.body["state"]["moves"], moves) << "nothing was played";
    }
    EXPECT_EQ(s.call("POST", "/api/games", {{"size", 4}}).body["error"],
              "size must be a whole number from 5 to 19");
    EXPECT_EQ(s.call("POST", "/api/games", {{"color", "red"}}).body["error"], "color must be black or white");
    EXPECT_EQ(s.call("POST", "/api/games", {{"size", 5}, {"target", 26}}).body["error"],
              "target must be a whole number from 1 to 25");
    EXPECT_EQ(s.call("GET", "/api/games/0123abcd").status, 404);
}

TEST(CaptureGoPlayServer, TwoPassesBeforeTheTargetEndTheGameAndTheVerdictNamesTheRuleThatDecided) {
    XQ_REQUIRE_ORACLE(haveXqGo(), "xq-go not built");
    GoServed s;
    Reply r = s.call("POST", "/api/games", {{"size", 5}, {"level", 1}});
    ASSERT_EQ(r.status, 201) << r.text;
    const std::string id = r.body["id"];
    // I only pass: I have no stones to lose, so nobody captures; the engine passes in the end (it cannot
    // fill its own last liberty), and two passes end the game.
    for (int turn = 0; turn < 30 && !r.body["over"].get<bool>(); ++turn) {
        r = s.move(id, "pass");
        ASSERT_EQ(r.status, 200) << r.text;
    }
    ASSERT_TRUE(r.body["over"].get<bool>());
    EXPECT_EQ(r.body["moves"].back(), "pass");
    // White has the only stones, if any: a win by area, or a draw on an empty board.
    const std::string result = r.body["result"], verdict = r.body["verdict"];
    EXPECT_TRUE(result.rfind("W+", 0) == 0 || result == "0") << result;
    EXPECT_TRUE(verdict.rfind("White wins by ", 0) == 0 || verdict.rfind("Draw: ", 0) == 0) << verdict;
    EXPECT_NE(verdict.find("two passes, captures equal (0 each)"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("after two passes with equal captures the area score decides"), std::string::npos)
        << verdict;
}

TEST(CaptureGoPlayServer, UndoTakesBackMyLastMoveAndTheEngineReply) {
    XQ_REQUIRE_ORACLE(haveXqGo(), "xq-go not built");
    GoServed s;
    Reply r = s.call("POST", "/api/games", {{"size", 9}, {"color", "white"}, {"target", 5}});
    ASSERT_EQ(r.status, 201) << r.text;
    const std::string id = r.body["id"];
    const json first = r.body["moves"];
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(s.call("POST", "/api/games/" + id + "/undo").body["error"],
              "there is no move of yours to take back");
    const std::string mine = first[0] == "A1" ? "J9" : "A1";
    r = s.move(id, mine);
    ASSERT_EQ(r.status, 200);
    r = s.move(id, "pass");
    ASSERT_EQ(r.status, 200);
    ASSERT_EQ(r.body["moves"].size(), 5u) << r.text;
    r = s.call("POST", "/api/games/" + id + "/undo");
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["moves"].size(), 3u);
    EXPECT_TRUE(r.body["your_turn"].get<bool>());
    r = s.call("POST", "/api/games/" + id + "/undo");
    EXPECT_EQ(r.body["moves"], first) << "the engine's first move stays";
    // The engine plays on from the position taken back to.
    r = s.move(id, mine);
    ASSERT_EQ(r.status, 200) << r.text;
    EXPECT_EQ(r.body["moves"].size(), 3u);
    r = s.call("POST", "/api/games/" + id + "/resign");
    EXPECT_EQ(r.body["verdict"], "Black wins: white resigned");
    EXPECT_EQ(r.body["result"], "B+R");
    EXPECT_EQ(s.call("POST", "/api/games/" + id + "/undo").body["error"], "you resigned; start a new game");
}

TEST(CaptureGoPlayServer, AnEngineThatCrashesOrAnswersGarbageOrAnIllegalPointLosesTheGameWithTheReason) {
    struct Case {
        std::string name, genmove, reason;
    };
    for (const Case& c :
         {Case{"crash", "exit 3", "the engine exited with code 3 after 'genmove w'"},
          Case{"garbage", "printf 'hello there\\n\\n'",
               "answered 'hello there' to 'genmove w' (no GTP answer)"},
          Case{"nonsense", "printf '= Z99\\n\\n'", "unreadable move 'Z99' (answer to 'genmove w')"},
          Case{"illegal", "printf '= C3\\n\\n'", "it played C3, which is illegal: C3 is occupied"}}) {
        SCOPED_TRACE(c.name);
        GoServed s(scriptedEngine(c.name, c.genmove));
        Reply r = s.call("POST", "/api/games", {{"size", 5}});
        ASSERT_EQ(r.status, 201) << r.text;
        const auto begin = std::chrono::steady_clock::now();
        r = s.move(r.body["id"], "C3");
        EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(5)) << "no hang";
        ASSERT_EQ(r.status, 200) << r.text;
        EXPECT_TRUE(r.body["over"].get<bool>());
        EXPECT_EQ(r.body["result"], "B+F");
        const std::string verdict = r.body["verdict"];
        EXPECT_EQ(verdict.rfind("Black wins: white forfeited: the engine failed: ", 0), 0u) << verdict;
        EXPECT_NE(verdict.find(c.reason), std::string::npos) << verdict;
        EXPECT_NE(r.body["engine_failure"].get<std::string>().find(c.reason), std::string::npos);
        std::filesystem::remove(::testing::TempDir() + "xq-go-play-" + c.name + "-" +
                                std::to_string(getpid()));
    }
}

TEST(CaptureGoPlayWords, SuicideAndSuperkoAreRefusedInWords) {
    // White to move: A1 (corner between black B1 and A2) is suicide.
    const cg::Position corner = cg::parsePositionText("5/5/5/X4/1X3 w 0 0 0 capture:3 0");
    EXPECT_EQ(xq::play::goRefusalInWords(corner, cg::Move::at(0, 0)),
              "A1 is suicide: the stone would have no liberty and captures nothing");
    EXPECT_EQ(xq::play::goRefusalInWords(corner, cg::Move::at(0, 1)), "A2 is occupied");
    EXPECT_EQ(xq::play::goRefusalInWords(corner, cg::Move::at(2, 2)), "");
    // A ko: black B3 takes the white stone on C3, and white may not take back at once on C3.
    cg::Position ko = cg::parsePositionText("5/1OX2/O1OX1/1OX2/5 b 0 0 0 capture:5 0");
    ASSERT_TRUE(ko.play(cg::Move::at(1, 2)));
    EXPECT_EQ(ko.captures(cg::Color::Black), 1);
    EXPECT_EQ(xq::play::goRefusalInWords(ko, cg::Move::at(2, 2)), "C3 repeats an earlier position (superko)");
}

TEST(CaptureGoPlayWords, TheVerdictSaysWhoWonAndWhichRuleDecided) {
    using xq::play::goVerdictInWords;
    EXPECT_EQ(goVerdictInWords(cg::Result{}), "");
    EXPECT_EQ(goVerdictInWords(cg::resignation(cg::Color::Black)), "White wins: black resigned");
    cg::Position target = cg::parsePositionText("5/5/5/5/5 b 1 0 0 capture:1 0");
    EXPECT_EQ(goVerdictInWords(cg::judge(target)),
              "Black wins by capture: black captured 1 stone (target 1)");
    cg::Position more = cg::parsePositionText("5/5/5/5/5 b 1 2 2 capture:3 0");
    EXPECT_EQ(goVerdictInWords(cg::judge(more)),
              "White wins: two passes: black captured 1 stone, white 2 (target 3) (after two passes before "
              "anyone reaches the target, more captures win)");
    cg::Position even = cg::parsePositionText("5/5/5/5/5 b 0 0 2 capture:3 0");
    EXPECT_EQ(goVerdictInWords(cg::judge(even)).rfind("Draw: two passes, captures equal (0 each)", 0), 0u);
}

}  // namespace go_play_server_test
