// The worker's builds of engines given as source: cached by key, stopped at their time limit, refused
// when they leave no executable, and evicted least recently used first past the cache's size.
#include "source_build.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "process.h"
#include "test_util.h"
#include "util/sha256.h"

using namespace xq::coord::testing;
using xq::worker::BuildError;
using xq::worker::BuildLimits;
using xq::worker::SourceBuilder;
namespace fs = std::filesystem;

namespace {

// A tar.gz of one shell script `make.sh` with the given body; returns its path.
std::string sourceArchive(const TempDir& dir, const std::string& name, const std::string& script) {
    std::string tree = dir.file(name + "-tree");
    fs::create_directories(tree);
    writeFile(tree + "/make.sh", script);
    std::string archive = dir.file(name + ".tar.gz");
    auto r = runCommand({"/bin/tar", "-czf", archive, "-C", tree, "."}, dir.path);
    EXPECT_EQ(r.code, 0) << r.err;
    return archive;
}

}  // namespace

TEST(SourceBuilder, BuildsOnceAndThenServesTheCache) {
    TempDir dir;
    SourceBuilder builder(dir.file("builds"), BuildLimits{});
    std::string archive =
        sourceArchive(dir, "a", "printf '#!/bin/sh\\necho hi\\n' > engine && chmod +x engine\n");
    std::string sha = xq::sha256File(archive);
    std::string first = builder.build(archive, sha, "sh make.sh", "engine").path;
    std::string again = builder.build(archive, sha, "sh make.sh", "engine").path;
    EXPECT_EQ(first, again);
    EXPECT_EQ(builder.buildsRun(), 1);
    EXPECT_EQ(runCommand({first}, dir.path).out, "hi\n");
    // Another command is another build.
    builder.build(archive, sha, "sh make.sh && true", "engine");
    EXPECT_EQ(builder.buildsRun(), 2);
}

TEST(SourceBuilder, AFailedBuildSaysWhyWithItsLastLines) {
    TempDir dir;
    SourceBuilder builder(dir.file("builds"), BuildLimits{});
    std::string archive = sourceArchive(dir, "bad", "echo 'engine.c:3: error: no such thing' >&2; exit 3\n");
    try {
        builder.build(archive, xq::sha256File(archive), "sh make.sh", "engine");
        FAIL() << "no error";
    } catch (const BuildError& e) {
        EXPECT_TRUE(e.sourceFault);
        EXPECT_NE(std::string(e.what()).find("failed (exit code 3)"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("engine.c:3: error: no such thing"), std::string::npos)
            << e.what();
    }
    std::string empty = sourceArchive(dir, "empty", "true\n");
    EXPECT_THROW(builder.build(empty, xq::sha256File(empty), "sh make.sh", "engine"), BuildError);
}

TEST(SourceBuilder, AStuckBuildIsStoppedAtItsTimeLimit) {
    TempDir dir;
    BuildLimits limits;
    limits.timeoutSeconds = 1;
    SourceBuilder builder(dir.file("builds"), limits);
    std::string archive = sourceArchive(dir, "slow", "sleep 60\n");
    auto start = std::chrono::steady_clock::now();
    try {
        builder.build(archive, xq::sha256File(archive), "sh make.sh", "engine");
        FAIL() << "no error";
    } catch (const BuildError& e) {
        EXPECT_FALSE(e.sourceFault) << "a slow host is not the source's fault";
        EXPECT_NE(std::string(e.what()).find("took over 1 s"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(SourceBuilder, TheLeastRecentlyUsedBuildGoesFirstPastTheSizeLimit) {
    TempDir dir;
    BuildLimits limits;
    limits.cacheBytes = 1;  // only the newest build stays
    SourceBuilder builder(dir.file("builds"), limits);
    std::string make = "head -c 1000 /dev/zero > data; printf '#!/bin/sh\\n' > engine; chmod +x engine\n";
    std::string a = sourceArchive(dir, "a", make), b = sourceArchive(dir, "b", make + "# b\n");
    std::string builtA = builder.build(a, xq::sha256File(a), "sh make.sh", "engine").path;
    std::string builtB = builder.build(b, xq::sha256File(b), "sh make.sh", "engine").path;
    EXPECT_FALSE(fs::exists(builtA));
    EXPECT_TRUE(fs::exists(builtB));
    builder.build(a, xq::sha256File(a), "sh make.sh", "engine");
    EXPECT_EQ(builder.buildsRun(), 3) << "the evicted build is built again";
}

TEST(SourceBuilder, ABuildInUseIsNotEvicted) {
    TempDir dir;
    BuildLimits limits;
    limits.cacheBytes = 1;
    SourceBuilder builder(dir.file("builds"), limits);
    std::string make = "head -c 1000 /dev/zero > data; printf '#!/bin/sh\\n' > engine; chmod +x engine\n";
    std::string a = sourceArchive(dir, "a", make), b = sourceArchive(dir, "b", make + "# b\n");
    auto running = builder.build(a, xq::sha256File(a), "sh make.sh", "engine");  // a job holds it
    builder.build(b, xq::sha256File(b), "sh make.sh", "engine");
    EXPECT_TRUE(fs::exists(running.path)) << "evicted while in use";
    running.inUse.reset();
    std::string c = sourceArchive(dir, "c", make + "# c\n");
    builder.build(c, xq::sha256File(c), "sh make.sh", "engine");
    EXPECT_FALSE(fs::exists(running.path)) << "released, it goes like any other";
}

TEST(SourceBuilder, AMissingBuildToolIsTheHostsTroubleNotTheSources) {
    TempDir dir;
    SourceBuilder builder(dir.file("builds"), BuildLimits{});
    std::string archive = sourceArchive(dir, "tool", "true\n");
    try {
        builder.build(archive, xq::sha256File(archive), "no-such-build-tool --all", "engine");
        FAIL() << "no error";
    } catch (const BuildError& e) {
        EXPECT_FALSE(e.sourceFault) << e.what();
        EXPECT_NE(std::string(e.what()).find("exit code 127"), std::string::npos) << e.what();
    }
}
