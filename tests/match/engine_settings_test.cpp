// The one reader of engine and SPRT settings (match/engine_settings.h), which `xq match`, `xq submit` and
// `xq regress` share (tests/coordinator/submission_test.cpp has submit's side).
#include "engine_settings.h"

#include <gtest/gtest.h>

namespace engine_settings_test {

using xq::match::applyEngineSettings;
using xq::match::EngineSettings;
using xq::match::parseSprtSettings;

namespace {

std::string errorOf(const std::vector<std::string>& tokens) {
    EngineSettings s;
    try {
        applyEngineSettings(s, tokens, "--each");
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(EngineSettings, ALaterValueOfAKeyReplacesAnEarlierOne) {
    EngineSettings s;
    applyEngineSettings(s, {"tc=10+0.1", "option.Hash=16", "nodes=5000"}, "--each");
    applyEngineSettings(s, {"tc=5+0.05 option.Hash=64"}, "--engine");
    EXPECT_EQ(s.timeSpec(), "tc=5+0.05 nodes=5000");
    ASSERT_EQ(s.options.size(), 1u);
    EXPECT_EQ(s.options[0], std::make_pair(std::string("Hash"), std::string("64")));
}

TEST(EngineSettings, OptionsAndArgumentsWithSpacesAreTakenWhole) {
    EngineSettings s;
    applyEngineSettings(s, {"option.Skill Level=10", "args=--threads 2", "name=dev proto=ucci"}, "--engine");
    ASSERT_EQ(s.options.size(), 1u);
    EXPECT_EQ(s.options[0].first, "Skill Level");
    EXPECT_EQ(s.options[0].second, "10");
    ASSERT_TRUE(s.args);
    EXPECT_EQ(*s.args, (std::vector<std::string>{"--threads", "2"}));
    EXPECT_EQ(s.name, "dev");
    EXPECT_EQ(s.protocol, "ucci");
}

TEST(EngineSettings, BadSettingsNameWhatIsWrong) {
    EXPECT_NE(errorOf({"bogus=2"}).find("unknown setting 'bogus'"), std::string::npos);
    EXPECT_NE(errorOf({"tc"}).find("expected key=value, got 'tc'"), std::string::npos);
    EXPECT_NE(errorOf({"proto=xboard"}).find("proto must be uci, ucci, fairy or gtp"), std::string::npos);
    EngineSettings s;
    try {
        applyEngineSettings(s, {"cmd=/bin/engine"}, "--dev-option", {"name", "args", "proto"});
        FAIL() << "cmd= is refused where the engine is a submitted file";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("--dev-option: unknown setting 'cmd'"), std::string::npos);
    }
}

TEST(SprtSettings, CommasAndSeparateTokensReadTheSame) {
    auto a = parseSprtSettings({"elo0=0,elo1=5,alpha=0.1,model=logistic"});
    auto b = parseSprtSettings({"elo0=0", "elo1=5", "alpha=0.1", "model=logistic"});
    for (const auto& s : {a, b}) {
        EXPECT_EQ(s.elo0, 0);
        EXPECT_EQ(s.elo1, 5);
        EXPECT_EQ(s.alpha, 0.1);
        EXPECT_EQ(s.beta, 0.05);
        EXPECT_EQ(s.model, xq::stats::EloModel::Logistic);
    }
    EXPECT_THROW(parseSprtSettings({"elo0=0"}), std::invalid_argument);
    EXPECT_THROW(parseSprtSettings({"elo0=0,elo1=x"}), std::invalid_argument);
    EXPECT_THROW(parseSprtSettings({"elo0=0,elo1=5,model=bayes"}), std::invalid_argument);
    EXPECT_THROW(parseSprtSettings({"elo0=0,elo1=5,gamma=1"}), std::invalid_argument);
}

TEST(SprtSettings, PresetsGiveFishtestsGainerAndNonRegressionBoundsAndLaterKeysOverrideThem) {
    auto gainer = parseSprtSettings({"gainer"});
    EXPECT_EQ(gainer.elo0, 0);
    EXPECT_EQ(gainer.elo1, 2);
    EXPECT_EQ(gainer.model, xq::stats::EloModel::Normalized);
    auto nonRegression = parseSprtSettings({"non-regression"});
    EXPECT_EQ(nonRegression.elo0, -1.75);
    EXPECT_EQ(nonRegression.elo1, 0.25);
    EXPECT_EQ(nonRegression.model, xq::stats::EloModel::Normalized);
    auto tuned = parseSprtSettings({"non-regression,alpha=0.1,elo0=-3"});
    EXPECT_EQ(tuned.elo0, -3);
    EXPECT_EQ(tuned.elo1, 0.25);
    EXPECT_EQ(tuned.alpha, 0.1);
    try {
        parseSprtSettings({"nonreg"});
        FAIL() << "an unknown preset is refused";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("got 'nonreg'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("non-regression"), std::string::npos) << e.what();
    }
}

}  // namespace engine_settings_test
