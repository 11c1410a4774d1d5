// The `xq` commands that take --game capturego, through the real binary: `xq judge` re-judging SGF files
// (a match's, and hand-made ones with an occupied point, a suicide and a superko repetition), `xq rate`
// reading SGF as it reads PGN, `xq openings` making start positions that `xq match` plays with xq-go, and
// their errors for malformed input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "capturego/position_text.h"
#include "capturego/result.h"
#include "capturego/sgf.h"
#include "oracle.h"

using namespace xq::capturego;
using nlohmann::json;

namespace {

const std::string kXq = std::string(XQ_BIN_DIR) + "/xq";
const std::string kXqGo = std::string(XQ_BIN_DIR) + "/xq-go";

struct XqRun {
    int code = -1;
    std::string out;  // standard output
    std::string err;  // standard error
};

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

struct TempFile {
    std::string path;
    explicit TempFile(const std::string& name) {
        static int counter = 0;
        path = (std::filesystem::temp_directory_path() /
                ("xq-gocli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name))
                   .string();
        std::filesystem::remove(path);
    }
    ~TempFile() { std::filesystem::remove(path); }
    void write(const std::string& text) const { std::ofstream(path, std::ios::binary) << text; }
    std::string read() const {
        std::ifstream in(path, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
};

// Runs `xq ARGS`, standard error captured apart.
// A shell command line; its stderr is collected.
XqRun runShell(const std::string& command) {
    TempFile err("stderr");
    XqRun r;
    FILE* p = popen(("{ " + command + "; } 2>" + quote(err.path)).c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = err.read();
    return r;
}

XqRun runXq(const std::string& args) {
    return runShell(quote(kXq) + " " + args);
}

bool haveXq() {
    return std::filesystem::exists(kXq);
}

std::vector<std::string> positionLines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') lines.push_back(line);
    return lines;
}

// The least text of the eight images of a position under the board's symmetries.
std::string canonical(const Position& pos) {
    const int n = pos.size();
    std::string best;
    for (int t = 0; t < 8; ++t) {
        Position image(n, pos.rules());
        for (int row = 0; row < n; ++row)
            for (int col = 0; col < n; ++col) {
                if (pos.at({col, row}) == Cell::Empty) continue;
                int x = t & 1 ? n - 1 - col : col, y = t & 2 ? n - 1 - row : row;
                if (t & 4) std::swap(x, y);
                image.setStone({x, y}, pos.at({col, row}));
            }
        std::string text = positionText(image);
        if (t == 0 || text < best) best = text;
    }
    return best;
}

// A capture game on 9x9, target 1: black surrounds the white stone at F5 (SGF fe) and takes it with move 7.
const std::string kCaptureMoves = ";B[ee];W[fe];B[ge];W[aa];B[fd];W[bb];B[ff]";
std::string captureGame(const std::string& re, const std::string& players = "PB[alice]PW[bob]") {
    return "(;FF[4]GM[1]SZ[9]KM[0]RU[capture:1]XT[1]" + players + (re.empty() ? "" : "RE[" + re + "]") +
           kCaptureMoves + ")\n";
}

}  // namespace

// ---- xq judge --game capturego --------------------------------------------------------------------------

TEST(CaptureGoCli, JudgeFindsACorrectGameCorrectAndAWrongResultWrong) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    TempFile sgf("games.sgf");
    // Three game trees one after another, as xq match appends them: the right result, the wrong winner,
    // and a resignation recorded for a game whose moves stop early (the rules cannot judge it).
    sgf.write(captureGame("B+C") + captureGame("W+C") +
              "(;FF[4]GM[1]SZ[9]RU[capture:1]XT[1]PB[alice]PW[bob]RE[W+R];B[ee];W[fe])\n");
    XqRun r = runXq("judge --game capturego " + quote(sgf.path));
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("game 1 (" + sgf.path +
                         ", line 1) alice vs bob: recorded B+C, the capture:1 komi 0 "
                         "rules say B+C black captured 1 stone (target 1)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("game 2 (" + sgf.path + ", line 2) alice vs bob: recorded W+C"), std::string::npos);
    EXPECT_NE(r.out.find("DIFFERS"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("3 games: 1 agree, 1 differ, 1 not decided by the rules, 0 cannot be replayed"),
              std::string::npos)
        << r.out;

    XqRun j = runXq("judge --game capturego --json " + quote(sgf.path));
    EXPECT_EQ(j.code, 0);
    json report = json::parse(j.out);
    ASSERT_EQ(report["games"].size(), 3u);
    EXPECT_EQ(report["games"][0]["status"], "agrees");
    EXPECT_EQ(report["games"][0]["result"], "B+C");
    EXPECT_EQ(report["games"][0]["moves"], 7);
    EXPECT_EQ(report["games"][0]["rules"], "capture:1 komi 0");
    EXPECT_EQ(report["games"][1]["status"], "differs");
    EXPECT_EQ(report["games"][1]["recorded"], "W+C");
    EXPECT_EQ(report["games"][2]["status"], "open");
    EXPECT_EQ(report["games"][2]["result"], "");
    EXPECT_EQ(report["agree"], 1);
    EXPECT_EQ(report["differ"], 1);
    EXPECT_EQ(report["open"], 1);
    EXPECT_EQ(report["errors"], 0);
}

TEST(CaptureGoCli, JudgeNamesAnOccupiedPointASuicideAndASuperkoWithTheirMoveNumbers) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    TempFile sgf("illegal.sgf");
    // 1: correct. 2: move 3 on black's own stone. 3: move 5 black A9 (SGF aa) between white A8 and B9,
    // capturing nothing. 4: Go rules, a ko set up around E5 (SGF ee); white takes at E5 with move 2, black
    // retakes at F5 with move 3, which repeats the position before move 2.
    sgf.write(captureGame("B+C") +
              "(;FF[4]GM[1]SZ[9]RU[capture:1]XT[1]PB[p]PW[q]RE[W+F];B[ee];W[dd];B[ee])\n"
              "(;FF[4]GM[1]SZ[9]RU[capture:1]XT[1]PB[p]PW[q];B[ee];W[ab];B[cc];W[ba];B[aa];W[gg])\n"
              "(;FF[4]GM[1]SZ[9]RU[Tromp-Taylor]KM[7.5]PB[p]PW[q]\n"
              "AB[ed][de][fe][ef]AW[fd][ge][ff];B[cc];W[ee];B[fe];W[gg])\n");
    XqRun r = runXq("judge --game capturego " + quote(sgf.path));
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.out.find("game 2 (" + sgf.path +
                         ", line 2) p vs q: recorded W+F, cannot be replayed: illegal "
                         "move 3 (black E5): E5 is occupied"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("illegal move 5 (black A9): A9 is suicide"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("illegal move 3 (black F5): F5 repeats an earlier position (superko)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("4 games: 1 agree, 0 differ, 0 not decided by the rules, 3 cannot be replayed"),
              std::string::npos)
        << r.out;

    XqRun j = runXq("judge --game capturego --json " + quote(sgf.path));
    EXPECT_EQ(j.code, 2);
    json report = json::parse(j.out);
    ASSERT_EQ(report["games"].size(), 4u);
    EXPECT_EQ(report["games"][0]["status"], "agrees");
    const std::array<std::pair<int, const char*>, 3> expected = {
        {{3, "black E5"}, {5, "black A9"}, {3, "black F5"}}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const json& g = report["games"][i + 1];
        EXPECT_EQ(g["status"], "error") << g;
        EXPECT_EQ(g["move_number"], expected[i].first) << g;
        EXPECT_EQ(g["move"], expected[i].second) << g;
        EXPECT_EQ(g["line"], int(i) + 2) << g;
    }
    EXPECT_EQ(report["errors"], 3);
}

TEST(CaptureGoCli, JudgeRefusesMalformedSgfAndMisusedOptionsSayingWhatIsWrong) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    TempFile bad("bad.sgf");
    bad.write(captureGame("B+C") + "(;FF[4]GM[1]SZ[9]\nPB[no closing bracket;B(ee)\n");
    XqRun r = runXq("judge --game capturego " + quote(bad.path));
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(bad.path + ": SGF line 3, column 3: unterminated value of property PB"),
              std::string::npos)
        << r.err;

    TempFile junk("junk.sgf");
    junk.write(captureGame("B+C") + "this is no game tree\n");
    r = runXq("judge --game capturego --json " + quote(junk.path));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(json::parse(r.out)["error"].get<std::string>().find(
                  "SGF line 2, column 1: unexpected 't' after game tree 1"),
              std::string::npos)
        << r.out;

    TempFile empty("empty.sgf");
    empty.write("no parentheses at all\n");
    r = runXq("judge --game capturego " + quote(empty.path));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("SGF: no game tree"), std::string::npos) << r.err;

    r = runXq("judge --game capturego /nonexistent/games.sgf");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("cannot read '/nonexistent/games.sgf'"), std::string::npos) << r.err;

    r = runXq("judge --game capturego");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("give the SGF files to judge"), std::string::npos) << r.err;

