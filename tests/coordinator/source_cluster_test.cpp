// Tests from source, as a developer meets them: a real git repository with commits of a small engine
// (a C program built by each worker with cc, which hands the real xq-engine a node count of its own, so
// commits differ in strength), submitted with `xq submit --repo`, built, cached and played by two real
// workers on loopback that share one build directory.
#include <gtest/gtest.h>

#include "cluster.h"
#include "git_source.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

// The engine's source: `bench` prints its signature; otherwise it runs xq-engine with every `go` turned
// into `go nodes NODES`.
std::string engineSource(int nodes, int bench, bool broken = false) {
    std::string engine = bin("xq-engine");
    return std::string("#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\n") +
           "int main(int argc, char** argv) {\n"
           "    if (argc > 1 && strcmp(argv[1], \"bench\") == 0) {\n"
           "        printf(\"Nodes searched: " +
           std::to_string(bench) +
           "\\n\");\n"
           "        return 0;\n"
           "    }\n" +
           (broken ? "    this is not C;\n" : "") +
           "    execl(\"/bin/sh\", \"sh\", \"-c\", \"exec sed -u 's/^go .*/go nodes " +
           std::to_string(nodes) + "/' | exec " + engine +
           "\", (char*)0);\n"
           "    return 127;\n"
           "}\n";
}

struct Repo {
    std::string path;
    explicit Repo(const std::string& dir) : path(dir) {
        git({"init", "--quiet", "-b", "main"});
        git({"config", "user.email", "dev@example.com"});
        git({"config", "user.name", "Dev"});
    }
    void git(const std::vector<std::string>& args) {
        std::vector<std::string> argv = {"/usr/bin/git", "-C", path};
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = runCommand(argv, path);
        ASSERT_EQ(r.code, 0) << r.err;
    }
    // Commits engine.c with the message; returns the commit's hash.
    std::string commit(const std::string& source, const std::string& message) {
        writeFile(path + "/engine.c", source);
        git({"add", "engine.c"});
        git({"commit", "--quiet", "-m", message});
        auto r = runCommand({"/usr/bin/git", "-C", path, "rev-parse", "HEAD"}, path);
        return lastLine(r.out);
    }
};

int countLines(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
    return n;
}

}  // namespace

TEST(SourceCluster, WorkersBuildEachCommitOnceCheckSignaturesAndStopATestThatDoesNotCompile) {
    Cluster c;
    std::filesystem::create_directories(c.dir.file("repo"));
    Repo repo(c.dir.file("repo"));
    std::string weak = repo.commit(engineSource(100, 1111), "Weak engine: 100 nodes a move\n\nBench: 1111");
    std::string strong =
        repo.commit(engineSource(2000, 2222), "Strong engine: 2000 nodes a move\n\nBench: 2222");
    std::string broken = repo.commit(engineSource(2000, 3333, true), "Broken engine\n\nBench: 3333");
    std::string lying = repo.commit(engineSource(2000, 4444), "Signature that does not match\n\nBench: 9999");
    c.startCoordinator();
    // Both workers of this "host" share the build directory; the built engines run a shell pipe.
    c.workerArgs = {"--build-dir", c.dir.file("builds"), "--sandbox-allow-fork", "--sandbox-read",
                    XQ_BIN_DIR};
    c.startWorker();
    c.startWorker();
    auto submit = [&](const std::string& base, const std::string& dev, std::vector<std::string> extra) {
        std::vector<std::string> args = {"submit",     "--repo",      repo.path,
                                         "--base",     base,          "--dev",
                                         dev,          "--build",     "cc -O1 -o engine engine.c",
                                         "--binary",   "engine",      "--each",
                                         "nodes=1000", "--max-moves", "100"};
        auto openings = openingArgs();
        args.insert(args.end(), openings.begin(), openings.end());
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = c.xq(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return std::stoull(lastLine(r.out));
    };
    auto ended = [](const json& v) { return v["state"] != "running"; };
    auto builds = [&] {
        int n = 0;
        for (auto& w : c.workers) n += countLines(w->err(), "building with");
        return n;
    };

    // Refs resolve to commits, whose subjects and signatures come along.
    auto first = submit("main~3", "main~2", {"--sprt", "elo0=0,elo1=150"});
    auto view = c.waitFor(first, ended, std::chrono::seconds(180));
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["result"], "H1 accepted") << "2000 nodes against 100";
    EXPECT_EQ(view["dev"]["source"]["commit"], strong);
    EXPECT_EQ(view["base"]["source"]["commit"], weak);
    EXPECT_EQ(view["dev"]["source"]["subject"], "Strong engine: 2000 nodes a move");
    EXPECT_EQ(view["compare"], weak.substr(0, 12) + ".." + strong.substr(0, 12));
    auto text = c.xq({"show", std::to_string(first)});
    EXPECT_NE(text.out.find("\"Weak engine: 100 nodes a move\""), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("compare    " + weak.substr(0, 12) + ".." + strong.substr(0, 12)),
              std::string::npos);
    EXPECT_EQ(builds(), 2) << "each commit built once on this host\n" << c.workerLogs();

    // The same commits again: nothing is built.
    auto second = submit(weak, strong, {"--games", "4"});
    view = c.waitFor(second, ended, std::chrono::seconds(120));
    EXPECT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(builds(), 2) << c.workerLogs();

    // A commit that does not compile fails its test with the compiler's words; another test runs on.
    auto bad = submit(weak, broken, {"--games", "4"});
    auto good = submit(weak, strong, {"--games", "4", "--priority", "-1"});
    view = c.waitFor(bad, ended, std::chrono::seconds(120));
    EXPECT_EQ(view["state"], "failed");
    EXPECT_NE(view["result"].get<std::string>().find("failed (exit code"), std::string::npos) << view.dump();
    std::string events;
    for (const auto& e : view["events"]) events += e.get<std::string>() + "\n";
    EXPECT_NE(events.find("error"), std::string::npos) << events;
    EXPECT_NE(events.find("engine.c"), std::string::npos) << "the compiler's last lines name the file\n"
                                                          << events;
    EXPECT_EQ(c.waitFor(good, ended, std::chrono::seconds(120))["state"], "finished") << c.workerLogs();

    // A commit whose build benches otherwise than its message says is refused, naming both numbers.
    auto mismatch = submit(weak, lying, {"--games", "4"});
    view = c.waitFor(
        mismatch,
        [](const json& v) {
            for (const auto& e : v["events"])
                if (e.get<std::string>().find("bench signature mismatch") != std::string::npos) return true;
            return false;
        },
        std::chrono::seconds(120));
    std::string mismatchEvents = view.dump();
    EXPECT_NE(mismatchEvents.find("submitted 9999, this worker measured 4444"), std::string::npos)
        << mismatchEvents;
    EXPECT_EQ(view["games"], 0);
    EXPECT_EQ(c.xq({"stop", std::to_string(mismatch)}).code, 0);
}

