#include "protocol.h"

#include <gtest/gtest.h>

#include "engine.h"
#include "test_util.h"

namespace protocol_test {

using namespace xq::match;
using namespace xq::match::test;

TEST(Protocol, UciGoCommands) {
    auto uci = makeProtocolAdapter(Protocol::Uci);
    TimeControl tc = TimeControl::parse("tc=40/5400:20/1800 nodes=5000");
    GameClock clocks[2] = {GameClock(tc), GameClock(tc)};
    clocks[0].charge(1000);
    EXPECT_EQ(uci->goCommand(tc, clocks, false), "go wtime 5399000 btime 5400000 movestogo 40 nodes 5000");
    TimeControl inc = TimeControl::parse("tc=10+0.1");
    GameClock c2[2] = {GameClock(inc), GameClock(inc)};
    EXPECT_EQ(uci->goCommand(inc, c2, true), "go wtime 10000 btime 10000 winc 100 binc 100");
    TimeControl st = TimeControl::parse("st=0.5 depth=7");
    GameClock c3[2] = {GameClock(st), GameClock(st)};
    EXPECT_EQ(uci->goCommand(st, c3, true), "go movetime 500 depth 7");
    EXPECT_EQ(uci->positionCommand("F w - - 0 1", {"h2e2", "h9g7"}),
              "position fen F w - - 0 1 moves h2e2 h9g7");
    EXPECT_EQ(uci->fromEngine("h2e2"), "h2e2");
    EXPECT_EQ(uci->fromEngine("h2e"), "");
    EXPECT_EQ(uci->fromEngine("j2e2"), "");
}

TEST(Protocol, APositionCommandExtendedByTheMovesSinceIsTheWholeCommand) {
    for (auto protocol : {Protocol::Uci, Protocol::Ucci, Protocol::Fairy}) {
        auto adapter = makeProtocolAdapter(protocol);
        const std::vector<std::string> moves = {"h2e2", "h9g7", "h0g2", "i9h9"};
        std::string command = adapter->positionCommand("F w - - 0 1", {});
        adapter->appendMoves(command, {moves[0]}, 0);
        adapter->appendMoves(command, {moves[0], moves[1], moves[2]}, 1);
        adapter->appendMoves(command, moves, 3);
        EXPECT_EQ(command, adapter->positionCommand("F w - - 0 1", moves)) << protocolName(protocol);
        std::string none = adapter->positionCommand("F w - - 0 1", {});
        adapter->appendMoves(none, {}, 0);
        EXPECT_EQ(none, "position fen F w - - 0 1");
    }
}

TEST(Protocol, UcciUsesOwnClockInMilliseconds) {
    auto ucci = makeProtocolAdapter(Protocol::Ucci);
    EXPECT_EQ(ucci->handshake(), "ucci");
    EXPECT_EQ(ucci->handshakeReply(), "ucciok");
    TimeControl inc = TimeControl::parse("tc=10+0.1");
    GameClock c[2] = {GameClock(inc), GameClock(inc)};
    c[1].charge(2000);
    EXPECT_EQ(ucci->goCommand(inc, c, false), "go time 8100 increment 100");
    TimeControl periods = TimeControl::parse("tc=40/5400:20/1800");
    GameClock p[2] = {GameClock(periods), GameClock(periods)};
    EXPECT_EQ(ucci->goCommand(periods, p, true), "go time 5400000 movestogo 40");
    TimeControl nodes = TimeControl::parse("nodes=5000");
    GameClock n[2] = {GameClock(nodes), GameClock(nodes)};
    EXPECT_EQ(ucci->goCommand(nodes, n, true), "go nodes 5000");
    EXPECT_EQ(ucci->setupCommands({{"hashsize", "64"}}), std::vector<std::string>{"setoption hashsize 64"});
}

TEST(Protocol, ThePerMoveSystemIsToldAsTheBankPlusTheLimitAsAnIncrement) {
    TimeControl tc = TimeControl::parse("tc=permove120+bank1800");
    GameClock clocks[2] = {GameClock(tc), GameClock(tc)};
    clocks[1].charge(150000);  // black ran 30 s over
    EXPECT_EQ(makeProtocolAdapter(Protocol::Uci)->goCommand(tc, clocks, true),
              "go wtime 1800000 btime 1770000 winc 120000 binc 120000");
    EXPECT_EQ(makeProtocolAdapter(Protocol::Ucci)->goCommand(tc, clocks, false),
              "go time 1770000 increment 120000");
}

TEST(Protocol, FairyTranslatesRanksBothWays) {
    auto fairy = makeProtocolAdapter(Protocol::Fairy);
    EXPECT_EQ(fairy->toEngine("h2e2"), "h3e3");
    EXPECT_EQ(fairy->toEngine("h9g7"), "h10g8");
    EXPECT_EQ(fairy->fromEngine("h10g8"), "h9g7");
    EXPECT_EQ(fairy->fromEngine("a1a2"), "a0a1");
    EXPECT_EQ(fairy->fromEngine("a0a1"), "");   // rank 0 does not exist there
    EXPECT_EQ(fairy->fromEngine("a11a2"), "");  // nor rank 11
    EXPECT_EQ(fairy->setupCommands({})[0], "setoption name UCI_Variant value xiangqi");
}

TEST(Protocol, ParsesInfoScores) {
    auto uci = makeProtocolAdapter(Protocol::Uci);
    SearchInfo info;
    uci->parseInfo("info depth 12 seldepth 20 score cp -35 upperbound nodes 123456 time 10 pv h2e2 h9g7",
                   info);
    EXPECT_EQ(info.depth, 12);
    EXPECT_EQ(info.score.kind, Score::Cp);
    EXPECT_EQ(info.score.value, -35);
    EXPECT_EQ(info.nodes, 123456);
    uci->parseInfo("info depth 13 score mate -3 nodes 200000", info);
    EXPECT_EQ(info.score.kind, Score::Mate);
    EXPECT_EQ(info.score.value, -3);
    EXPECT_EQ(info.score.centipawns(), -100000);
    uci->parseInfo("info string depth 99 score cp 5", info);  // free text is ignored
    EXPECT_EQ(info.depth, 13);
    auto ucci = makeProtocolAdapter(Protocol::Ucci);
    SearchInfo u;
    ucci->parseInfo("info depth 9 score 42 pv h2e2", u);
    EXPECT_EQ(u.score.kind, Score::Cp);
    EXPECT_EQ(u.score.value, 42);
}

// Over real pipes: what each dialect actually sends, as logged by the mock engine.
TEST(Protocol, DialectsOverPipes) {
    StopCheck never = [] { return false; };
    for (Protocol proto : {Protocol::Uci, Protocol::Ucci, Protocol::Fairy}) {
        TempFile log("proto-log");
        EngineConfig cfg = mock("m", {"--proto", protocolName(proto), "--log", log.path}, "tc=5+0.05");
        cfg.protocol = proto;
        cfg.options = {{"Hash", "16"}};
        EngineClient client(cfg, 2000, 2000);
        client.start(never);
        std::string error;
        ASSERT_TRUE(client.newGame(never, error)) << error;
        GameClock clocks[2] = {GameClock(cfg.tc), GameClock(cfg.tc)};
        SearchOutcome out = client.go(xq::Position::StartFEN, {"h2e2"}, clocks, false, never);
        ASSERT_EQ(out.status, SearchOutcome::Move) << protocolName(proto) << ": " << out.detail;
        xq::Position pos;
        pos.doMove(*xq::parseMove(pos, "h2e2"));
        EXPECT_TRUE(xq::parseMove(pos, out.move).has_value()) << out.move;
        client.shutdown();
        std::string sent = log.read();
        switch (proto) {
            case Protocol::Uci:
                EXPECT_NE(sent.find("uci\n"), std::string::npos);
                EXPECT_NE(sent.find("setoption name Hash value 16\n"), std::string::npos);
                EXPECT_NE(sent.find("ucinewgame\n"), std::string::npos);
                EXPECT_NE(sent.find("moves h2e2\ngo wtime 5000 btime 5000 winc 50 binc 50\n"),
                          std::string::npos)
                    << sent;
                break;
            case Protocol::Ucci:
                EXPECT_NE(sent.find("ucci\n"), std::string::npos);
                EXPECT_NE(sent.find("setoption Hash 16\n"), std::string::npos);
                EXPECT_NE(sent.find("moves h2e2\ngo time 5000 increment 50\n"), std::string::npos) << sent;
                break;
            case Protocol::Fairy:
                EXPECT_NE(sent.find("setoption name UCI_Variant value xiangqi\n"), std::string::npos);
                EXPECT_NE(sent.find("moves h3e3\n"), std::string::npos) << sent;
                break;
            case Protocol::Gtp:  // Go's protocol: gtp_match_test.cpp
                break;
        }
    }
}

}  // namespace protocol_test