    r = runXq("judge --game capturego --moves e5 " + quote(bad.path));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--moves is not for --game capturego"), std::string::npos) << r.err;

    r = runXq("judge " + quote(bad.path));  // no --game: a file argument is for Capture Go only
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("only with --game capturego"), std::string::npos) << r.err;

    // A game whose root says it is no Go game: that game cannot be replayed, the others are judged.
    TempFile chess("chess.sgf");
    chess.write("(;GM[3]SZ[8];B[aa])\n" + captureGame("B+C"));
    r = runXq("judge --game capturego " + quote(chess.path));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("cannot be replayed: SGF GM[3]: not a game of Go (GM[1])"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("2 games: 1 agree"), std::string::npos) << r.out;
}

// ---- xq rate with SGF -----------------------------------------------------------------------------------

TEST(CaptureGoCli, RateOfAnSgfTournamentGivesTheRatingsOfTheSameGamesInPgn) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    // A round robin of three players with every kind of result; in PGN the first player (White) is the one
    // who moves first, black in Go.
    struct Played {
        const char* black;
        const char* white;
        const char* re;   // SGF
        const char* pgn;  // the same for the first player
    };
    const std::vector<Played> games = {
        {"ab", "mcts", "B+C", "1-0"},         {"mcts", "ab", "W+R", "0-1"},
        {"ab", "gnugo", "W+3.5", "0-1"},      {"gnugo", "ab", "B+T", "1-0"},
        {"mcts", "gnugo", "0", "1/2-1/2"},    {"gnugo", "mcts", "W+F", "0-1"},
        {"ab", "mcts", "B+C", "1-0"},         {"mcts", "ab", "B+C", "1-0"},
        {"ab", "gnugo", "B+R", "1-0"},        {"gnugo", "ab", "W+C", "0-1"},
        {"mcts", "gnugo", "Draw", "1/2-1/2"}, {"gnugo", "mcts", "B+0.5", "1-0"},
    };
    std::string sgf, pgn;
    for (const Played& g : games) {
        sgf += std::string("(;FF[4]GM[1]SZ[9]RU[capture:1]XT[1]PB[") + g.black + "]PW[" + g.white + "]RE[" +
               g.re + "];B[ee];W[dd])\n";
        pgn += std::string("[Event \"t\"]\n[White \"") + g.black + "\"]\n[Black \"" + g.white +
               "\"]\n[Result \"" + g.pgn + "\"]\n\n" + g.pgn + "\n\n";
    }
    // An unfinished game and one without players are skipped in both.
    sgf += "(;FF[4]GM[1]SZ[9]PB[ab]PW[mcts];B[ee])\n(;FF[4]GM[1]SZ[9]RE[B+C];B[ee])\n";
    TempFile sgfFile("tournament.sgf"), pgnFile("tournament.pgn"), bare("tournament-sgf-no-extension");
    sgfFile.write(sgf);
    pgnFile.write(pgn);
    bare.write(sgf);

    XqRun fromSgf = runXq("rate --json " + quote(sgfFile.path));
    XqRun fromPgn = runXq("rate --json " + quote(pgnFile.path));
    XqRun byContent = runXq("rate --json " + quote(bare.path));
    ASSERT_EQ(fromSgf.code, 0) << fromSgf.err;
    ASSERT_EQ(fromPgn.code, 0) << fromPgn.err;
    ASSERT_EQ(byContent.code, 0) << byContent.err;
    json a = json::parse(fromSgf.out), b = json::parse(fromPgn.out);
    ASSERT_EQ(a["players"].size(), 3u);
    EXPECT_EQ(a, b) << fromSgf.out << "\n" << fromPgn.out;
    EXPECT_EQ(json::parse(byContent.out), a);
    // Through a pipe, which can be read only once (as `xq rate <(zcat games.pgn.gz)`), by the content.
    XqRun sgfPipe = runShell("cat " + quote(sgfFile.path) + " | " + quote(kXq) + " rate --json /dev/stdin");
    XqRun pgnPipe = runShell("cat " + quote(pgnFile.path) + " | " + quote(kXq) + " rate --json /dev/stdin");
    ASSERT_EQ(sgfPipe.code, 0) << sgfPipe.err;
    ASSERT_EQ(pgnPipe.code, 0) << pgnPipe.err;
    EXPECT_EQ(json::parse(sgfPipe.out), a) << sgfPipe.out;
    EXPECT_EQ(json::parse(pgnPipe.out), a) << pgnPipe.out;
    EXPECT_EQ(a["players"][0]["games"], 8);
    EXPECT_NE(fromSgf.err.find("2 games without players or a result skipped"), std::string::npos)
        << fromSgf.err;

    XqRun text = runXq("rate " + quote(sgfFile.path));
    EXPECT_EQ(text.code, 0);
    EXPECT_NE(text.out.find("the first mover's (black's) advantage"), std::string::npos) << text.out;
}

