#include "http_listen.h"

#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <memory>
#include <stdexcept>

namespace xq::http {

std::string bindHttp(httplib::Server& server, const std::string& listen) {
    const auto colon = listen.rfind(':');
    if (colon == std::string::npos) throw std::runtime_error("--http wants HOST:PORT, got '" + listen + "'");
    std::string host = listen.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    int port = 0;
    try {
        std::size_t used = 0;
        port = std::stoi(listen.substr(colon + 1), &used);
        if (used != listen.size() - colon - 1 || port < 0 || port > 65535) throw std::out_of_range("port");
    } catch (const std::exception&) {
        throw std::runtime_error("--http wants HOST:PORT, got '" + listen + "'");
    }
    // httplib sets a socket's options just before it binds it: remember the socket it bound last. Its
    // default options add SO_REUSEPORT, under which a second server on the same port would bind too and
    // take half the connections; SO_REUSEADDR alone lets a restarted server bind at once and still
    // refuses a port in use.
    auto bound = std::make_shared<std::atomic<int>>(-1);
    server.set_socket_options([bound](int sock) {
        const int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        bound->store(sock);
    });
    if (port == 0)
        port = server.bind_to_any_port(host);
    else if (!server.bind_to_port(host, port))
        port = -1;
    server.set_socket_options(httplib::default_socket_options);
    if (port <= 0) throw std::runtime_error("cannot serve HTTP on " + listen);
    // Listening again on a listening socket only changes its backlog (Linux).
    if (bound->load() >= 0 && ::listen(bound->load(), ListenBacklog) != 0)
        throw std::runtime_error("cannot widen the listen backlog of " + listen);
    return listen.substr(0, colon) + ":" + std::to_string(port);
}

}  // namespace xq::http
