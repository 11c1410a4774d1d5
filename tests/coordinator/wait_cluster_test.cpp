// `xq submit --wait` and `xq wait` as a CI job meets them (issue 59): a real git repository with a weak and a
// strong commit of a small engine (a C program that hands the real xq-engine its own node count), a real
// coordinator and worker on loopback, and the exit status the job branches on: 0 when the test passed, 1
// when it failed, 2 when it was stopped, could not be read or timed out.
#include <gtest/gtest.h>

#include "cluster.h"
#include "process.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace wait_cluster_test {

// `bench` prints a signature; otherwise xq-engine with every `go` turned into `go nodes NODES`.
std::string engineSource(int nodes) {
    return "#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\n"
           "int main(int argc, char** argv) {\n"
           "    if (argc > 1 && strcmp(argv[1], \"bench\") == 0) { printf(\"Nodes searched: 1\\n\"); return "
           "0; }\n"
           "    execl(\"/bin/sh\", \"sh\", \"-c\", \"exec sed -u 's/^go .*/go nodes " +
           std::to_string(nodes) + "/' | exec " + bin("xq-engine") +
           "\", (char*)0);\n"
           "    return 127;\n"
           "}\n";
}

void git(const std::string& repo, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"/usr/bin/git", "-C", repo};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = runCommand(argv, repo);
    ASSERT_EQ(r.code, 0) << r.err;
}

struct WaitCluster : ::testing::Test {
    Cluster c;
    std::string repo = c.dir.file("repo");

    void SetUp() override {
        std::filesystem::create_directories(repo);
        git(repo, {"init", "--quiet", "-b", "main"});
        git(repo, {"config", "user.email", "dev@example.com"});
        git(repo, {"config", "user.name", "Dev"});
        for (auto [nodes, subject] :
             {std::pair{100, "Weak: 100 nodes a move"}, {2000, "Strong: 2000 nodes"}}) {
            writeFile(repo + "/engine.c", engineSource(nodes));
            git(repo, {"add", "engine.c"});
            git(repo, {"commit", "--quiet", "-m", subject});
        }
        c.startCoordinator();
        c.workerArgs = {"--build-dir", c.dir.file("builds"), "--sandbox-allow-fork", "--sandbox-read",
                        XQ_BIN_DIR};
        c.startWorker();
    }

