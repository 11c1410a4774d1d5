// Tests of the integration tests' process helper (process.h): what a test starts does not outlive it.
#include "process.h"

#include <gtest/gtest.h>

#include <fstream>

namespace xq::coord::testing {
namespace {

// True while `pid` runs; a zombie (dead, not yet reaped by whoever inherited it) counts as gone.
bool alive(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    auto close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

TEST(Process, WhatATestStartedDiesWhenTheTestIsKilled) {
    TempDir dir;
    const std::string pidFile = dir.file("pid");
    // The stand-in for a test binary: it starts a long sleep through Process, says its pid, and waits.
    pid_t test = fork();
    ASSERT_GE(test, 0);
    if (test == 0) {
        Process sleeper({"/bin/sleep", "120"}, dir.file("out"), dir.file("err"));
        writeFile(pidFile + ".tmp", std::to_string(sleeper.pid()));
        std::rename((pidFile + ".tmp").c_str(), pidFile.c_str());
        pause();
        _exit(0);
    }
    pid_t sleeper = -1;
    for (int i = 0; i < 500 && sleeper < 0; ++i) {
        std::string text = readFileOrEmpty(pidFile);
        if (!text.empty())
            sleeper = std::stoi(text);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_GT(sleeper, 0) << "the stand-in test never started its process";
    EXPECT_TRUE(alive(sleeper));

    // As ctest does on a timeout.
    ::kill(test, SIGKILL);
    waitpid(test, nullptr, 0);

    bool gone = false;
    for (int i = 0; i < 500 && !gone; ++i) {
        gone = !alive(sleeper);
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!gone) ::kill(sleeper, SIGKILL);
    EXPECT_TRUE(gone) << "the process outlived the test that started it";
}

}  // namespace
}  // namespace xq::coord::testing
