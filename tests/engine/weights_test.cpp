#include "weights.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace xq::eval;

namespace {

std::string shippedPath() {
    return std::string(XQ_SOURCE_DIR) + "/engine/weights/default.xqw";
}

}  // namespace

TEST(Weights, CompiledDefaultsEqualTheShippedFile) {
    Weights shipped = loadWeightsFile(shippedPath());
    for (int i = 0; i < WEIGHT_NB; ++i) {
        EXPECT_EQ(shipped[i].mg, defaultWeights()[i].mg) << weightName(i);
        EXPECT_EQ(shipped[i].eg, defaultWeights()[i].eg) << weightName(i);
    }
    // And the file is exactly what the writer produces, so regenerating it is a no-op.
    std::ifstream in(shippedPath());
    std::stringstream file, written;
    file << in.rdbuf();
    writeWeights(written, defaultWeights());
    EXPECT_EQ(file.str(), written.str());
}

TEST(Weights, RoundTripKeepsEveryValue) {
    Weights w;
    for (int i = 0; i < WEIGHT_NB; ++i) w[i] = {i * 7 - 1000, 500 - i * 3};
    std::stringstream s;
    writeWeights(s, w);
    EXPECT_EQ(readWeights(s), w);
}

TEST(Weights, NamesAreUniqueAndResolve) {
    for (int i = 0; i < WEIGHT_NB; ++i) EXPECT_EQ(weightIndex(weightName(i)), i) << weightName(i);
    EXPECT_EQ(weightIndex("Material.Rook"), W_MATERIAL + 3);
    EXPECT_EQ(weightIndex("Pst.Pawn.e5"), W_PST + 6 * PST_SIZE + 5 * PST_FILES + 4);
    EXPECT_EQ(weightIndex("NoSuchWeight"), -1);
}

namespace {

std::string errorOf(const std::string& text) {
    std::istringstream in(text);
    try {
        readWeights(in);
    } catch (const WeightsError& e) {
        return e.what();
    }
    return "";
}

std::string validFile() {
    std::stringstream s;
    writeWeights(s, defaultWeights());
    return s.str();
}

}  // namespace

TEST(Weights, BadFilesAreRejectedWithTheLine) {
    EXPECT_NE(errorOf("").find("empty"), std::string::npos);
    EXPECT_NE(errorOf("xq-weights 99\n").find("unsupported weights file version 99"), std::string::npos);
    EXPECT_NE(errorOf("hello\n").find("line 1"), std::string::npos);
    std::string text = validFile();
    EXPECT_NE(errorOf(text + "Bogus 1 2\n").find("unknown weight 'Bogus'"), std::string::npos);
    EXPECT_NE(errorOf(text + "Tempo 1 2\n").find("appears twice"), std::string::npos);
    std::string noTempo = text.substr(0, text.find("Tempo"));
    EXPECT_NE(errorOf(noTempo).find("lacks weight 'Tempo'"), std::string::npos);
    std::string badNumber = text;
    badNumber.replace(badNumber.find("Tempo"), std::string::npos, "Tempo 1x 2\n");
    EXPECT_NE(errorOf(badNumber).find("bad middlegame value '1x'"), std::string::npos);
    EXPECT_THROW(loadWeightsFile("/nonexistent/weights.xqw"), WeightsError);
}
