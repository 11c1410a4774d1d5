#include "dataset.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "xiangqi/position.h"

namespace xq::tuner {
namespace dataset_test {

const std::string Mid = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1";

std::string tempPath(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("xq_tuner_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
}

std::string errorOf(const std::string& path) {
    try {
        readDataFile(path);
    } catch (const DataError& e) {
        return e.what();
    }
    return "";
}

TEST(DatasetTest, ParsesEveryResultSpelling) {
    EXPECT_EQ(parseResult("1.0"), 1.0f);
    EXPECT_EQ(parseResult("1"), 1.0f);
    EXPECT_EQ(parseResult("0.5"), 0.5f);
    EXPECT_EQ(parseResult(" 0.0 "), 0.0f);
    EXPECT_EQ(parseResult("1-0"), 1.0f);
    EXPECT_EQ(parseResult("0-1"), 0.0f);
    EXPECT_EQ(parseResult("1/2-1/2"), 0.5f);
    EXPECT_NEAR(*parseResult("0.25"), 0.25f, 1e-6);
    EXPECT_FALSE(parseResult("2"));
    EXPECT_FALSE(parseResult("-0.5"));
    EXPECT_FALSE(parseResult("win"));
    EXPECT_FALSE(parseResult(""));
    EXPECT_FALSE(parseResult("0.5x"));
    EXPECT_FALSE(parseResult("nan"));
}

TEST(DatasetTest, AResultIsWrittenSoItReadsBackAsTheSameFloat) {
    // Found by fuzz_datagen_chunk: 0.45555555 was written as 0.456 and a re-encoded chunk changed.
    for (float r : {0.45555555f, 0.0004f, 1e-30f, 0.1f, 0.333333343f, 0.999999f, 0.25f, 0.5f, 1.0f, 0.0f}) {
        auto back = parseResult(formatResult(r));
        ASSERT_TRUE(back) << formatResult(r);
        EXPECT_EQ(*back, r) << formatResult(r);
    }
    EXPECT_EQ(formatResult(1.0f), "1.0");
    EXPECT_EQ(formatResult(0.5f), "0.5");
    EXPECT_EQ(formatResult(0.25f), "0.25");
}

TEST(DatasetTest, ReadsLinesSkippingCommentsAndBlanks) {
    std::string path = tempPath("plain.txt");
    writeText(path, "# a comment\n\n" + std::string(Position::StartFEN) + " ; 1-0\r\n" + Mid + ";0.5\n" +
                        Mid + " ; 0-1");  // no final newline
    auto ps = readDataFile(path);
    ASSERT_EQ(ps.size(), 3u);
    EXPECT_EQ(ps[0].fen, Position::StartFEN);
    EXPECT_EQ(ps[0].result, 1.0f);
    EXPECT_EQ(ps[1].fen, Mid);
    EXPECT_EQ(ps[1].result, 0.5f);
    EXPECT_EQ(ps[2].result, 0.0f);
}

TEST(DatasetTest, ErrorsNameFileLineAndReason) {
    std::string path = tempPath("bad.txt");
    writeText(path, std::string(Position::StartFEN) + " ; 1.0\n" + Mid + " ; 3\n");
    std::string e = errorOf(path);
    EXPECT_NE(e.find(path + ":2:"), std::string::npos) << e;
    EXPECT_NE(e.find("bad result '3'"), std::string::npos) << e;

    writeText(path, "\n" + std::string(Position::StartFEN) + "\n");
    e = errorOf(path);
    EXPECT_NE(e.find(path + ":2:"), std::string::npos) << e;
    EXPECT_NE(e.find("no ';'"), std::string::npos) << e;

    writeText(path, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1 ; 0.5\n");
    e = errorOf(path);
    EXPECT_NE(e.find(path + ":1:"), std::string::npos) << e;
    EXPECT_NE(e.find("bad FEN"), std::string::npos) << e;

    writeText(path, " ; 0.5\n");
    EXPECT_NE(errorOf(path).find("no FEN"), std::string::npos);

    // Eight ranks: a chess FEN, judged by the chess rules.
    writeText(path,
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; 1-0\n"
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1 ; 0.5\n");
    e = errorOf(path);
    EXPECT_NE(e.find(path + ":2: bad chess FEN"), std::string::npos) << e;

    EXPECT_NE(errorOf(tempPath("missing.txt")).find("cannot open"), std::string::npos);
}

TEST(DatasetTest, ACaptureGoPositionTextStandsForTheFenAndABadOneIsNamed) {
    LabeledPosition p;
    ASSERT_TRUE(parseDataLine("5/1O3/2X2/5/5 b 0 0 0 capture:1 0 ; 1.0", p));
    EXPECT_EQ(p.fen, "5/1O3/2X2/5/5 b 0 0 0 capture:1 0");
    EXPECT_EQ(p.result, 1.0f);
    EXPECT_TRUE(isCaptureGoText(p.fen));
    EXPECT_FALSE(isCaptureGoText(xq::Position::StartFEN));
    EXPECT_NE(positionKey(p.fen), positionKey("5/1O3/2X2/5/5 w 0 0 0 capture:1 0"))
        << "the side to move counts";
    ASSERT_TRUE(parseDataLine("5/5/2X2/5/5 w 0 0 0 go 7.5 ; 0-1", p));
    try {
        parseDataLine("5/1O3/2X2/5/4Z w 0 0 0 capture:1 0 ; 1.0", p);
        FAIL() << "a bad stone was read";
    } catch (const DataError& e) {
        EXPECT_NE(std::string(e.what()).find("bad Capture Go position"), std::string::npos) << e.what();
    }
}

TEST(DatasetTest, AReaderThatNeedsTheBoardGetsThePositionTheLineWasCheckedAs) {
    const std::string fen = "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 3 9";
    LabeledPosition p;
    xq::Position pos;  // the start position until a line sets it
    ASSERT_TRUE(parseDataLine(fen + " ; 0.5 ; -20", p, &pos));
    EXPECT_EQ(pos.fen(), fen);
    EXPECT_EQ(pos.key(), xq::Position(fen).key());
    EXPECT_EQ(p.fen, fen);
    EXPECT_EQ(p.score, -20);
    // A chess line or a comment leaves it alone; a bad Xiangqi FEN is the same error as without it.
    ASSERT_TRUE(parseDataLine("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; 1-0", p, &pos));
    EXPECT_FALSE(parseDataLine("# comment", p, &pos));
    EXPECT_EQ(pos.fen(), fen);
    EXPECT_THROW(parseDataLine("rnbakabnr/9/9/9/9/9/9/9/9 w - - 0 1 ; 1-0", p, &pos), DataError);
}

TEST(DatasetTest, ASearchScoreIsAnOptionalThirdField) {
    LabeledPosition p;
    ASSERT_TRUE(parseDataLine(Mid + " ; 0.5 ; -37", p));
    EXPECT_EQ(p.fen, Mid);
    EXPECT_EQ(p.result, 0.5f);
    ASSERT_TRUE(p.score);
    EXPECT_EQ(*p.score, -37);
    EXPECT_EQ(formatDataLine(p), Mid + " ; 0.5 ; -37");
    ASSERT_TRUE(parseDataLine(Mid + " ; 1-0", p));
    EXPECT_FALSE(p.score) << "a line without a score leaves none from the line before";
    EXPECT_EQ(formatDataLine(p), Mid + " ; 1.0");

    std::string path = tempPath("scores.txt");
    for (const char* bad :
         {" ; 0.5 ; ", " ; 0.5 ; 12cp", " ; 0.5 ; 30001", " ; 0.5 ; 1 ; 2", " ; 0.5 ; 1.5"}) {
        writeText(path, Mid + bad + "\n");
        std::string e = errorOf(path);
        EXPECT_NE(e.find(path + ":1: bad score"), std::string::npos) << bad << ": " << e;
    }
    writeText(path, Mid + " ; 0.0 ; -30000\n" + Mid + " ; 1.0 ; 412\n");
    auto ps = readDataFile(path);
    ASSERT_EQ(ps.size(), 2u);
    EXPECT_EQ(ps[0].score, -30000);
    EXPECT_EQ(ps[1].score, 412);
}

TEST(DatasetTest, GzipRoundTripAndTransparentRead) {
    std::string gz = tempPath("data.txt.gz");
    {
        DataWriter w(gz);
        w.write({Position::StartFEN, 1.0f});
        w.write({Mid, 0.5f});
        w.write({Mid, 0.25f});
        w.close();
        EXPECT_EQ(w.count(), 3);
    }
    // Really compressed: the gzip magic number.
    std::ifstream raw(gz, std::ios::binary);
    unsigned char magic[2] = {0, 0};
    raw.read(reinterpret_cast<char*>(magic), 2);
    EXPECT_EQ(magic[0], 0x1f);
    EXPECT_EQ(magic[1], 0x8b);

    auto ps = readDataFile(gz);
    ASSERT_EQ(ps.size(), 3u);
    EXPECT_EQ(ps[1].fen, Mid);
    EXPECT_EQ(ps[2].result, 0.25f);

    // Appending to a gzip file adds a member; readers see one stream of lines.
    {
        DataWriter w(gz, true);
        w.write({Position::StartFEN, 0.0f});
    }
    EXPECT_EQ(readDataFile(gz).size(), 4u);
}

TEST(DatasetTest, CorruptGzipIsAnError) {
    std::string gz = tempPath("corrupt.gz");
    {
        DataWriter w(gz);
        for (int i = 0; i < 2000; ++i) w.write({Mid, 0.5f});
    }
    // Truncate the compressed stream in the middle.
    auto size = std::filesystem::file_size(gz);
    std::filesystem::resize_file(gz, size / 2);
    std::string e = errorOf(gz);
    EXPECT_NE(e.find(gz + ":"), std::string::npos) << e;
}

TEST(DatasetTest, PlainWriterFormat) {
    std::string path = tempPath("out.txt");
    {
        DataWriter w(path);
        w.write({Mid, 0.0f});
    }
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, Mid + " ; 0.0");
    EXPECT_THROW(DataWriter("/nonexistent-dir/x.txt"), DataError);
}

}  // namespace dataset_test
}  // namespace xq::tuner