    // `xq submit --repo ... --wait` with the refs and extra arguments.
    std::vector<std::string> submitArgs(const std::string& base, const std::string& dev,
                                        std::vector<std::string> extra) {
        std::vector<std::string> args = {"submit",     "--repo",      repo,
                                         "--base",     base,          "--dev",
                                         dev,          "--build",     "cc -O1 -o engine engine.c",
                                         "--binary",   "engine",      "--each",
                                         "nodes=1000", "--max-moves", "100",
                                         "--wait"};
        auto openings = openingArgs();
        args.insert(args.end(), openings.begin(), openings.end());
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
};

TEST_F(WaitCluster, SubmitWaitExitsZeroWhenAClearlyBetterDevPassesItsSprt) {
    auto r = c.xq(submitArgs("main~1", "main", {"--sprt", "elo0=0,elo1=150"}));
    EXPECT_EQ(r.code, 0) << r.out << r.err << c.workerLogs();
    EXPECT_NE(r.out.find("verdict: passed: H1 accepted"), std::string::npos) << r.out;
    // Not a terminal: a progress line for each change, then the report.
    EXPECT_NE(r.out.find("games "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("LLR "), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("waiting for the verdict of test"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("submitted test "), std::string::npos) << r.out;
}

TEST_F(WaitCluster, SubmitWaitExitsOneWhenAClearlyWorseDevFailsANonRegressionTestAndJsonHasTheVerdict) {
    // The preset's lower bound widened (fishtest's -1.75 takes some 700 games even against a crushed dev).
    auto r = c.xq(submitArgs("main", "main~1", {"--sprt", "non-regression,elo0=-50", "--json"}));
    EXPECT_EQ(r.code, 1) << r.out << r.err << c.workerLogs();
    auto report = json::parse(r.out);  // stdout is the report alone; the progress went to stderr
    EXPECT_EQ(report["state"], "finished");
    EXPECT_EQ(report["result"], "H0 accepted");
    EXPECT_EQ(report["verdict"], "failed: H0 accepted");
    EXPECT_EQ(report["exit_code"], 1);
    EXPECT_NE(r.err.find("LLR "), std::string::npos) << r.err;
    auto again = c.xq({"wait", std::to_string(report["id"].get<std::uint64_t>())});
    EXPECT_EQ(again.code, 1) << again.out << again.err;
    EXPECT_NE(again.out.find("verdict: failed: H0 accepted"), std::string::npos) << again.out;
}

TEST_F(WaitCluster, WaitExitsTwoWhenTheTestIsStoppedTimesOutOrDoesNotExist) {
    // A long test: 2000 nodes on both sides, an SPRT that cannot end soon.
    auto args = submitArgs("main", "main", {"--sprt", "elo0=0,elo1=2", "--games", "5000"});
    args.insert(args.begin(), bin("xq"));
    args.insert(args.end(), {"--coordinator", c.address, "--token", c.userToken});
    Process waiting(args, c.dir.file("wait.out"), c.dir.file("wait.err"));
    auto id = waiting.waitForLine("submitted test ", std::chrono::seconds(60));
    ASSERT_TRUE(id) << waiting.err();
    const std::string testId = id->substr(0, id->find_first_not_of("0123456789"));

    auto timedOut = c.xq({"wait", testId, "--timeout", "1", "--poll", "0.2"});
    EXPECT_EQ(timedOut.code, 2) << timedOut.out << timedOut.err;
    EXPECT_NE(timedOut.err.find("timed out"), std::string::npos) << timedOut.err;

    ASSERT_EQ(c.xq({"stop", testId, "--reason", "the author pushed again"}).code, 0);
    auto code = waiting.wait(std::chrono::seconds(60));
    ASSERT_TRUE(code) << "xq submit --wait did not end after the stop";
    EXPECT_EQ(*code, 2) << waiting.out() << waiting.err();
    EXPECT_NE(waiting.out().find("verdict: no verdict: stopped"), std::string::npos) << waiting.out();

    auto missing = c.xq({"wait", "999999"});
    EXPECT_EQ(missing.code, 2) << missing.out << missing.err;
    EXPECT_NE(missing.err.find("cannot read test 999999"), std::string::npos) << missing.err;
}

TEST_F(WaitCluster, ARefThatDoesNotExistOrARepositoryThatCannotBeReachedIsRefusedAtSubmitWithItsName) {
    auto r = c.xq(submitArgs("main", "no-such-branch", {"--sprt", "gainer"}));
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("'no-such-branch' is not a commit of the repository"), std::string::npos) << r.err;
    // A repository that cannot be reached: the client packs the commits itself (workers never fetch the
    // repository), so the submission fails at once, naming it, instead of a test that cannot be played.
    auto unreachable = c.xq(
        {"submit", "--repo", "http://127.0.0.1:9/engine.git", "--base", "main", "--dev", "main", "--wait"});
    EXPECT_EQ(unreachable.code, 2) << unreachable.err;
    EXPECT_NE(unreachable.err.find("cannot clone http://127.0.0.1:9/engine.git"), std::string::npos)
        << unreachable.err;
    EXPECT_EQ(c.xq({"tests"}).out, "no tests\n") << "nothing was submitted";
}

// The examples of deploy/ci, their shell steps run as the CI service would (tests/deploy/ci_run.py) in a
// checkout of the repository, against this coordinator: a pull request whose head is stronger passes, one
// whose head is weaker fails the job, and the job's output has the test's link.
struct CiExamples : WaitCluster {
    std::string checkout = c.dir.file("checkout");
    std::string weak, strong;

    void SetUp() override {
        WaitCluster::SetUp();
        auto clone = runCommand({"/usr/bin/git", "clone", "--quiet", repo, checkout}, c.dir.path);
        ASSERT_EQ(clone.code, 0) << clone.err;
        weak = lastLine(runCommand({"/usr/bin/git", "-C", repo, "rev-parse", "main~1"}, repo).out);
        strong = lastLine(runCommand({"/usr/bin/git", "-C", repo, "rev-parse", "main"}, repo).out);
    }
    CommandResult run(const std::string& service, const json& context) {
        std::string contextPath = c.dir.file(service + "-context.json");
        writeFile(contextPath, context.dump());
        return runCommand(
            {"/usr/bin/python3", std::string(XQ_SOURCE_DIR) + "/tests/deploy/ci_run.py", service,
             std::string(XQ_SOURCE_DIR) + "/deploy/ci/" +
                 (service == "github" ? "github-actions.yml" : "gitlab-ci.yml"),
             contextPath, checkout},
            c.dir.path, {}, std::chrono::seconds(240));
    }
    json github(const std::string& base, const std::string& head) {
        std::filesystem::create_directories(c.dir.file("runner-temp"));
        return {{"secrets",
                 {{"XQ_COORDINATOR", c.address},
                  {"XQ_TOKEN", c.userToken},
                  {"XQ_WEB", "http://xq.example.test/"}}},
                {"vars",
                 {{"XQ_SPRT", "elo0=0,elo1=150"},
                  {"XQ_EACH", "nodes=1000"},
                  {"XQ_BUILD", "cc -O1 -o engine engine.c"},
                  {"XQ_BINARY", "engine"},
                  {"XQ_TIMEOUT", "200"}}},
                {"github",
                 {{"event",
                   {{"pull_request",
                     {{"number", 7},
                      {"title", "A pull request's title"},
                      {"base", {{"sha", base}}},
                      {"head", {{"sha", head}}}}}}}}},
                {"env",
                 {{"PATH", std::string(XQ_BIN_DIR) + ":/usr/local/bin:/usr/bin:/bin"},
                  {"RUNNER_TEMP", c.dir.file("runner-temp")},
                  {"GITHUB_PATH", c.dir.file("runner-temp/path")}}}};
    }
};

TEST_F(CiExamples, TheGithubWorkflowPassesAStrongerPullRequestAndFailsAWeakerOneWithTheTestsLink) {
    // The checkout's origin is on GitHub, as on a runner: the test links its commits there.
    ASSERT_EQ(runCommand({"/usr/bin/git", "-C", checkout, "remote", "set-url", "origin",
                          "https://github.com/owner/engine.git"},
                         c.dir.path)
                  .code,
              0);
    auto passed = run("github", github(weak, strong));
    EXPECT_EQ(passed.code, 0) << passed.out << passed.err << c.workerLogs();
    EXPECT_NE(passed.out.find("(actions/checkout@v4) is the service's"), std::string::npos) << passed.out;
    EXPECT_NE(passed.out.find("verdict: passed: H1 accepted"), std::string::npos) << passed.out;
    EXPECT_NE(passed.err.find("http://xq.example.test/tests/1"), std::string::npos) << passed.err;
    auto shown = c.show(1);
    EXPECT_EQ(shown["description"], "PR #7: A pull request's title");
    EXPECT_EQ(shown["dev"]["source"]["commit"], strong);
    EXPECT_EQ(shown["dev"]["source"]["ref"], strong) << "the workflow names the head by its hash";
    EXPECT_EQ(shown["dev"]["source"]["author"], "Dev <dev@example.com>");
    EXPECT_EQ(shown["dev"]["source"]["repository"], "https://github.com/owner/engine.git");
    EXPECT_EQ(shown["dev"]["source"]["link"], "https://github.com/owner/engine/commit/" + strong);

    auto failed = run("github", github(strong, weak));
    EXPECT_EQ(failed.code, 1) << failed.out << failed.err;
    EXPECT_NE(failed.out.find("verdict: failed: H0 accepted"), std::string::npos) << failed.out;
    EXPECT_NE(failed.out.find("step 3 failed with exit code 1"), std::string::npos) << failed.out;
}

TEST_F(CiExamples, TheGitlabJobPassesAStrongerMergeRequest) {
    json context = {{"variables",
                     {{"XQ_COORDINATOR", c.address},
                      {"XQ_TOKEN", c.userToken},
                      {"XQ_WEB", "http://xq.example.test"},
                      {"XQ_SPRT", "elo0=0,elo1=150"},
                      {"XQ_EACH", "nodes=1000"},
                      {"XQ_BUILD", "cc -O1 -o engine engine.c"},
                      {"XQ_BINARY", "engine"},
                      {"XQ_TIMEOUT", "200"},
                      {"CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main"},
                      {"CI_MERGE_REQUEST_DIFF_BASE_SHA", weak},
                      {"CI_COMMIT_SHA", strong},
                      {"CI_MERGE_REQUEST_IID", "3"},
                      {"CI_MERGE_REQUEST_TITLE", "A merge request"},
                      {"PATH", std::string(XQ_BIN_DIR) + ":/usr/local/bin:/usr/bin:/bin"}}}};
    auto r = run("gitlab", context);
    EXPECT_EQ(r.code, 0) << r.out << r.err << c.workerLogs();
    EXPECT_NE(r.out.find("verdict: passed: H1 accepted"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("http://xq.example.test/tests/1"), std::string::npos) << r.err;
    EXPECT_EQ(c.show(1)["description"], "MR !3: A merge request");
}

}  // namespace wait_cluster_test
