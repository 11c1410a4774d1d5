// The worker's command line for xq-tuner on a training lease (worker/training_runner.h): the window's chunk
// files in the spec's order, the fixed options, --init only for a warm start, and the recipe's settings.
#include "training_runner.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace v1 = xq::v1;

namespace {

std::ptrdiff_t indexOf(const std::vector<std::string>& argv, const std::string& arg) {
    auto it = std::find(argv.begin(), argv.end(), arg);
    return it == argv.end() ? -1 : it - argv.begin();
}

}  // namespace

TEST(TrainingRunner, TheTrainerGetsTheChunksInTheSpecsOrderThenItsOptionsAndTheRecipe) {
    v1::TrainingJob job;
    (*job.mutable_spec()->mutable_recipe())["lr"] = "0.0005";
    (*job.mutable_spec()->mutable_recipe())["epochs"] = "3";
    const std::vector<std::string> chunks = {"/c/b.txt.gz", "/c/a.txt.gz", "/c/c.txt.gz"};
    auto argv =
        xq::worker::trainerArguments(job, {"/bin/xq-tuner", 2}, chunks, "", "/w/checkpoint", "/w/out");
    ASSERT_GE(argv.size(), 5u);
    EXPECT_EQ(argv[0], "/bin/xq-tuner");
    EXPECT_EQ(argv[1], "nnue");
    EXPECT_EQ(std::vector<std::string>(argv.begin() + 2, argv.begin() + 5), chunks);
    for (auto [option, value] :
         std::vector<std::pair<std::string, std::string>>{{"--out", "/w/out"},
                                                          {"--checkpoint", "/w/checkpoint"},
                                                          {"--threads", "2"},
                                                          {"--validation-split", "tail"},
                                                          {"--epochs", "3"},
                                                          {"--lr", "0.0005"}}) {
        auto at = indexOf(argv, option);
        ASSERT_GE(at, 0) << option;
        EXPECT_EQ(argv[std::size_t(at) + 1], value) << option;
    }
    EXPECT_GE(indexOf(argv, "--json"), 0);
    EXPECT_GE(indexOf(argv, "--dedup"), 0);
    EXPECT_EQ(indexOf(argv, "--init"), -1);                       // random weights
    EXPECT_LT(indexOf(argv, "--epochs"), indexOf(argv, "--lr"));  // sorted: the same job, the same line

    argv = xq::worker::trainerArguments(job, {"/bin/xq-tuner", 0}, chunks, "/cache/best", "/w/ck", "/w/out");
    auto init = indexOf(argv, "--init");
    ASSERT_GE(init, 0);
    EXPECT_EQ(argv[std::size_t(init) + 1], "/cache/best");
    EXPECT_EQ(argv[std::size_t(indexOf(argv, "--threads")) + 1], "1");
}
