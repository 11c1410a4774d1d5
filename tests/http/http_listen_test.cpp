// bindHttp on real sockets on 127.0.0.1: a burst of connections is queued, not dropped, and every one is
// answered; malformed addresses are refused by name.
#include "http_listen.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int Burst = 100;

int portOf(const std::string& address) {
    return std::stoi(address.substr(address.rfind(':') + 1));
}

// Starts a non-blocking connection to 127.0.0.1:port.
int connectTo(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    return fd;
}

// Connections of `fds` whose handshake completed within `ms`.
int established(const std::vector<int>& fds, int ms) {
    std::vector<pollfd> polls;
    for (int fd : fds) polls.push_back({fd, POLLOUT, 0});
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until) {
        ::poll(polls.data(), polls.size(), 50);
        int done = 0;
        for (const auto& p : polls) done += (p.revents & POLLOUT) != 0;
        if (done == int(fds.size())) break;
    }
    int ok = 0;
    for (const auto& p : polls) {
        int error = 0;
        socklen_t len = sizeof error;
        if ((p.revents & POLLOUT) && ::getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &error, &len) == 0 && !error)
            ++ok;
    }
    return ok;
}

}  // namespace

TEST(BindHttp, ABurstOfConnectionsIsQueuedBeforeTheServerAcceptsAny) {
    httplib::Server server;
    server.Get("/",
               [](const httplib::Request&, httplib::Response& res) { res.set_content("ok", "text/plain"); });
    const std::string address = xq::http::bindHttp(server, "127.0.0.1:0");
    const int port = portOf(address);
    ASSERT_GT(port, 0);
    // Nothing accepts yet: httplib's own backlog of 5 would complete about six handshakes and drop the
    // rest of the SYNs.
    std::vector<int> fds;
    for (int i = 0; i < Burst; ++i) fds.push_back(connectTo(port));
    EXPECT_EQ(established(fds, 2000), Burst);

    // Once the server runs, every queued connection is answered.
    server.new_task_queue = [] { return new httplib::ThreadPool(8); };
    std::thread serving([&] { server.listen_after_bind(); });
    const std::string request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    int answered = 0;
    for (int fd : fds) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        timeval tv{10, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != ssize_t(request.size())) continue;
        std::string reply;
        char buf[1024];
        for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) reply.append(buf, std::size_t(n));
        answered += reply.rfind("HTTP/1.1 200", 0) == 0;
        ::close(fd);
    }
    EXPECT_EQ(answered, Burst);
    server.stop();
    serving.join();
}

TEST(BindHttp, ReturnsTheAddressWithThePortTheSystemPicked) {
    httplib::Server server;
    const std::string address = xq::http::bindHttp(server, "127.0.0.1:0");
    EXPECT_EQ(address.rfind("127.0.0.1:", 0), 0u);
    EXPECT_GT(portOf(address), 0);
}

TEST(BindHttp, RefusesAMalformedAddressNamingIt) {
    for (const std::string bad : {"localhost", "127.0.0.1:http", "127.0.0.1:80x", "127.0.0.1:70000"}) {
        httplib::Server server;
        try {
            xq::http::bindHttp(server, bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(e.what()), "--http wants HOST:PORT, got '" + bad + "'");
        }
    }
}

TEST(BindHttp, SaysWhichAddressCannotBeBound) {
    httplib::Server first, second;
    const std::string address = xq::http::bindHttp(first, "127.0.0.1:0");
    try {
        xq::http::bindHttp(second, address);
        ADD_FAILURE() << "bound twice to " << address;
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "cannot serve HTTP on " + address);
    }
}