TEST(CaptureGoCli, RateReadsAnUnnamedFileThatIsNoSgfOrReportAsPgnAndRefusesSgfItCannotParse) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    // Neither '(' nor a JSON object first: PGN, as before SGF was read (here a PGN of moves without tags,
    // whose game has no players).
    TempFile other("games.txt");
    other.write("{a comment first} 1. e4 e5 2. Nf3 *\n");
    XqRun r = runXq("rate " + quote(other.path));
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("no finished games to rate"), std::string::npos) << r.err;

    TempFile broken("broken.sgf");
    broken.write("(;FF[4]GM[1]PB[a]PW[b]RE[B+C];B[ee]\n");
    r = runXq("rate " + quote(broken.path));
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find(broken.path + ": SGF line 2, column 1: the SGF ends inside a game tree"),
              std::string::npos)
        << r.err;
}

// ---- xq openings --game capturego -----------------------------------------------------------------------

TEST(CaptureGoCli, OpeningsAreLegalUndecidedDistinctAndTheSameForTheSameSeed) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    TempFile file("openings.txt");
    XqRun r = runXq("openings --game capturego --size 9 --stones 3 --count 200 --seed 11 --out " +
                    quote(file.path));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = file.read();
    EXPECT_EQ(
        text.rfind("# xq openings --game capturego --size 9 --stones 3 --area 5 --rules capture --target 1 "
                   "--komi 0 --count 200 --seed 11",
                   0),
        0u)
        << text;
    const std::vector<std::string> lines = positionLines(text);
    ASSERT_EQ(lines.size(), 200u);
    std::set<std::string> seen;
    for (const std::string& line : lines) {
        Position pos = parsePositionText(line);  // throws if it is no position text
        EXPECT_EQ(positionText(pos), line);
        EXPECT_EQ(pos.size(), 9);
        EXPECT_EQ(pos.rules(), Rules::capture(1));
        EXPECT_EQ(pos.toMove(), Color::Black);
        EXPECT_EQ(pos.stoneCount(Color::Black), 3) << line;
        EXPECT_EQ(pos.stoneCount(Color::White), 3) << line;
        EXPECT_EQ(pos.validate(), "") << line;
        EXPECT_FALSE(judge(pos).isOver()) << line;
        for (int row = 0; row < 9; ++row)
            for (int col = 0; col < 9; ++col) {
                if (pos.at({col, row}) == Cell::Empty) continue;
                EXPECT_GE(pos.liberties({col, row}), 2) << line;  // no stone in atari: nothing won at once
                EXPECT_TRUE(col >= 2 && col <= 6 && row >= 2 && row <= 6) << line;  // the centre 5x5
            }
        EXPECT_TRUE(seen.insert(canonical(pos)).second) << "a repeat up to symmetry: " << line;
    }

    XqRun again = runXq("openings --game capturego --size 9 --stones 3 --count 200 --seed 11");
    EXPECT_EQ(again.code, 0);
    EXPECT_EQ(again.out, text);
    XqRun other = runXq("openings --game capturego --size 9 --stones 3 --count 200 --seed 12");
    EXPECT_NE(positionLines(other.out), lines);

    XqRun go =
        runXq("openings --game capturego --size 13 --rules go --komi 6.5 --stones 1 --count 5 --seed 3");
    ASSERT_EQ(go.code, 0) << go.err;
    for (const std::string& line : positionLines(go.out)) {
        Position pos = parsePositionText(line);
        EXPECT_EQ(pos.size(), 13);
        EXPECT_EQ(pos.rules(), Rules::go(6.5));
    }
}

