// Networks as artifacts (xq submit --dev-net, xq nets, the web view's networks) with real processes:
// xq-coordinator on 127.0.0.1 with an OS-picked port and a real store, a real xq-worker, xq-engine playing
// with a random network from `xq-engine nnue random`.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "client.h"
#include "cluster.h"
#include "nnue_network.h"
#include "submission.h"
#include "util/sha256.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace {

// A valid random network with 16 hidden units (small and quick).
std::string makeNet(Cluster& c, const std::string& name, int seed) {
    std::string path = c.dir.file(name);
    auto r = runCommand({bin("xq-engine"), "nnue", "random", path, "16", std::to_string(seed)}, c.dir.path);
    EXPECT_EQ(r.code, 0) << r.err;
    return path;
}

// The network's name as the engine prints it (`xq-engine nnue info`): xq-<first 12 hex of its SHA-256>.nnue.
std::string engineNetName(Cluster& c, const std::string& path) {
    auto r = runCommand({bin("xq-engine"), "nnue", "info", path}, c.dir.path);
    EXPECT_EQ(r.code, 0) << r.err;
    auto at = r.out.find("\nname:");
    if (at == std::string::npos) return "";
    at = r.out.find("xq-", at);
    return at == std::string::npos ? "" : r.out.substr(at, 3 + 12 + 5);
}

std::vector<std::string> submitArgs(const std::string& dev, const std::string& net) {
    return {"submit", "--base",    bin("xq-engine"), "--dev", dev,           "--dev-net", net,
            "--each", "nodes=100", "--games",        "2",     "--max-moves", "40",        "--no-openings"};
}

std::uint64_t idOf(const CommandResult& r) {
    EXPECT_EQ(r.code, 0) << r.err;
    return std::stoull(lastLine(r.out));
}

ino_t inodeOf(const std::string& path) {
    struct stat st {};
    stat(path.c_str(), &st);
    return st.st_ino;
}

}  // namespace

TEST(NetCluster, ASubmittedNetworkIsUploadedOncePlayedListedAndDownloaded) {
    Cluster c;
    c.coordinatorArgs.insert(c.coordinatorArgs.end(), {"--http", "127.0.0.1:0"});
    c.startCoordinator();
    auto web = c.coordinator->waitForLine("web view on ");
    ASSERT_TRUE(web) << c.coordinator->err();
    const std::string net = makeNet(c, "dev.nnue", 7);
    const std::string sha = xq::sha256File(net);
    const std::string name = engineNetName(c, net);
    ASSERT_EQ(name, "xq-" + sha.substr(0, 12) + ".nnue");
    const std::string engine = loggingEngine(c);

    auto first = idOf(c.xq(submitArgs(engine, net)));
    const std::string stored = c.data + "/artifacts/" + sha;
    ASSERT_EQ(readFileOrEmpty(stored), readFileOrEmpty(net));
    const ino_t inode = inodeOf(stored);
    // The same file again: the coordinator has it, nothing is uploaded (the stored file stays the same one).
    auto second = idOf(c.xq(submitArgs(engine, net)));
    EXPECT_EQ(inodeOf(stored), inode);
    {
        xq::coord::Client client({c.address, c.userToken, ""});
        bool present = false;
        EXPECT_EQ(client.upload(net, "net", &present), sha);
        EXPECT_TRUE(present);
    }
    EXPECT_EQ(c.show(first)["dev"]["net"], sha);

    // The worker plays with it: the engine is given the cached file (the same bytes) and Use NNUE.
    c.workerArgs = {"--no-sandbox"};
    c.startWorker();
    for (auto id : {first, second}) {
        auto view = c.waitFor(id, [](const json& v) { return v["state"] != "running"; });
        EXPECT_EQ(view["state"], "finished") << c.workerLogs();
        EXPECT_EQ(view["games"], 2);
    }
    const std::string in = readFileOrEmpty(c.dir.file("engine.in")),
                      out = readFileOrEmpty(c.dir.file("engine.out"));
    const std::string set = "setoption name EvalFile value ";
    auto at = in.find(set);
    ASSERT_NE(at, std::string::npos) << in;
    std::string cached = in.substr(at + set.size(), in.find('\n', at) - at - set.size());
    EXPECT_EQ(xq::sha256File(cached), sha) << cached;
    EXPECT_NE(in.find("setoption name Use NNUE value true"), std::string::npos) << in;
    EXPECT_NE(out.find("EvalFile: loaded network " + name), std::string::npos) << out;
    EXPECT_EQ(out.find("error"), std::string::npos) << out;

    // Listed with both tests; downloaded by hash, the same bytes.
    auto list = c.xq({"nets", "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    auto nets = json::parse(list.out);
    ASSERT_EQ(nets.size(), 1u) << list.out;
    EXPECT_EQ(nets[0]["sha256"], sha);
    EXPECT_EQ(nets[0]["size"], readFileOrEmpty(net).size());
    EXPECT_EQ(nets[0]["tests"], json::array({first, second}));
    auto text = c.xq({"nets"});
    EXPECT_NE(text.out.find(sha.substr(0, 12)), std::string::npos) << text.out;
    const std::string copy = c.dir.file("copy.nnue");
    auto dl = c.xq({"nets", "download", sha, "--out", copy});
    ASSERT_EQ(dl.code, 0) << dl.err;
    EXPECT_EQ(readFileOrEmpty(copy), readFileOrEmpty(net));
    auto bad = c.xq({"nets", "download", "not-a-hash", "--out", copy});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("not a SHA-256"), std::string::npos) << bad.err;

    // The web view: the test page names the network with its download link, the networks page lists it
    // with its tests, the download is the file, and a hostile hash gets 400 or 404.
    httplib::Client http(*web);
    auto page = http.Get("/tests/" + std::to_string(first));
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find("href=\"/nets/" + sha + "\""), std::string::npos) << page->body;
    auto netsPage = http.Get("/nets");
    ASSERT_TRUE(netsPage);
    EXPECT_EQ(netsPage->status, 200);
    EXPECT_NE(netsPage->body.find(sha.substr(0, 12)), std::string::npos);
    EXPECT_NE(netsPage->body.find("href=\"/tests/" + std::to_string(second) + "\""), std::string::npos);
    auto file = http.Get("/nets/" + sha);
    ASSERT_TRUE(file);
    EXPECT_EQ(file->status, 200);
    EXPECT_EQ(file->body, readFileOrEmpty(net));
    EXPECT_NE(file->get_header_value("Content-Disposition").find(name), std::string::npos);
    for (const std::string& hostile : {std::string("not-a-hash"), std::string(64, 'A'), sha + "0"}) {
        auto r = http.Get("/nets/" + hostile);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400) << hostile;
        EXPECT_NE(r->body.find("SHA-256"), std::string::npos) << r->body;
    }
    auto unknown = http.Get("/nets/" + std::string(64, 'a'));
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->status, 404);
}

