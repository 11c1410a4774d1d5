// Engines in the workers' sandbox (worker/sandbox.h): a hostile test engine (tests/match/mock_engine.cpp
// --hostile) that tries to write outside, connect to the host, fork, or take memory dies where it tries,
// and nothing outside changes; a well-behaved one plays and benches as it does outside. And on a real
// cluster: a worker (sandboxed by default) counts a hostile engine's games as crashes.
#include "sandbox.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>

#include "cluster.h"
#include "engine_bench.h"

using namespace xq::coord::testing;
using xq::worker::Sandbox;

namespace {

Sandbox sandbox() {
    Sandbox s;
    s.enabled = true;
    s.self = bin("xq-worker");
    s.limits.memoryMb = 1024;
    s.prepare();
    return s;
}

// A path the sandbox leaves read-only but the test may write: outside /tmp and the home directory, where the
// sandbox puts private file systems (the checkout, and so the bin directory, may lie under either).
std::string outsidePath(const std::string& name) {
    return "/var/tmp/xq-" + name + "-" + std::to_string(::getpid());
}

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The mock engine with `args` under `box`, told to move once: its exit code and output.
CommandResult playOnce(const Sandbox& box, const std::vector<std::string>& args, const std::string& scratch) {
    std::string line;
    for (const auto& a : box.wrap(bin("mock-engine"), args)) line += quote(a) + " ";
    return runCommand({"/bin/sh", "-c", "printf 'uci\\nposition startpos\\ngo\\nquit\\n' | " + line},
                      scratch);
}

}  // namespace

TEST(Sandbox, AWellBehavedEngineMovesAndBenchesAsItDoesOutside) {
    TempDir dir;
    auto r = playOnce(sandbox(), {}, dir.path);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("bestmove "), std::string::npos) << r.out;
    xq::match::EngineBenchRequest inside;
    inside.depth = 6;
    inside.launcher = sandbox().launcher(bin("xq-engine"));
    xq::match::EngineBenchRequest outside;
    outside.depth = 6;
    EXPECT_EQ(xq::match::runEngineBench(bin("xq-engine"), inside).nodes,
              xq::match::runEngineBench(bin("xq-engine"), outside).nodes);
}

TEST(Sandbox, AnEngineThatWritesOutsideDiesAndTheFileIsNotThere) {
    TempDir dir;
    std::string target = outsidePath("written-by-a-hostile-engine");
    std::filesystem::remove(target);
    auto r = playOnce(sandbox(), {"--hostile", "write:" + target}, dir.path);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("hostile write"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Read-only file system"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(target));
    // The control: without the sandbox the same engine writes it, so the check above can fail.
    Sandbox off;
    auto loose = playOnce(off, {"--hostile", "write:" + target}, dir.path);
    EXPECT_EQ(loose.code, 0) << loose.err;
    EXPECT_TRUE(std::filesystem::exists(target));
    std::filesystem::remove(target);
}

TEST(Sandbox, AnEngineThatConnectsToTheHostDiesAndNoConnectionArrives) {
    TempDir dir;
    int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(::listen(listener, 8), 0);
    socklen_t len = sizeof a;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
    std::string port = std::to_string(ntohs(a.sin_port));
    auto r = playOnce(sandbox(), {"--hostile", "socket:" + port}, dir.path);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("hostile socket"), std::string::npos) << r.err;
    EXPECT_LT(::accept(listener, nullptr, nullptr), 0) << "a connection from inside the sandbox arrived";
    // The control: outside, it connects.
    Sandbox off;
    EXPECT_EQ(playOnce(off, {"--hostile", "socket:" + port}, dir.path).code, 0);
    int accepted = ::accept(listener, nullptr, nullptr);
    EXPECT_GE(accepted, 0);
    if (accepted >= 0) ::close(accepted);
    ::close(listener);
}

TEST(Sandbox, AnEngineThatForksDiesAtTheFirstFork) {
    TempDir dir;
    auto r = playOnce(sandbox(), {"--hostile", "fork"}, dir.path);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("hostile fork refused: Operation not permitted"), std::string::npos) << r.err;
}

TEST(Sandbox, AnEngineThatTakesTooMuchMemoryDies) {
    if (!xq::worker::AddressSpaceLimited)
        GTEST_SKIP() << "a sanitizer build runs without an address-space limit (worker/sandbox.h)";
    TempDir dir;
    auto r = playOnce(sandbox(), {"--hostile", "memory:4"}, dir.path);  // 4 GB against a 1 GB limit
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("hostile memory:4 refused"), std::string::npos) << r.err;
}

// A real worker, sandboxed by default: every game of the hostile engine is a crash, and the file it tried
// to write is not there.
TEST(Sandbox, AWorkerCountsAHostileEnginesGamesAsCrashes) {
    Cluster c;
    c.startCoordinator();
    std::string target = outsidePath("written-by-a-hostile-engine-on-a-worker");
    std::filesystem::remove(target);
    auto r = c.xq({"submit", "--base", bin("mock-engine"), "--dev", bin("mock-engine"), "--dev-option",
                   "args=--hostile write:" + target, "--each", "nodes=1", "--games", "2", "--no-openings"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto id = std::stoull(lastLine(r.out));
    c.startWorker();
    auto view = c.waitFor(id, [](const nlohmann::json& v) { return v["state"] != "running"; });
    EXPECT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["failures"]["crashes"], 2) << view.dump();
    EXPECT_EQ(view["wdl"][2], 2) << "a crash loses the game";
    EXPECT_FALSE(std::filesystem::exists(target));
}