TEST(CaptureGoCli, OpeningsRefuseBadOptionsNamingThem) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--size 4", "--size 4: boards are 5x5 to 19x19"},
        {"--stones 13", "26 stones do not fit on the 5x5 centre (raise --area)"},
        {"--area 11", "--area 11: larger than the 9x9 board"},
        {"--rules martian", "--rules 'martian': capture or go"},
        {"--komi 0.3", "--komi '0.3': a multiple of 0.5"},
        {"--rules go --target 3", "--target is for --rules capture"},
        {"--engine /bin/true", "--engine is not for --game capturego"},
        {"--plies 4", "--plies is not for --game capturego"},
        {"--size 5 --area 3 --count 1000", "only "},
    };
    for (const auto& [options, message] : cases) {
        XqRun r = runXq("openings --game capturego " + options);
        EXPECT_NE(r.code, 0) << options;
        EXPECT_NE(r.err.find(message), std::string::npos) << options << " said: " << r.err;
        EXPECT_EQ(positionLines(r.out).size(), 0u) << options;
    }
    XqRun r = runXq("openings --size 9");  // Xiangqi
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("--size is for --game capturego"), std::string::npos) << r.err;
}

TEST(CaptureGoCli, XqMatchPlaysGeneratedOpeningsWithXqGoAndJudgeAndRateReadItsSgf) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    XQ_REQUIRE_ORACLE(std::filesystem::exists(kXqGo), "xq-go not built");
    TempFile openings("match-openings.txt"), sgf("match.sgf"), report("match.json");
    XqRun made = runXq("openings --game capturego --size 9 --count 2 --seed 4 --out " + quote(openings.path));
    ASSERT_EQ(made.code, 0) << made.err;
    const std::vector<std::string> starts = positionLines(openings.read());
    ASSERT_EQ(starts.size(), 2u);

    XqRun match = runXq(
        "match --game capturego --openings file=" + quote(openings.path) +
        " --engine name=xqgo-a cmd=" + quote(kXqGo) + " proto=gtp 'args=--engine mcts --nodes 300 --seed 1'" +
        " --engine name=xqgo-b cmd=" + quote(kXqGo) + " proto=gtp 'args=--engine mcts --nodes 100 --seed 2'" +
        " --each nodes=1 --stall-timeout 60 --games 4 --concurrency 1 --pgnout " + quote(sgf.path) +
        " --json " + quote(report.path));
    ASSERT_EQ(match.code, 0) << match.out << match.err;

    // Every game starts from one of the openings: its stones are the SGF's setup.
    const std::vector<Game> games = readSgfCollection(sgf.read());
    ASSERT_EQ(games.size(), 4u);
    std::set<std::string> used;
    for (const Game& g : games) used.insert(positionText(g.start()));
    EXPECT_EQ(used, std::set<std::string>(starts.begin(), starts.end()));

    XqRun judged = runXq("judge --game capturego --json " + quote(sgf.path));
    EXPECT_EQ(judged.code, 0) << judged.out << judged.err;
    json j = json::parse(judged.out);
    EXPECT_EQ(j["games"].size(), 4u);
    EXPECT_EQ(j["differ"], 0) << judged.out;
    EXPECT_EQ(j["errors"], 0) << judged.out;
    EXPECT_EQ(j["agree"].get<int>() + j["open"].get<int>(), 4) << judged.out;
    EXPECT_GE(j["agree"].get<int>(), 1) << judged.out;  // MCTS plays on to the capture, resigning seldom
    for (const json& g : j["games"]) {
        if (g["status"] != "open")
            continue;  // only an event the moves cannot show: resignation, time, forfeit
        EXPECT_TRUE(g["recorded"] == "B+R" || g["recorded"] == "W+R" || g["recorded"] == "B+T" ||
                    g["recorded"] == "W+T" || g["recorded"] == "B+F" || g["recorded"] == "W+F")
            << g;
    }

    // The SGF rates as the match's own report counts.
    XqRun rated = runXq("rate --json " + quote(sgf.path));
    ASSERT_EQ(rated.code, 0) << rated.err;
    json ratings = json::parse(rated.out);
    json totals = json::parse(report.read());
    ASSERT_EQ(ratings["players"].size(), 2u);
    double scoreA = 0;
    for (const json& p : ratings["players"])
        if (p["name"] == "xqgo-a") scoreA = p["score"].get<double>();
    const auto wdl = totals["wdl"].get<std::array<int, 3>>();  // the first engine's wins, draws, losses
    EXPECT_EQ(totals["engines"][0], "xqgo-a");
    EXPECT_DOUBLE_EQ(scoreA, wdl[0] + 0.5 * wdl[1]);
}

