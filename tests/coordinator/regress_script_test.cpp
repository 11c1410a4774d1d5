// scripts/regress.sh as a new user runs it: it says each step on stderr and passes the build's progress
// through, instead of minutes of silence while a fresh machine builds. cmake and ninja are stand-ins on
// PATH here (the real build would take minutes and could reconfigure the test's own build directory);
// the packages check and `xq regress` (asked for its --help) are the real ones.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "process.h"
#include "test_util.h"

using namespace xq::coord::testing;

TEST(RegressScript, SaysEachStepAndShowsTheBuildsProgress) {
    TempDir dir;
    const std::string shims = dir.file("shims"), build = dir.file("build");
    std::filesystem::create_directories(shims);
    std::filesystem::create_directories(build + "/bin");
    for (const char* tool : {"cmake", "ninja"}) {
        std::ofstream script(shims + "/" + tool);
        script << "#!/bin/sh\necho \"[1/2] Building CXX object " << tool << " step one\"\n"
               << "echo \"[2/2] Linking CXX executable bin/xq\"\n";
    }
    for (const char* tool : {"cmake", "ninja"})
        std::filesystem::permissions(shims + "/" + tool, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add);
    for (const char* binary : {"xq", "xq-engine"})
        std::filesystem::create_symlink(std::string(XQ_BIN_DIR) + "/" + binary, build + "/bin/" + binary);
    const std::string path = "PATH=" + shims + ":" + std::string(getenv("PATH") ? getenv("PATH") : "");
    const std::string engine = std::string(XQ_BIN_DIR) + "/xq-engine";
    auto r = runCommand(
        {std::string(XQ_SOURCE_DIR) + "/scripts/regress.sh", "--help"}, dir.path,
        {path, "BUILD=" + build, "BASE=" + engine, "DEV=" + engine, "DATA=" + dir.file("regress-data")});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* line : {"regress.sh: checking the Debian packages", "regress.sh: configuring ",
                             "regress.sh: building xq, xq-engine", "[2/2] Linking CXX executable bin/xq",
                             "regress.sh: playing dev against base"})
        EXPECT_NE(r.err.find(line), std::string::npos) << "no '" << line << "' in:\n" << r.err;
    EXPECT_NE(r.out.find("regress"), std::string::npos) << "xq regress --help ran: " << r.out;
}
