// The coordinator's web view (`xq-coordinator --http HOST:PORT`): HTML pages of tests, one test with its
// charts, workers and benchmarks; JSON of the same under /api/; Prometheus metrics at /metrics; a test's
// games as one PGN download; and, for a user logged in with their token, submitting and stopping tests.
// Readers need no login. Served by cpp-httplib on its own address (it may differ from gRPC's), with TLS
// when given a certificate; the routes call the Coordinator directly.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "coordinator.h"
#include "web_pages.h"
#include "web_sessions.h"

namespace httplib {
class Server;
class Request;
class Response;
}  // namespace httplib

namespace xq::coord {

class BenchJobs;

struct WebOptions {
    std::string listen;                     // HOST:PORT; port 0: the OS picks one
    std::string tlsCertPath, tlsKeyPath;    // both given: HTTPS
    std::size_t maxUploadBytes = 64 << 20;  // largest request body (the submit form's engine uploads)
    std::int64_t sessionSeconds = 12 * 3600;
    std::size_t maxSessions = 10'000;
    int perPageDefault = 50;
};

class WebServer {
  public:
    // Binds and starts serving; throws std::runtime_error when the address cannot be bound or the
    // certificate cannot be loaded. `bench` may be null (no benchmarks page).
    WebServer(Coordinator& coordinator, BenchJobs* bench, WebOptions options);
    ~WebServer();

    const std::string& address() const { return address_; }  // host:port actually bound
    std::string url() const;                                 // http(s)://host:port
    void stop();

  private:
    struct Context;
    void routes();
    void runRoutes();  // a run's pages, buttons, JSON and form (web_run_routes.cpp)
    // Runs a handler: metrics, security headers, errors as pages (or JSON under /api/).
    void handle(const char* route, const httplib::Request& req, httplib::Response& res,
                const std::function<void()>& fn);
    // Who reads the page (their session's name and form token, if logged in) and the time now.
    web::PageContext pageContext(const httplib::Request& req);
    std::optional<WebSession> session(const httplib::Request& req);
    // The session of a POST whose form token matches; throws PermissionDenied/Unauthenticated otherwise.
    WebSession postSession(const httplib::Request& req);
    // The stored artifacts the submit form offers, each with its kind (one stored without a kind is taken
    // for an engine when it starts as an executable does).
    std::vector<Coordinator::ArtifactInfo> formArtifacts();
    // Stores a file of the form (or finds it stored) after checking that it is of `kind`; returns its hash.
    // InvalidArgument names the field (`what`) and what is wrong with the file.
    std::string storeArtifact(const Caller& caller, const std::string& content, const std::string& name,
                              const std::string& kind, const std::string& what);
    // Builds and submits the test of the submit form; returns its id.
    std::uint64_t submitForm(const httplib::Request& req, const Caller& caller);
    // The fields of a refused submission, to fill the form again.
    web::FormValues submittedValues(const httplib::Request& req) const;
    // Builds and submits the run of the run form (web_run_routes.cpp); returns its id.
    std::uint64_t submitRunForm(const httplib::Request& req, const Caller& caller);

    Coordinator& coord_;
    BenchJobs* bench_;
    WebOptions options_;
    WebSessions sessions_;
    std::unique_ptr<httplib::Server> server_;
    std::string address_;
    bool tls_ = false;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace xq::coord
