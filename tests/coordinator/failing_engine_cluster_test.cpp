// Integration: a test whose engine cannot start (here /bin/false, which exits at once) on a real
// coordinator with real workers stops itself in the failed state within a bounded number of leases, says
// why in `xq show`, `xq show --json` and `xq tests`, keeps it over a restart, and runs again when resumed.
#include <gtest/gtest.h>

#include <filesystem>

#include "cluster.h"
#include "test_util.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

bool ended(const json& v) {
    return v["state"] != "running";
}

// A match of our engine (base) against /bin/false (dev).
std::uint64_t submitFalseEngine(Cluster& c) {
    std::vector<std::string> args = {"submit",  "--base", bin("xq-engine"), "--dev",    "/bin/false",
                                     "--games", "200",    "--each",         "nodes=100"};
    auto openings = openingArgs();
    args.insert(args.end(), openings.begin(), openings.end());
    auto r = c.xq(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return std::stoull(lastLine(r.out));
}

void expectFailedAfter(const json& view, int leases, Cluster& c) {
    EXPECT_EQ(view["state"], "failed") << view.dump() << c.workerLogs();
    const std::string result = view["result"];
    EXPECT_NE(result.find("5 leases in a row failed; last: worker "), std::string::npos) << result;
    EXPECT_NE(result.find("did not start"), std::string::npos) << result;
    // Each failed lease is a crash; none after the test failed.
    EXPECT_EQ(view["failures"]["crashes"], leases) << view.dump();
    EXPECT_EQ(view["games"], 0);
}

}  // namespace

TEST(FailingEngineCluster, ATestWhoseEngineCannotStartFailsWithItsReasonAndCanBeResumed) {
    Cluster c;
    c.startCoordinator();
    auto id = submitFalseEngine(c);
    c.startWorker();
    c.startWorker();
    auto view = c.waitFor(id, ended, std::chrono::seconds(120));
    expectFailedAfter(view, 5, c);
    // The repeated line of a worker is one event with a count, not one line per lease.
    int repeats = 0;
    for (const auto& e : view["events"]) repeats += e.get<std::string>().find(" (x") != std::string::npos;
    EXPECT_GE(repeats, 1) << view["events"].dump();
    EXPECT_LE(view["events"].size(), 8u) << view["events"].dump();

    auto text = c.xq({"show", std::to_string(id)});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("state      failed (5 leases in a row failed"), std::string::npos) << text.out;
    auto list = c.xq({"tests", "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_EQ(json::parse(list.out)[0]["state"], "failed");

    // Durable: a restarted coordinator keeps the state and its reason.
    c.coordinator->kill(SIGTERM);
    c.coordinator->wait();
    c.startCoordinator();
    auto again = c.show(id);
    EXPECT_EQ(again["state"], "failed");
    EXPECT_EQ(again["result"], view["result"]);

    // Resumed with nothing fixed, it fails again after as many failed leases.
    auto resumed = c.xq({"resume", std::to_string(id)});
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_EQ(resumed.out, "test " + std::to_string(id) + " is running\n");
    auto twice = c.waitFor(id, ended, std::chrono::seconds(120));
    expectFailedAfter(twice, 10, c);
    // Only a failed test can be resumed.
    auto other = c.xq({"resume", "999"});
    EXPECT_NE(other.code, 0);
    EXPECT_NE(other.err.find("no test 999"), std::string::npos) << other.err;
}

TEST(FailingEngineCluster, AFileThatIsNoEngineIsRefusedWhenItIsUploaded) {
    Cluster c;
    c.startCoordinator();
    // Executable on this side (xq submit checks that much itself), a book all the same.
    const std::string book = c.dir.file("book.epd");
    std::filesystem::copy_file(std::string(XQ_SOURCE_DIR) + "/data/openings/xq-balanced.epd", book);
    std::filesystem::permissions(book, std::filesystem::perms::owner_exec,
                                 std::filesystem::perm_options::add);
    auto r =
        c.xq({"submit", "--base", bin("xq-engine"), "--dev", book, "--each", "tc=10+0.1", "--games", "20"});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("is not an engine: neither an executable (ELF) nor a script starting with #!"),
              std::string::npos)
        << r.err;
    auto list = c.xq({"tests", "--json"});
    EXPECT_TRUE(json::parse(list.out).empty()) << list.out;
}

TEST(FailingEngineCluster, ADatagenTestWhoseEngineCannotStartFails) {
    Cluster c;
    c.startCoordinator();
    // A script whose interpreter is missing passes the upload's check and exits at once (code 127).
    const std::string engine = c.dir.file("engine.sh");
    writeFile(engine, "#!/nonexistent/interpreter\n");
    std::filesystem::permissions(engine, std::filesystem::perms::owner_exec,
                                 std::filesystem::perm_options::add);
    auto r = c.xq(
        {"submit", "datagen", "--engine", engine, "--games", "40", "--nodes", "150", "--slice-games", "4"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto id = std::stoull(lastLine(r.out));
    c.startWorker();
    auto view = c.waitFor(id, ended, std::chrono::seconds(120));
    EXPECT_EQ(view["state"], "failed") << view.dump() << c.workerLogs();
    const std::string result = view["result"];
    EXPECT_NE(result.find("did not start"), std::string::npos) << result;
    EXPECT_EQ(view["failures"]["crashes"].get<int>(), 5) << view.dump();
}
