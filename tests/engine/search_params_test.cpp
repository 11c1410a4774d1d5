// The search's tunable constants (engine/search_params.h): their defaults, the options file that loads
// them, and the generated source of the compiled-in values.
#include "search_params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

using namespace xq::search;

namespace {

std::string tempFile(const std::string& name, const std::string& text) {
    std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

struct ResetAfter {
    ~ResetAfter() { resetParams(); }
};

}  // namespace

TEST(SearchParams, EveryParameterHasACompiledInDefaultWithinItsRange) {
    std::set<std::string> names;
    EXPECT_EQ(std::size_t(DefaultValueCount), paramInfos().size());
    for (const auto& p : paramInfos()) {
        EXPECT_TRUE(names.insert(p.name).second) << p.name << " twice";
        bool found = false;
        for (int i = 0; i < DefaultValueCount; ++i) found |= std::string(DefaultValues[i].name) == p.name;
        EXPECT_TRUE(found) << p.name << " has no compiled-in value";
        EXPECT_GE(defaultParam(p), p.min) << p.name;
        EXPECT_LE(defaultParam(p), p.max) << p.name;
        EXPECT_GT(p.cEnd, 0) << p.name;
        EXPECT_GT(p.rEnd, 0) << p.name;
    }
}

TEST(SearchParams, TheCompiledInSourceIsWhatTuneSourceWrites) {
    resetParams();
    std::ifstream in(std::string(XQ_SOURCE_DIR) + "/engine/search_params_default.cpp");
    std::stringstream file;
    file << in.rdbuf();
    EXPECT_EQ(paramsSource(), file.str());
}

TEST(SearchParams, TheListingReadsBackAsAnOptionsFile) {
    ResetAfter reset;
    resetParams();
    const int compiledIn = Params.lmrBase;
    ASSERT_NE(compiledIn, 231);
    ASSERT_TRUE(setParam("LmrBase", "231", nullptr));
    ASSERT_TRUE(setParam("NmpBase", "77", nullptr));
    std::string path = tempFile("xq_params_listing.txt", tuneListing());
    resetParams();
    EXPECT_EQ(Params.lmrBase, compiledIn);
    std::string why;
    ASSERT_TRUE(loadParamsFile(path, &why)) << why;
    EXPECT_EQ(Params.lmrBase, 231);
    EXPECT_EQ(Params.nmpBase, 77);
    // The reduction table follows its parameter.
    EXPECT_EQ(Reductions[10], int(23.1 * std::log(10.0)));
    std::remove(path.c_str());
}

TEST(SearchParams, AFileWithABadLineChangesNothingAndSaysWhere) {
    ResetAfter reset;
    resetParams();
    const int compiledIn = Params.rfpMargin;
    ASSERT_NE(compiledIn, 131);
    std::string path =
        tempFile("xq_params_bad.txt", "# tuned\nRfpMargin=131\n\nLmrBase,999,100,300,10,0.002\n");
    std::string why;
    EXPECT_FALSE(loadParamsFile(path, &why));
    EXPECT_NE(why.find("xq_params_bad.txt:4: LmrBase: value 999 is outside 100..300"), std::string::npos)
        << why;
    EXPECT_EQ(Params.rfpMargin, compiledIn) << "the good line before the bad one is undone";
    std::ofstream(path) << "NoSuchParam=3\n";
    EXPECT_FALSE(loadParamsFile(path, &why));
    EXPECT_NE(why.find(":1: no search parameter 'NoSuchParam'"), std::string::npos) << why;
    std::ofstream(path) << "LmrBase\n";
    EXPECT_FALSE(loadParamsFile(path, &why));
    EXPECT_NE(why.find("expected name,value or name=value"), std::string::npos) << why;
    EXPECT_FALSE(setParam("LmrBase", "2x", &why));
    EXPECT_NE(why.find("is not a whole number"), std::string::npos) << why;
    std::remove(path.c_str());
}
