// The one reader of Capture Go's board settings (games/capturego_settings.h), shared by xq match --board,
// xq submit --board, the coordinator and the worker.
#include "capturego_settings.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "board.h"

using xq::games::captureGoOpeningText;
using xq::games::CaptureGoSettings;
using xq::games::captureGoSettingsText;
using xq::games::captureGoStartText;
using xq::games::parseCaptureGoSettings;

namespace {

// The message of the std::invalid_argument that parsing `text` throws ("" when it does not throw).
std::string errorOf(const std::string& text) {
    try {
        parseCaptureGoSettings(text, "--board");
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(CaptureGoSettings, CommaSeparatedAndSeparateTokensReadTheSame) {
    const CaptureGoSettings commas = parseCaptureGoSettings("size=5,rules=go,komi=0.5");
    const CaptureGoSettings tokens =
        parseCaptureGoSettings(std::vector<std::string>{"size=5", "rules=go", "komi=0.5"});
    EXPECT_EQ(commas, tokens);
    EXPECT_EQ(commas.size, 5);
    EXPECT_EQ(commas.rules, "go");
    EXPECT_FALSE(commas.target);
    EXPECT_EQ(commas.komi, 0.5);
}

TEST(CaptureGoSettings, AnEmptyTextIsTheDefaultNineByNineCaptureBoard) {
    const CaptureGoSettings s = parseCaptureGoSettings("");
    EXPECT_EQ(s, CaptureGoSettings{});
    EXPECT_EQ(captureGoSettingsText(s), "size=9,rules=capture,target=1,komi=0");
    EXPECT_EQ(captureGoStartText(s), "9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0");
}

TEST(CaptureGoSettings, TheCanonicalTextWritesEverySettingAndReadsBackTheSameBoard) {
    EXPECT_EQ(captureGoSettingsText(parseCaptureGoSettings("rules=go,size=5,komi=0.5")),
              "size=5,rules=go,komi=0.5");
    EXPECT_EQ(captureGoSettingsText(parseCaptureGoSettings("rules=go")), "size=9,rules=go,komi=7.5");
    EXPECT_EQ(captureGoSettingsText(parseCaptureGoSettings("target=3,size=7")),
              "size=7,rules=capture,target=3,komi=0");
    for (const char* text : {"size=5,rules=go,komi=0.5", "size=19,rules=capture,target=5,komi=-3"}) {
        const CaptureGoSettings s = parseCaptureGoSettings(text);
        EXPECT_EQ(captureGoStartText(parseCaptureGoSettings(captureGoSettingsText(s))), captureGoStartText(s))
            << text;
    }
    EXPECT_EQ(captureGoStartText(parseCaptureGoSettings("size=5,rules=go,komi=0.5")),
              "5/5/5/5/5 b 0 0 0 go 0.5");
}

TEST(CaptureGoSettings, BadSettingsAreRefusedNamingTheFlagAndWhatIsWrong) {
    struct Case {
        std::string text, message;
    };
    const std::vector<Case> cases = {
        {"size=4", "--board: size must be a whole number from 5 to 19, got '4'"},
        {"size=20", "--board: size must be a whole number from 5 to 19, got '20'"},
        {"size=nine", "size must be a whole number"},
        {"colour=black", "--board: unknown setting 'colour' (expected size, rules, target, komi)"},
        {"size5", "--board: expected key=value, got 'size5'"},
        {"size=5,,komi=0.5", "--board: an empty setting"},
        {"=5", "expected key=value"},
        {"rules=japanese", "unknown Capture Go rule set 'japanese' (capture or go)"},
        {"rules=go,target=3", "a capture target belongs to the capture rule set, not to go"},
        {"target=0", "target must be a whole number from 1"},
        {"komi=0.3", "--board: komi must be a multiple of 0.5"},
        {"komi=half", "komi must be a multiple of 0.5"},
    };
    for (const Case& c : cases) {
        const std::string error = errorOf(c.text);
        EXPECT_NE(error.find(c.message), std::string::npos) << c.text << ": " << error;
    }
    try {
        parseCaptureGoSettings("size=3", "board");
        FAIL() << "size=3 was read";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind("board: size", 0), 0u) << e.what();
    }
}

TEST(CaptureGoSettings, AnOpeningTakesTheBoardsRulesAndKomiAndMustBeOfItsSize) {
    const CaptureGoSettings go = parseCaptureGoSettings("size=5,rules=go,komi=0.5");
    EXPECT_EQ(captureGoOpeningText(go, "5/1O3/2X2/5/5 b 0 0 0 capture:1 0"), "5/1O3/2X2/5/5 b 0 0 0 go 0.5");
    EXPECT_EQ(captureGoOpeningText(parseCaptureGoSettings("size=5,target=2"), "5/1O3/2X2/5/5 w 0 0 0 go 7.5"),
              "5/1O3/2X2/5/5 w 0 0 0 capture:2 0");
    try {
        captureGoOpeningText(go, "9/9/9/9/9/9/9/9/9 b 0 0 0 capture:1 0");
        FAIL() << "a 9x9 opening was taken for a 5x5 board";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("the opening is a 9x9 board, the test's board is 5x5"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(captureGoOpeningText(go, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
                 std::invalid_argument);
}

TEST(CaptureGoSettings, AnOpeningTheTestsRulesHaveDecidedAlreadyIsRefused) {
    // Black has captured a stone: nothing under Go, the game's end under capture target 1.
    const std::string captured = "5/1O3/2X2/5/5 w 1 0 0 go 0.5";
    EXPECT_EQ(captureGoOpeningText(parseCaptureGoSettings("size=5,rules=go,komi=0.5"), captured), captured);
    EXPECT_EQ(captureGoOpeningText(parseCaptureGoSettings("size=5,target=2"), captured),
              "5/1O3/2X2/5/5 w 1 0 0 capture:2 0");
    try {
        captureGoOpeningText(parseCaptureGoSettings("size=5,target=1"), captured);
        FAIL() << "an opening already won under capture target 1 was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "the opening is decided under the test's rules already (black captured 1"),
                  std::string::npos)
            << e.what();
    }
}

// A board string may come over the network: an error shows at most 100 characters of what was wrong.
TEST(CaptureGoSettings, AHugeBadValueIsShownCutShort) {
    for (const std::string& text :
         {"size=" + std::string(100000, '9'), "colour" + std::string(100000, 'x') + "=1",
          std::string(100000, 'k'), "komi=" + std::string(100000, '1')}) {
        const std::string error = errorOf(text);
        EXPECT_FALSE(error.empty());
        EXPECT_LT(error.size(), 300u) << error.substr(0, 300);
        EXPECT_NE(error.find("...'"), std::string::npos) << error.substr(0, 300);
    }
}
