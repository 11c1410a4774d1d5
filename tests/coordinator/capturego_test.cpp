// Capture Go (and Go) tests in the coordinator without a network: what a capturego test accepts and stores
// (its board, canonical), what it refuses (each with a message naming what is wrong), what a worker is
// handed, and its games, which come back as SGF and are counted by game trees.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "data_chunk.h"
#include "expect_error.h"
#include "fixture.h"
#include "job_player.h"
#include "report_games.h"
#include "test_report.h"

using namespace xq::coord;
using xq::coord::testing::Fixture;
using xq::coord::testing::messageOf;
namespace v1 = xq::v1;

namespace {

const std::string Go5Book =
    "# two openings\n5/1O3/2X2/5/5 b 0 0 0 capture:1 0\n5/2X2/2O2/5/5 b 0 0 0 go 7.5\n";

// A capturego test of two GTP engines on the 5x5 Go board, from `book` (uploaded) unless it is empty; on a
// clock (Fixture::request), so that its game cap is not lowered to the book's two openings.
v1::SubmitRequest goRequest(Fixture& f, const std::string& book = Go5Book) {
    v1::SubmitRequest req = f.request(8, true);
    auto* m = req.mutable_spec()->mutable_match();
    m->set_game("capturego");
    m->set_board("rules=go,size=5,komi=0.5");
    for (auto* e : {m->mutable_base(), m->mutable_dev()}) {
        e->set_protocol("gtp");
        e->add_args("--mode");
        e->add_args("gtp");
    }
    if (!book.empty()) m->set_openings_sha256(f.upload(book));
    return req;
}

// `n` Capture Go games as the worker sends them: one SGF game tree each.
std::string sgfOfGames(int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
        out += "(;FF[4]GM[1]SZ[5]KM[0.5]RU[go]PB[dev]PW[base]RE[B+2.5]C[game " + std::to_string(i + 1) +
               " \\] bracket];B[cc];W[bb];B[];W[])\n";
    return out;
}

}  // namespace

TEST(CaptureGoTests, AreAcceptedWithTheBoardStoredCanonicalAndShownAsTheTestsGame) {
    Fixture f;
    f.makeTokens();
    const auto id = std::int64_t(f.coord->submit(f.user, goRequest(f)).test_id());
    f.open();  // from the store, not from memory
    const v1::TestView view = f.coord->showTest(id);
    EXPECT_EQ(view.spec().match().board(), "size=5,rules=go,komi=0.5");
    EXPECT_EQ(view.summary().game(), "capturego");
    EXPECT_EQ(view.summary().board(), "size=5,rules=go,komi=0.5");
    const auto j = nlohmann::json::parse(testViewJson(view));
    EXPECT_EQ(j["game"], "capturego") << j.dump();
    EXPECT_EQ(j["board"], "size=5,rules=go,komi=0.5") << j.dump();
    EXPECT_FALSE(j.contains("rules")) << j.dump();
    EXPECT_NE(testViewText(view).find("game       capturego (board size=5,rules=go,komi=0.5"),
              std::string::npos)
        << testViewText(view);
    // The other games' summaries say theirs.
    const auto chess = [&] {
        auto r = f.request(8, false);
        r.mutable_spec()->mutable_match()->set_game("chess");
        return std::int64_t(f.coord->submit(f.user, r).test_id());
    }();
    EXPECT_EQ(f.coord->showTest(chess).summary().game(), "chess");
    EXPECT_EQ(f.coord->showTest(chess).summary().board(), "");
    // No board: the default 9x9 Capture Go board (a book of 5x5 positions would not fit it).
    auto plain = goRequest(f, "");
    plain.mutable_spec()->mutable_match()->clear_board();
    EXPECT_EQ(
        f.coord->showTest(std::int64_t(f.coord->submit(f.user, plain).test_id())).spec().match().board(),
        "size=9,rules=capture,target=1,komi=0");
}