TEST(GitSource, TheLastBenchLineOfAMessageIsTheSignature) {
    EXPECT_EQ(xq::coord::benchFromMessage("search: a change\n\nBench: 1234567"), 1234567u);
    EXPECT_EQ(xq::coord::benchFromMessage("eval (Bench: 10)\n\nreverted\nBench:  42\n"), 42u);
    EXPECT_EQ(xq::coord::benchFromMessage("no signature here"), 0u);
}

TEST(GitSource, AnUnknownRefIsNamed) {
    TempDir dir;
    Repo repo(dir.path);
    repo.commit(engineSource(1, 1), "one");
    try {
        xq::coord::resolveCommit(dir.path, "no-such-branch");
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("'no-such-branch' is not a commit"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(xq::coord::resolveCommit(dir.path, "--upload-pack=evil"), std::invalid_argument);
}

TEST(GitSource, ARepositoryGivenByUrlIsClonedAndPacked) {
    TempDir dir;
    std::filesystem::create_directories(dir.file("repo"));
    Repo repo(dir.file("repo"));
    std::string commit = repo.commit(engineSource(1, 1), "first\n\nBench: 77");
    std::string local = xq::coord::localRepository("file://" + repo.path, dir.path);
    EXPECT_NE(local, "file://" + repo.path);
    auto info = xq::coord::resolveCommit(local, "main");
    EXPECT_EQ(info.commit, commit);
    EXPECT_EQ(info.subject, "first");
    EXPECT_EQ(info.bench, 77u);
    xq::coord::archiveCommit(local, info.commit, dir.file("tree.tar.gz"));
    auto list = runCommand({"/bin/tar", "-tzf", dir.file("tree.tar.gz")}, dir.path);
    EXPECT_NE(list.out.find("engine.c"), std::string::npos) << list.out;
    EXPECT_THROW(xq::coord::localRepository("file:///no/such/repository", dir.path), std::invalid_argument);
}

TEST(SourceCluster, RegressBuildsTwoRefsOfTheWorkingDirectoryAndRunsTheSprt) {
    TempDir dir;
    std::filesystem::create_directories(dir.file("repo"));
    Repo repo(dir.file("repo"));
    repo.commit(engineSource(100, 1111), "Weak engine\n\nBench: 1111");
    repo.git({"tag", "weak"});
    repo.commit(engineSource(2000, 2222), "Strong engine\n\nBench: 2222");
    std::vector<std::string> args = {bin("xq"),       "regress",
                                     "--base",        "weak",
                                     "--dev",         "HEAD",
                                     "--build",       "cc -O1 -o engine engine.c",
                                     "--binary",      "engine",
                                     "--each",        "nodes=1000",
                                     "--sprt",        "elo0=0,elo1=150",
                                     "--max-moves",   "100",
                                     "--rules",       "chinese",
                                     "--concurrency", "2",
                                     "--data",        dir.file("regress"),
                                     "--json",        dir.file("result.json")};
    auto openings = openingArgs();
    args.insert(args.end(), openings.begin(), openings.end());
    // From inside the repository, as a developer runs it: the refs are the working directory's.
    std::string command = "cd '" + repo.path + "' && exec";
    for (const auto& a : args) command += " '" + a + "'";
    auto r = runCommand({"/bin/sh", "-c", command}, dir.path, {}, std::chrono::seconds(240));
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("weak is "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"Strong engine\" (Bench: 2222)"), std::string::npos) << r.out;
    auto result = json::parse(readFileOrEmpty(dir.file("result.json")));
    EXPECT_EQ(result["result"], "H1 accepted") << result.dump();
    EXPECT_EQ(result["dev"]["source"]["subject"], "Strong engine");
    EXPECT_EQ(result["rules"], "chinese");
}
