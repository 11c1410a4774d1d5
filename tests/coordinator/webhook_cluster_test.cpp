// Webhooks on a real coordinator (issue 59): a receiver on loopback gets a test's start and finish, each
// body signed with the submitter's secret; a receiver that is down is tried again and shown as failed while
// the test itself runs to its end; bad input (no secret, a short one, a malformed URL) is refused with the
// reason.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <thread>

#include "cluster.h"
#include "util/sha256.h"

using namespace xq::coord::testing;
using nlohmann::json;

namespace webhook_cluster_test {

struct Received {
    std::string event, signature, body;
};

// A receiver on 127.0.0.1 that keeps what it is sent.
struct Receiver {
    httplib::Server server;
    std::thread thread;
    int port = 0;
    std::mutex mutex;
    std::vector<Received> got;

    Receiver() {
        server.Post("/hook", [this](const httplib::Request& req, httplib::Response& res) {
            std::lock_guard lock(mutex);
            got.push_back(
                {req.get_header_value("X-Xq-Event"), req.get_header_value("X-Xq-Signature-256"), req.body});
            res.set_content("thanks", "text/plain");
        });
        port = server.bind_to_any_port("127.0.0.1");
        thread = std::thread([this] { server.listen_after_bind(); });
        while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ~Receiver() {
        server.stop();
        thread.join();
    }
    std::vector<Received> received() {
        std::lock_guard lock(mutex);
        return got;
    }
};

// A loopback port with nothing listening on it.
int deadPort() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    close(fd);
    return ntohs(a.sin_port);
}

const std::string Secret = "a secret of at least sixteen characters";

CommandResult setSecret(Cluster& c, const std::string& secret) {
    return runCommand(
        {"/bin/sh", "-c", "printf %s \"$0\" | \"$1\" webhook-secret --coordinator \"$2\" --token \"$3\"",
         secret, bin("xq"), c.address, c.userToken},
        c.dir.path);
}

TEST(WebhookCluster, AReceiverGetsTheStartAndTheFinishSignedAndADeadOneIsRetriedAndShownFailed) {
    Receiver receiver;
    const std::string live = "http://127.0.0.1:" + std::to_string(receiver.port) + "/hook";
    const std::string dead = "http://127.0.0.1:" + std::to_string(deadPort()) + "/hook";
    Cluster c;
    c.coordinatorArgs.insert(c.coordinatorArgs.end(), {"--webhook-attempts", "3", "--webhook-retry-ms", "200",
                                                       "--public-url", "http://xq.example.test/"});
    c.startCoordinator();

    // Without a secret, webhooks are refused; a short secret is refused.
    std::vector<std::string> args = {"submit",
                                     "--base",
                                     bin("xq-engine"),
                                     "--dev",
                                     bin("xq-engine"),
                                     "--each",
                                     "nodes=300",
                                     "--games",
                                     "4",
                                     "--max-moves",
                                     "120",
                                     "--webhook",
                                     live,
                                     "--webhook",
                                     dead + ",format=text"};
    for (const auto& a : openingArgs()) args.push_back(a);
    auto noSecret = c.xq(args);
    EXPECT_NE(noSecret.code, 0);
    EXPECT_NE(noSecret.err.find("xq webhook-secret"), std::string::npos) << noSecret.err;
    auto shortSecret = setSecret(c, "short");
    EXPECT_NE(shortSecret.code, 0);
    EXPECT_NE(shortSecret.err.find("at least 16 characters"), std::string::npos) << shortSecret.err;
    auto malformed = args;
    malformed.push_back("--webhook");
    malformed.push_back("ftp://example.org/hook");
    auto setOk = setSecret(c, Secret);
    ASSERT_EQ(setOk.code, 0) << setOk.err;
    auto refused = c.xq(malformed);
    EXPECT_NE(refused.code, 0);
    EXPECT_NE(refused.err.find("webhook URL 'ftp://example.org/hook' must start with http:// or https://"),
              std::string::npos)
        << refused.err;

    auto submitted = c.xq(args);
    ASSERT_EQ(submitted.code, 0) << submitted.err;
    const auto id = std::stoull(lastLine(submitted.out));
    c.startWorker();
    auto view = c.waitFor(id, [](const json& v) { return v["state"] == "finished"; });
    ASSERT_EQ(view["state"], "finished") << c.workerLogs();

    // The live receiver: the start, then the finish, each signed; the dead one: three attempts each, failed.
    json shown;
    for (int i = 0; i < 200; ++i) {
        shown = c.show(id);
        int settled = 0;
        for (const auto& w : shown.value("webhooks", json::array())) settled += w["state"] != "pending";
        if (settled == 4) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(shown["webhooks"].size(), 4u) << shown.dump();
    for (const auto& w : shown["webhooks"]) {
        if (w["url"] == live) {
            EXPECT_EQ(w["state"], "delivered") << w.dump();
            EXPECT_EQ(w["attempts"], 1);
            EXPECT_EQ(w["http_status"], 200);
        } else {
            EXPECT_EQ(w["state"], "failed") << w.dump();
            EXPECT_EQ(w["attempts"], 3);
            EXPECT_NE(w["last_error"].get<std::string>().find("no answer"), std::string::npos) << w.dump();
        }
    }
    std::string events;
    for (const auto& e : shown["events"]) events += e.get<std::string>() + "\n";
    EXPECT_NE(events.find("webhook " + dead + " (finish) not delivered after 3 attempts"), std::string::npos)
        << events;

    auto got = receiver.received();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].event, "start");
    EXPECT_EQ(got[1].event, "finish");
    for (const auto& r : got) {
        EXPECT_EQ(r.signature, "sha256=" + xq::hmacSha256Hex(Secret, r.body)) << "the receiver can check it";
        auto body = json::parse(r.body);
        EXPECT_EQ(body["event"], r.event);
        EXPECT_EQ(body["test_id"], id);
        EXPECT_EQ(body["link"], "http://xq.example.test/tests/" + std::to_string(id));
    }
    auto finish = json::parse(got[1].body);
    EXPECT_EQ(finish["state"], "finished");
    EXPECT_EQ(finish["games"], 4);
    EXPECT_EQ(finish["exit_code"], 0);
}

}  // namespace webhook_cluster_test