TEST(CaptureGoTests, AWorkerPlaysTheBoardsEmptyPositionAndTheBookUnderTheBoardsRules) {
    Fixture f;
    f.makeTokens();
    f.coord->submit(f.user, goRequest(f));
    const auto job = f.job(f.registerWorker());
    ASSERT_TRUE(job.has_job());
    EXPECT_EQ(job.job().match().spec().board(), "size=5,rules=go,komi=0.5");
    const std::string book = f.dir.file("book.txt");
    std::ofstream(book) << Go5Book;
    xq::worker::JobEnvironment env;
    env.concurrency = 2;
    env.openingsPath = book;
    const xq::match::MatchConfig cfg = xq::worker::makeMatchConfig(job.job().match(), env);
    EXPECT_EQ(cfg.game, xq::games::Game::CaptureGo);
    EXPECT_EQ(cfg.startPosition, "5/5/5/5/5 b 0 0 0 go 0.5");
    ASSERT_EQ(cfg.openings.size(), 2u);
    EXPECT_EQ(cfg.openings[0].fen, "5/1O3/2X2/5/5 b 0 0 0 go 0.5");
    EXPECT_EQ(cfg.openings[1].fen, "5/2X2/2O2/5/5 b 0 0 0 go 0.5");
    EXPECT_EQ(cfg.engines[0].protocol, xq::match::Protocol::Gtp);
    // A board the job carries for another game is not played.
    v1::MatchJob xiangqi = job.job().match();
    xiangqi.mutable_spec()->set_game("xiangqi");
    env.openingsPath.clear();
    EXPECT_THROW(xq::worker::makeMatchConfig(xiangqi, env), std::invalid_argument);
}

TEST(CaptureGoTests, RefuseWhatDoesNotApplyToCaptureGoNamingIt) {
    Fixture f;
    f.makeTokens();
    using R = v1::SubmitRequest;
    auto expectBad = [&](const std::function<void(R&)>& mutate, const std::string& words) {
        R req = goRequest(f);
        mutate(req);
        const std::string message =
            messageOf([&] { f.coord->submit(f.user, req); }, ErrorCode::InvalidArgument);
        EXPECT_NE(message.find(words), std::string::npos) << "expected '" << words << "' in: " << message;
    };
    auto match = [](R& r) { return r.mutable_spec()->mutable_match(); };
    expectBad([&](R& r) { match(r)->set_rules("chinese"); }, "rules 'chinese' is a Xiangqi rule set");
    expectBad([&](R& r) { match(r)->set_rules("asian"); }, "takes its rules from board");
    expectBad([&](R& r) { match(r)->set_resign_score(600); }, "resign and draw adjudication are Xiangqi's");
    expectBad([&](R& r) { match(r)->set_draw_moves(10); }, "resign and draw adjudication");
    expectBad([&](R& r) { match(r)->set_reference_nps(1000000); }, "reference_nps");
    expectBad([&](R& r) { match(r)->mutable_dev()->set_bench_signature(12345); },
              "dev bench signature: a GTP engine has no bench");
    expectBad([&](R& r) { match(r)->mutable_base()->set_weights_sha256(f.upload("weights")); },
              "base weights");
    expectBad([&](R& r) { match(r)->mutable_dev()->set_net_sha256(f.upload("a net")); },
              "dev network: networks are Xiangqi's");
    expectBad([&](R& r) { match(r)->mutable_base()->set_protocol("uci"); },
              "base protocol must be gtp for capturego");
    expectBad([&](R& r) { match(r)->mutable_dev()->clear_protocol(); }, "dev protocol must be gtp");
    expectBad([&](R& r) { (*match(r)->mutable_base()->mutable_options())["Hash"] = "16"; },
              "base option 'Hash': GTP engines take no options");
    expectBad([&](R& r) { match(r)->set_board("size=4"); },
              "board: size must be a whole number from 5 to 19");
    expectBad([&](R& r) { match(r)->set_board("size=5,colour=black"); }, "board: unknown setting 'colour'");
    expectBad([&](R& r) { match(r)->set_board("size=5;rules=go"); }, "board: size must be a whole number");
    expectBad(
        [&](R& r) { match(r)->set_board("size=9,rules=go"); },
        "opening 1 (5/1O3/2X2/5/5 b 0 0 0 capture:1 0): the opening is a 5x5 board, the test's board is "
        "9x9");
    expectBad(
        [&](R& r) {
            match(r)->set_openings_sha256(
                f.upload("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"));
        },
        "openings (capturego): ");
    // And the other way round: GTP and a board are Capture Go's.
    expectBad(
        [&](R& r) {
            match(r)->set_game("xiangqi");
            match(r)->clear_openings_sha256();
            match(r)->clear_board();
        },
        "base protocol gtp is Capture Go's");
    expectBad(
        [&](R& r) {
            match(r)->set_game("chess");
            match(r)->clear_openings_sha256();
            for (auto* e : {match(r)->mutable_base(), match(r)->mutable_dev()}) e->set_protocol("uci");
        },
        "board is Capture Go's");
    EXPECT_EQ(f.coord->listTests({}).tests_size(), 0);
}

