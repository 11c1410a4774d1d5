// What an uploaded artifact must be by its kind (coordinator/common/artifact_check.h): real executables,
// scripts, books and files of other machines, read from disk as the coordinator reads them.
#include "artifact_check.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.h"

using namespace xq::coord;
using xq::coord::testing::TempDir;
using xq::coord::testing::writeFile;

namespace {

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string book(const std::string& name) {
    return std::string(XQ_SOURCE_DIR) + "/data/openings/" + name;
}

// This machine's /bin/true with its header's 16-bit field at `offset` (little-endian) set to `value`.
std::string patchedTrue(const TempDir& dir, std::size_t offset, unsigned value) {
    std::string elf = fileText("/bin/true");
    elf[offset] = char(value & 0xff);
    elf[offset + 1] = char(value >> 8);
    std::string path = dir.file("patched-" + std::to_string(offset) + "-" + std::to_string(value));
    writeFile(path, elf);
    return path;
}

}  // namespace

TEST(ArtifactCheck, AnEngineIsAnExecutableOfThisMachineOrAScript) {
    TempDir dir;
    EXPECT_EQ(artifactProblem("engine", "/bin/true"), "");
    EXPECT_EQ(artifactProblem("engine", std::string(XQ_BIN_DIR) + "/xq-engine"), "");
    writeFile(dir.file("engine.sh"), "#!/bin/sh\nexec xq-engine \"$@\"\n");
    EXPECT_EQ(artifactProblem("engine", dir.file("engine.sh")), "");

    EXPECT_EQ(artifactProblem("engine", book("xq-balanced.epd")),
              "not an engine: neither an executable (ELF) nor a script starting with #!");
    writeFile(dir.file("empty"), "");
    EXPECT_EQ(artifactProblem("engine", dir.file("empty")), "not an engine: the file is empty");
    // Another machine's executable, and an object file of this one.
#if defined(__x86_64__)
    EXPECT_EQ(artifactProblem("engine", patchedTrue(dir, 18, EM_AARCH64)),
              "not an engine for this platform: an ELF executable for aarch64, and the workers run x86-64");
#elif defined(__aarch64__)
    EXPECT_EQ(artifactProblem("engine", patchedTrue(dir, 18, EM_X86_64)),
              "not an engine for this platform: an ELF executable for x86-64, and the workers run aarch64");
#endif
    EXPECT_EQ(artifactProblem("engine", patchedTrue(dir, 16, ET_REL)),
              "not an engine: an ELF file that is not an executable (an object file or a core dump)");
}

TEST(ArtifactCheck, ABookParsesAsOpeningsOfOneOfTheGames) {
    for (const char* name : {"xq-balanced.epd", "chess-balanced.epd", "capturego-9x9.txt", "go-5x5.txt"})
        EXPECT_EQ(artifactProblem("openings", book(name)), "") << name;
    const std::string problem = artifactProblem("openings", "/bin/true");
    EXPECT_EQ(problem.rfind("not an opening book of Xiangqi, chess or Capture Go (as Xiangqi: ", 0), 0u)
        << problem;
}

TEST(ArtifactCheck, WeightsAndFilesOfNoKindAreNotCheckedAndNetworksAre) {
    EXPECT_EQ(artifactProblem("weights", "/bin/true"), "");
    EXPECT_EQ(artifactProblem("", book("xq-balanced.epd")), "");
    const std::string notANet = artifactProblem("net", book("xq-balanced.epd"));
    EXPECT_EQ(notANet, "not a valid network: wrong magic: not an XQNNUE network file")
        << "the engine's reader's words";
    EXPECT_TRUE(isArtifactKind("engine") && isArtifactKind("openings") && isArtifactKind("weights") &&
                isArtifactKind("net") && isArtifactKind(""));
    EXPECT_FALSE(isArtifactKind("book"));
}

TEST(ArtifactCheck, ATestsRoleNamesTheKindOfItsArtifact) {
    EXPECT_EQ(artifactKindOfRole("dev engine binary"), "engine");
    EXPECT_EQ(artifactKindOfRole("datagen engine binary"), "engine");
    EXPECT_EQ(artifactKindOfRole("base weights"), "weights");
    EXPECT_EQ(artifactKindOfRole("dev network"), "net");
    EXPECT_EQ(artifactKindOfRole("opening book"), "openings");
    EXPECT_EQ(artifactKindOfRole("dev engine source"), "");
    EXPECT_TRUE(looksExecutable("/bin/true"));
    EXPECT_FALSE(looksExecutable(book("xq-balanced.epd")));
}
