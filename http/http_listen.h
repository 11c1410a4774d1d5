// Binding an HTTP server to HOST:PORT. cpp-httplib 0.11 listens with a backlog of 5 connections: a
// burst of new connections (fifty players opening the page at once, a fleet's dashboards) overflows it,
// and the kernel answers the overflow with SYN cookies under which some clients' first request is lost
// ("Read" errors). bindHttp binds as httplib does, then widens the backlog; and it binds without
// SO_REUSEPORT, so that a port already served is refused rather than shared.
#pragma once

#include <string>

namespace httplib {
class Server;
}

namespace xq::http {

constexpr int ListenBacklog = 1024;

// Binds `server` to `listen` ("HOST:PORT", "[v6]:PORT"; port 0: the system picks one) with a backlog of
// ListenBacklog, and returns the address bound ("HOST:PORT" with the real port). Throws
// std::runtime_error naming the address when it is malformed or cannot be bound. Call before
// listen_after_bind().
std::string bindHttp(httplib::Server& server, const std::string& listen);

}  // namespace xq::http
