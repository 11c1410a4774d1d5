// The coordinator over TLS, as a deployment with a certificate meets it: clients that trust the
// certificate work, plaintext clients are refused.
#include <gtest/gtest.h>

#include "cluster.h"

using namespace xq::coord::testing;

TEST(Tls, CoordinatorServesTlsClientsAndRefusesPlaintext) {
    Cluster c;
    const std::string cert = c.dir.file("cert.pem"), key = c.dir.file("key.pem");
    auto made = runCommand(
        {"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
         "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"},
        c.dir.path);
    ASSERT_EQ(made.code, 0) << "openssl could not make a test certificate: " << made.err;
    c.coordinatorArgs.insert(c.coordinatorArgs.end(), {"--tls-cert", cert, "--tls-key", key});
    c.startCoordinator();

    auto secure = c.xq({"workers", "--json", "--tls-ca", cert});
    EXPECT_EQ(secure.code, 0) << secure.err;
    auto plain = c.xq({"workers", "--json"});
    EXPECT_NE(plain.code, 0) << "a plaintext client must not get an answer from a TLS coordinator";

    // A worker that trusts the certificate registers and is listed.
    auto& w = c.workers.emplace_back(std::make_unique<Process>(
        std::vector<std::string>{bin("xq-worker"), "--coordinator", c.address, "--token", c.workerToken,
                                 "--tls-ca", cert, "--nps", "1000000", "--name", "tls-worker"},
        c.dir.file("worker.out"), c.dir.file("worker.err")));
    bool listed = false;
    for (int i = 0; i < 100 && !listed; ++i) {
        auto r = c.xq({"workers", "--json", "--tls-ca", cert});
        listed = r.code == 0 && r.out.find("tls-worker") != std::string::npos;
        if (!listed) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(listed) << w->err();
    w->kill(SIGTERM);
    EXPECT_EQ(w->wait(std::chrono::seconds(20)), 0) << w->err();
}