TEST(CaptureGoTests, AnSpsaTestOfCaptureGoIsRefused) {
    Fixture f;
    f.makeTokens();
    v1::SubmitRequest req;
    auto* sp = req.mutable_spec()->mutable_spsa();
    *sp->mutable_match() = goRequest(f, "").spec().match();
    auto* p = sp->add_params();
    p->set_name("level");
    p->set_start(5);
    p->set_min(0);
    p->set_max(10);
    p->set_c_end(1);
    p->set_r_end(0.002);
    req.mutable_spec()->set_games(10);
    const std::string message = messageOf([&] { f.coord->submit(f.user, req); }, ErrorCode::InvalidArgument);
    EXPECT_NE(message.find("game capturego: SPSA tunes option values of UCI engines"), std::string::npos)
        << message;
}

TEST(ReportGames, ACaptureGoReportsSgfIsStoredAndCountedByItsGameTrees) {
    Fixture f;
    f.makeTokens();
    const auto id = std::int64_t(f.coord->submit(f.user, goRequest(f)).test_id());
    const auto w = f.registerWorker();
    const auto job = f.job(w).job();
    auto r1 = f.reportOf(job, w, 1, 0, 2, 2);
    r1.set_pgn_gz(gzipText(sgfOfGames(4)));
    f.coord->report(f.worker, r1);
    EXPECT_EQ(f.coord->gameTotals(id).games, 4);
    // The count is of game trees: an SGF of three trees for a pair, or PGN, is dropped; the results count.
    auto wrongCount = f.reportOf(job, w, 2, 2, 1, 2);
    wrongCount.set_pgn_gz(gzipText(sgfOfGames(3)));
    f.coord->report(f.worker, wrongCount);
    auto pgn = f.reportOf(job, w, 3, 3, 1, 2);
    pgn.set_pgn_gz(gzipText(xq::coord::testing::pgnOfGames(2)));
    f.coord->report(f.worker, pgn);
    const auto view = f.coord->showTest(id);
    EXPECT_EQ(view.summary().games(), 8u);
    EXPECT_EQ(f.coord->gameTotals(id).games, 4);
    bool namesTheCount = false, namesTheFormat = false;
    for (const auto& e : view.events()) {
        namesTheCount |= e.find("SGF holds 3 game trees, the report 2 games") != std::string::npos;
        namesTheFormat |= e.find("SGF is not a collection of game trees") != std::string::npos;
    }
    EXPECT_TRUE(namesTheCount);
    EXPECT_TRUE(namesTheFormat);
}

TEST(ReportGames, SgfGameTreesAreCountedAtTheTopLevelOutsidePropertyValues) {
    EXPECT_EQ(countSgfGameTrees(""), 0);
    EXPECT_EQ(countSgfGameTrees("(;FF[4]SZ[5];B[cc](;W[bb])(;W[dd]))\n(;FF[4]C[a ( in a comment \\] (])\n"),
              2);
    EXPECT_EQ(countSgfGameTrees("(;FF[4]"), -1);
    EXPECT_EQ(countSgfGameTrees("(;FF[4]))"), -1);
    EXPECT_EQ(countSgfGameTrees("[Event \"x\"]\n(;FF[4])"), -1);
    EXPECT_EQ(countSgfGameTrees("(;C[unclosed)"), -1);
    // What the project's SGF parser refuses (xq judge and xq rate read the stored games) is refused here.
    EXPECT_EQ(countSgfGameTrees("()"), -1);
    EXPECT_EQ(countSgfGameTrees("(garbage)"), -1);
    EXPECT_EQ(countSgfGameTrees("(;FF[4](W[aa]))"), -1);
    EXPECT_EQ(countSgfGameTrees("(;FF[4];B[aa] 12)"), -1);
    EXPECT_EQ(countSgfGameTrees(" ( ;FF[4] ;B[aa] ( ;W[bb] ) )\n"), 1);
}

TEST(CaptureGoTests, AtNodesOneTheGameCapIsOnePairPerOpeningSinceGtpEnginesReplayTheirGames) {
    Fixture f;
    f.makeTokens();
    auto req = goRequest(f);
    req.mutable_spec()->set_games(200);
    for (auto* e : {req.mutable_spec()->mutable_match()->mutable_base(),
                    req.mutable_spec()->mutable_match()->mutable_dev()})
        e->set_tc("nodes=1");
    const auto view = f.coord->showTest(std::int64_t(f.coord->submit(f.user, req).test_id()));
    EXPECT_EQ(view.summary().games_target(), 4u) << "two openings, one pair each";
    bool lowered = false;
    for (const auto& e : view.events())
        lowered |= e.find("game cap lowered from 200 to 4") != std::string::npos;
    EXPECT_TRUE(lowered);
}