TEST(CaptureGoCli, JudgeAgreesWithTheAreaScoresOfAGnuGoMatchUnderGoRulesAndNotWithAnotherMargin) {
    XQ_REQUIRE_ORACLE(haveXq(), "xq not built");
    const std::string gnugo = "/usr/games/gnugo";
    XQ_REQUIRE_ORACLE(std::filesystem::exists(gnugo), "GNU Go is not installed (" << gnugo << ")");
    TempFile sgf("gnugo.sgf");
    const std::string args =
        "args=--mode gtp --level 1 --chinese-rules --capture-all-dead --positional-superko";
    XqRun match =
        runXq("match --game capturego --board size=9 rules=go komi=7.5 --engine name=gnugo-a cmd=" + gnugo +
              " proto=gtp " + quote(args) + " --engine name=gnugo-b cmd=" + gnugo + " proto=gtp " +
              quote(args + " --seed 2") +
              " --each nodes=1 --stall-timeout 60 --games 2 --concurrency 1 --pgnout " + quote(sgf.path));
    ASSERT_EQ(match.code, 0) << match.out << match.err;
    XqRun judged = runXq("judge --game capturego --json " + quote(sgf.path));
    ASSERT_EQ(judged.code, 0) << judged.out << judged.err;
    json j = json::parse(judged.out);
    ASSERT_EQ(j["games"].size(), 2u);
    for (const json& g : j["games"]) {
        EXPECT_EQ(g["rules"], "go komi 7.5");
        EXPECT_EQ(g["status"], "agrees") << g;
        // Two passes decided it by area: a margin ending in .5 with komi 7.5, never a capture.
        const std::string re = g["recorded"];
        EXPECT_TRUE(re.size() > 2 && re.find(".5") != std::string::npos) << re;
    }

    // The same games with each margin one point off: the rules say otherwise.
    std::string text = sgf.read(), changed;
    for (std::size_t at = 0;;) {
        std::size_t re = text.find("RE[", at);
        changed += text.substr(at, re == std::string::npos ? std::string::npos : re + 5 - at);
        if (re == std::string::npos) break;
        std::size_t end = text.find(']', re);
        changed += std::to_string(std::stoi(text.substr(re + 5, end - re - 5)) + 1) + ".5";
        at = end;
    }
    TempFile wrong("gnugo-wrong.sgf");
    wrong.write(changed);
    XqRun differ = runXq("judge --game capturego " + quote(wrong.path));
    EXPECT_EQ(differ.code, 0);
    EXPECT_NE(differ.out.find("2 games: 0 agree, 2 differ"), std::string::npos) << differ.out;
}
