// The coordinator's check of a network file (coordinator/common/net_file.h), which a client makes before it
// uploads one and the coordinator before a test names one: the engine's own reader, on files the engine
// writes (`xq-engine nnue random`), so that the cluster takes exactly the networks the engine loads.
#include "net_file.h"

#include <gtest/gtest.h>

#include <cstring>

#include "cluster.h"
#include "nnue_network.h"

using namespace xq::coord;
using namespace xq::coord::testing;

namespace {

struct NetFile : ::testing::Test {
    TempDir dir;
    std::string good, bytes;
    void SetUp() override {
        good = dir.file("good.nnue");
        auto r = runCommand({bin("xq-engine"), "nnue", "random", good, "16", "3"}, dir.path);
        ASSERT_EQ(r.code, 0) << r.err;
        bytes = readFileOrEmpty(good);
        ASSERT_GT(bytes.size(), 112u);
    }
    // The problem networkFileProblem finds in `content` written to a file.
    std::string problemOf(const std::string& content) {
        const std::string path = dir.file("changed.nnue");
        writeFile(path, content);
        return networkFileProblem(path);
    }
    std::string withScale(std::int32_t scale, bool rehash) {
        std::string b = bytes;
        std::memcpy(b.data() + 36, &scale, 4);
        if (rehash) {
            const std::uint64_t h = xq::nnue::fileHash(b, xq::nnue::FILE_VERSION);
            std::memcpy(b.data() + 40, &h, 8);
        }
        return b;
    }
};

TEST_F(NetFile, AcceptsTheEnginesNetworkAndReadsItsHeader) {
    NetHeader header;
    EXPECT_EQ(networkFileProblem(good, &header), "");
    EXPECT_EQ(header.hidden, 16u);
    EXPECT_EQ(header.description, "random network H=16 seed=3");
    EXPECT_EQ(networkFileProblem(dir.file("missing.nnue")), "cannot be read");
}

TEST_F(NetFile, AChangedScaleIsRefusedAsAHashMismatch) {
    for (std::int32_t scale : {401, 200, 1}) {
        const std::string problem = problemOf(withScale(scale, false));
        EXPECT_NE(problem.find("hash mismatch"), std::string::npos) << scale << ": " << problem;
    }
}

TEST_F(NetFile, AnOutOfRangeScaleInACorrectlyHashedFileIsRefusedWithTheReason) {
    EXPECT_EQ(problemOf(withScale(401, true)), "");
    EXPECT_EQ(problemOf(withScale(0, true)), "SCALE = 0 is not in 1..100000");
    EXPECT_EQ(problemOf(withScale(100001, true)), "SCALE = 100001 is not in 1..100000");
}

// Version 1 (payload hash only): the shipped network is one.
TEST_F(NetFile, AVersionOneNetworkStillPasses) {
    NetHeader header;
    EXPECT_EQ(networkFileProblem(std::string(XQ_SOURCE_DIR) + "/engine/nets/xq-f62c1752bf61.nnue", &header),
              "");
    EXPECT_EQ(header.hidden, 128u);
}

// What only the engine's reader checked before: a network whose integers could overflow the inference.
TEST_F(NetFile, AWellFormedNetworkThatWouldOverflowIsRefused) {
    xq::nnue::Network wide = xq::nnue::Network::zero(2048);
    for (auto& w : wide.w2) w = 127;  // QA * QA * 4096 * 127 > 2^31
    const std::string problem = problemOf(xq::nnue::serializeNetwork(wide));
    EXPECT_NE(problem.find("output weights too large"), std::string::npos) << problem;
}

}  // namespace