TEST(NetCluster, ACorruptNetworkIsRefusedAtSubmitNamingTheFile) {
    Cluster c;
    c.startCoordinator();
    const std::string net = makeNet(c, "good.nnue", 3);
    std::string bytes = readFileOrEmpty(net);
    const std::string flipped = c.dir.file("flipped.nnue"), cut = c.dir.file("cut.nnue"),
                      text = c.dir.file("text.nnue");
    std::string f = bytes;
    f[f.size() / 2] ^= 0x40;
    writeFile(flipped, f);
    writeFile(cut, bytes.substr(0, bytes.size() - 100));
    writeFile(text, "xq-weights 1\n" + std::string(200, '#') + "\n");
    for (const auto& [file, why] :
         {std::pair{flipped, std::string("hash mismatch")}, std::pair{cut, std::string("truncated")},
          std::pair{text, std::string("magic")}}) {
        auto r = c.xq(submitArgs(bin("xq-engine"), file));
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_NE(r.err.find("dev network file '" + file + "'"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    }
    // A client that skips the check: the coordinator reads the header itself and refuses the test.
    {
        xq::coord::Client client({c.address, c.userToken, ""});
        xq::coord::SubmissionOptions o;
        o.each = {"nodes=100"};
        o.games = 2;
        xq::coord::ArtifactHashes h;
        h.base = h.dev = client.upload(bin("xq-engine"));
        // Uploaded as a network, it is refused; as a plain artifact it is stored.
        try {
            client.upload(text, "net");
            ADD_FAILURE() << "a text file was taken as a network";
        } catch (const xq::coord::RpcError& e) {
            EXPECT_NE(std::string(e.what()).find("not an XQNNUE network file"), std::string::npos)
                << e.what();
        }
        h.devNet = client.upload(text);
        xq::v1::SubmitRequest req;
        *req.mutable_spec() = xq::coord::buildTestSpec(o, h);
        xq::v1::SubmitResponse resp;
        auto ctx = client.context();
        auto status = client.user().SubmitTest(ctx.get(), req, &resp);
        EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
        EXPECT_NE(status.error_message().find("dev network " + h.devNet.substr(0, 12) +
                                              ": wrong magic: not an XQNNUE network file"),
                  std::string::npos)
            << status.error_message();
    }
    auto list = c.xq({"nets", "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_TRUE(json::parse(list.out).empty()) << list.out;
    auto tests = c.xq({"tests", "--json"});
    EXPECT_TRUE(json::parse(tests.out).empty()) << tests.out;
}

TEST(NetCluster, ATestWhoseNetworkIsDamagedInTheStoreFailsSayingSo) {
    Cluster c;
    c.startCoordinator();
    const std::string net = makeNet(c, "dev.nnue", 5);
    const std::string sha = xq::sha256File(net);
    auto id = idOf(c.xq(submitArgs(bin("xq-engine"), net)));
    // Changed behind the coordinator's back: the worker's download fails its hash check.
    writeFile(c.data + "/artifacts/" + sha, "not the network any more");
    c.startWorker();
    auto view = c.waitFor(id, [](const json& v) { return v["state"] != "running"; });
    EXPECT_EQ(view["state"], "failed") << c.workerLogs();
    std::string result = view["result"];
    EXPECT_NE(result.find("dev network " + sha), std::string::npos) << result;
    EXPECT_NE(result.find("damaged"), std::string::npos) << result;
}

// mock-engine declares EvalFile (for weights) but not Use NNUE: it cannot play a network, and says so.
TEST(NetCluster, AnEngineWithoutTheNetworkOptionsFailsTheJobInsteadOfIgnoringTheNetwork) {
    Cluster c;
    c.startCoordinator();
    const std::string net = makeNet(c, "dev.nnue", 9);
    auto id = idOf(c.xq(submitArgs(bin("mock-engine"), net)));
    c.startWorker();
    auto view = c.waitFor(id, [](const json& v) {
        for (const auto& e : v["events"])
            if (e.get<std::string>().find("could not play") != std::string::npos) return true;
        return false;
    });
    std::string events = view["events"].dump();
    EXPECT_NE(events.find("engine 'dev' has no option 'Use NNUE'"), std::string::npos)
        << events << c.workerLogs();
    EXPECT_EQ(view["games"], 0);
}

// The worker's sandbox (on by default) lets the engine read the cached network: the games are played, none
// lost to a crash.
TEST(NetCluster, ASandboxedEngineReadsItsNetwork) {
    Cluster c;
    c.startCoordinator();
    const std::string net = makeNet(c, "base.nnue", 11);
    auto args = submitArgs(bin("xq-engine"), net);
    args.insert(args.end(), {"--base-net", net});
    auto id = idOf(c.xq(args));
    c.startWorker();
    auto view = c.waitFor(id, [](const json& v) { return v["state"] != "running"; });
    EXPECT_EQ(view["state"], "finished") << c.workerLogs();
    EXPECT_EQ(view["games"], 2);
    EXPECT_EQ(view["failures"]["crashes"], 0) << view.dump();
    EXPECT_EQ(view["base"]["net"], xq::sha256File(net));
}

// A network whose header is sound but whose output weights break the engine's limits (|W2| <= 127): the
// client refuses it, and so does the coordinator, as a network upload and when a test names it as a plain
// artifact (a client that skipped the check): both read with the engine's own reader.
TEST(NetCluster, ANetworkTheEngineWouldRefuseIsRefusedByTheClientAndTheCoordinator) {
    Cluster c;
    c.startCoordinator();
    xq::nnue::Network strong = xq::nnue::loadNetworkFile(makeNet(c, "dev.nnue", 13));
    strong.w2[0] = 1000;
    const std::string net = c.dir.file("strong.nnue");
    writeFile(net, xq::nnue::serializeNetwork(strong));  // correctly hashed
    auto refused = c.xq(submitArgs(bin("xq-engine"), net));
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.err.find("W2"), std::string::npos) << refused.err;

    xq::coord::Client client({c.address, c.userToken, ""});
    try {
        client.upload(net, "net");
        ADD_FAILURE() << "a network the engine refuses was taken";
    } catch (const xq::coord::RpcError& e) {
        EXPECT_NE(std::string(e.what()).find("output weight W2[0] = 1000"), std::string::npos) << e.what();
    }
    xq::coord::SubmissionOptions o;
    o.each = {"nodes=100"};
    o.games = 2;
    xq::coord::ArtifactHashes hashes;
    hashes.base = hashes.dev = client.upload(bin("xq-engine"));
    hashes.devNet = client.upload(net);
    xq::v1::SubmitRequest req;
    *req.mutable_spec() = xq::coord::buildTestSpec(o, hashes);
    xq::v1::SubmitResponse resp;
    auto ctx = client.context();
    auto status = client.user().SubmitTest(ctx.get(), req, &resp);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(status.error_message().find("output weight W2[0] = 1000"), std::string::npos)
        << status.error_message();
}

// An engine that refuses the network the coordinator took (here a wrapper that hands xq-engine a truncated
// copy, as an engine with another reader would refuse the file) fails the job saying so instead of playing
// without the network.
TEST(NetCluster, ANetworkTheEngineRefusesFailsTheJob) {
    Cluster c;
    c.startCoordinator();
    const std::string net = makeNet(c, "dev.nnue", 13);
    const std::string cut = c.dir.file("cut.nnue");
    writeFile(cut, readFileOrEmpty(net).substr(0, 1000));
    const std::string engine = c.dir.file("refusing-engine.sh");
    writeFile(engine,
              "#!/bin/sh\nsed -u 's|^setoption name EvalFile value .*|setoption name EvalFile value " + cut +
                  "|' | '" + bin("xq-engine") + "' \"$@\"\n");
    chmod(engine.c_str(), 0755);
    auto id = idOf(c.xq(submitArgs(engine, net)));
    c.workerArgs = {"--no-sandbox"};
    c.startWorker();
    auto view = c.waitFor(
        id, [](const json& v) { return v["events"].dump().find("could not play") != std::string::npos; });
    std::string events = view["events"].dump();
    EXPECT_NE(
        events.find("engine 'dev' refused a setting: EvalFile: network file '" + cut + "': file truncated"),
        std::string::npos)
        << events << c.workerLogs();
    EXPECT_EQ(view["games"], 0);
}
