#include "web_server.h"

#include <google/protobuf/util/json_util.h>
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "artifact_check.h"
#include "bench_jobs.h"
#include "html.h"
#include "http_listen.h"
#include "net_file.h"
#include "submission.h"
#include "test_report.h"
#include "util/sha256.h"
#include "web_assets.h"
#include "web_form.h"
#include "web_pages.h"

namespace xq::coord {

namespace {

using nlohmann::json;
using namespace webform;

constexpr const char* SessionCookie = "xq_session";

// Reads may use the calls that need a user role (data chunks, benchmarks): readers need no login.
const Caller Reader{0, Role::User, "web reader"};

std::string cookieValue(const httplib::Request& req, const std::string& name) {
    std::string cookies = req.get_header_value("Cookie");
    std::size_t pos = 0;
    while (pos < cookies.size()) {
        std::size_t end = cookies.find(';', pos);
        if (end == std::string::npos) end = cookies.size();
        std::string item = cookies.substr(pos, end - pos);
        item.erase(0, item.find_first_not_of(' '));
        if (item.rfind(name + "=", 0) == 0) return item.substr(name.size() + 1);
        pos = end + 1;
    }
    return {};
}

bool constantTimeEqual(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

}  // namespace

WebServer::WebServer(Coordinator& coordinator, BenchJobs* bench, WebOptions options)
    : coord_(coordinator),
      bench_(bench),
      options_(std::move(options)),
      sessions_(coordinator, options_.sessionSeconds * 1000, options_.maxSessions) {
    if (!options_.tlsCertPath.empty() || !options_.tlsKeyPath.empty()) {
        if (options_.tlsCertPath.empty() || options_.tlsKeyPath.empty())
            throw std::runtime_error("HTTPS needs both a certificate and a key");
        auto ssl =
            std::make_unique<httplib::SSLServer>(options_.tlsCertPath.c_str(), options_.tlsKeyPath.c_str());
        if (!ssl->is_valid())
            throw std::runtime_error("cannot load the HTTPS certificate '" + options_.tlsCertPath +
                                     "' or key '" + options_.tlsKeyPath + "'");
        server_ = std::move(ssl);
        tls_ = true;
    } else {
        server_ = std::make_unique<httplib::Server>();
    }
    server_->set_payload_max_length(options_.maxUploadBytes);
    server_->set_read_timeout(30, 0);
    server_->set_write_timeout(30, 0);
    server_->set_keep_alive_max_count(100);
    server_->set_tcp_nodelay(true);  // else small responses wait on the delayed ACK (40 ms)
    // Each open connection holds a thread of the pool: keep idle ones short, so that pages refreshing
    // every 2.5 s do not hold threads between refreshes.
    server_->set_keep_alive_timeout(2);
    server_->new_task_queue = [] { return new httplib::ThreadPool(32); };
    // Bodies this server reads are bounded by their Content-Length (set_payload_max_length). A body
    // without one (chunked) or compressed would be read without a bound, and many ranges of one reply
    // would each be built in memory: all refused before anything is read.
    server_->set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
        auto refuse = [&](int status, const std::string& why) {
            res.status = status;
            res.set_content(why + "\n", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        };
        if (req.has_header("Transfer-Encoding"))
            return refuse(411, "send the request body with a Content-Length, not chunked");
        if (req.has_header("Content-Encoding"))
            return refuse(415, "compressed request bodies are not accepted");
        if (req.get_header_value("Range").find(',') != std::string::npos)
            return refuse(416, "one range at most");
        return httplib::Server::HandlerResponse::Unhandled;
    });
    routes();

    address_ = http::bindHttp(*server_, options_.listen);
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    // stop() before the server runs would not reach it: wait until it does.
    for (int i = 0; i < 500 && !server_->is_running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

WebServer::~WebServer() {
    stop();
}

std::string WebServer::url() const {
    return (tls_ ? "https://" : "http://") + address_;
}

void WebServer::stop() {
    stopping_ = true;  // ends downloads in progress
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
}

std::optional<WebSession> WebServer::session(const httplib::Request& req) {
    std::string id = cookieValue(req, SessionCookie);
    if (id.empty()) return std::nullopt;
    return sessions_.find(id);
}

WebSession WebServer::postSession(const httplib::Request& req) {
    auto s = session(req);
    if (!s) throw CoordError(ErrorCode::Unauthenticated, "log in first (this needs a user token)");
    if (!constantTimeEqual(formValue(req, "csrf"), s->csrf))
        throw CoordError(ErrorCode::PermissionDenied,
                         "the form's token does not match your session; reload the page and try again");
    return *s;
}

void WebServer::handle(const char* route, const httplib::Request& req, httplib::Response& res,
                       const std::function<void()>& fn) {
    auto start = std::chrono::steady_clock::now();
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("X-Frame-Options", "DENY");
    res.set_header("Referrer-Policy", "same-origin");
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                   "form-action 'self'; frame-ancestors 'none'");
    const bool api = req.path.rfind("/api/", 0) == 0;
    auto fail = [&](int status, const std::string& message) {
        res.status = status;
        if (api) {
            res.set_content(json{{"error", message}}.dump(), "application/json");
            return;
        }
        web::PageContext ctx;
        ctx.nowUnix = coord_.nowMs() / 1000;
        if (auto s = session(req)) ctx.user = s->caller.name, ctx.csrf = s->csrf;
        res.set_content(web::errorPage(ctx, status, message), "text/html; charset=utf-8");
    };
    try {
        // A form posted from another site is refused even before its token is checked.
        if (req.method == "POST" && req.has_header("Origin")) {
            std::string origin = req.get_header_value("Origin");
            std::string host = req.get_header_value("Host");
            if (origin != "http://" + host && origin != "https://" + host)
                throw CoordError(ErrorCode::PermissionDenied,
                                 "cross-site form refused (Origin " + origin + ")");
        }
        fn();
    } catch (const CoordError& e) {
        fail(httpStatus(e.code), e.what());
    } catch (const std::invalid_argument& e) {
        fail(400, e.what());
    } catch (const std::exception& e) {
        fail(500, std::string("coordinator error: ") + e.what());
    }
    coord_.metrics().observeHttp(
        req.method + " " + route,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

web::PageContext WebServer::pageContext(const httplib::Request& req) {
    web::PageContext ctx;
    ctx.nowUnix = coord_.nowMs() / 1000;
    if (auto ses = session(req)) {
        ctx.user = ses->caller.name.empty() ? "user" : ses->caller.name, ctx.csrf = ses->csrf;
        ctx.approver = ses->caller.role == Role::Approver;
    }
    return ctx;
}

void WebServer::routes() {
    auto& s = *server_;
    auto context = [this](const httplib::Request& req) { return pageContext(req); };
    constexpr auto page = &sendPage;
    auto testsQuery = [this](const httplib::Request& req) {
        web::TestsPageQuery q;
        q.state = req.get_param_value("state");
        q.submitter = req.get_param_value("submitter").substr(0, 200);
        q.page = std::clamp<std::int64_t>(parseNumber(req.get_param_value("page"), "page", 1), 1, 1'000'000);
        q.perPage = std::clamp<std::int64_t>(
            parseNumber(req.get_param_value("per_page"), "per_page", options_.perPageDefault), 1, 500);
        Coordinator::TestQuery tq{q.state, q.submitter, (q.page - 1) * q.perPage, q.perPage};
        return std::make_pair(q, coord_.listTestsPage(tq));
    };
    auto testData = [this](std::int64_t id) {
        web::TestPageData d;
        d.view = coord_.showTest(id);
        d.history = coord_.testHistory(id);
        d.games = coord_.gameTotals(id);
        const v1::MatchSpec* m = d.view.spec().has_match()  ? &d.view.spec().match()
                                 : d.view.spec().has_spsa() ? &d.view.spec().spsa().match()
                                                            : nullptr;
        if (m)
            for (const auto& [role, e] : {std::pair{"dev", &m->dev()}, std::pair{"base", &m->base()}}) {
                if (e->net_sha256().empty()) continue;
                web::NetUse use{role, e->net_sha256(), false, {}};
                try {
                    use.info = coord_.findArtifact(e->net_sha256());
                    use.found = true;
                } catch (const CoordError&) {
                }
                d.nets.push_back(std::move(use));
            }
        if (d.view.summary().kind() == "datagen") {
            v1::ListChunksRequest lc;
            lc.set_test_id(std::uint64_t(id));
            lc.set_limit(200);
            d.chunks = coord_.listChunks(Reader, lc);
        }
        return d;
    };

    s.Get("/", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/", req, res, [&] { redirect(res, "/tests"); });
    });
    s.Get("/tests", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/tests", req, res, [&] {
            auto [q, tests] = testsQuery(req);
            page(res, web::testsPage(context(req), q, tests));
        });
    });
    s.Get(R"(/tests/(\d+))", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/tests/:id", req, res,
               [&] { page(res, web::testPage(context(req), testData(pathId(req, 1, "test id")))); });
    });
    // The games as PGN, or as SGF for a capturego test (each test under its own format's name only).
    s.Get(R"(/tests/(\d+)/games\.(pgn|sgf)\.gz)", [=, this](const httplib::Request& req,
                                                            httplib::Response& res) {
        handle("/tests/:id/games", req, res, [&] {
            std::int64_t id = pathId(req, 1, "test id");
            coord_.gamesPage(id, 0, 0);  // NotFound before any byte is sent
            const std::string format = req.matches[2];
            const bool sgf = coord_.showTest(id).summary().game() == "capturego";
            if ((format == "sgf") != sgf)
                throw CoordError(ErrorCode::NotFound, "test " + std::to_string(id) + "'s games are " +
                                                          (sgf ? "SGF" : "PGN") + ": download games." +
                                                          (sgf ? "sgf" : "pgn") + ".gz");
            res.set_header("Content-Disposition",
                           "attachment; filename=\"test-" + std::to_string(id) + "." + format + ".gz\"");
            auto cursor = std::make_shared<std::int64_t>(0);
            res.set_chunked_content_provider(
                "application/gzip", [this, id, cursor](std::size_t, httplib::DataSink& sink) {
                    if (stopping_) return false;
                    try {
                        auto p = coord_.gamesPage(id, *cursor, 1 << 20);
                        if (p.members.empty()) {
                            sink.done();
                            return true;
                        }
                        *cursor = p.cursor;
                        for (const auto& m : p.members)
                            if (!sink.write(m.data(), m.size())) return false;
                        return true;
                    } catch (const std::exception&) {
                        return false;  // the connection is cut: a truncated gzip never passes for a whole one
                    }
                });
        });
    });
    s.Get(R"(/tests/(\d+)/chunks/(\d+))", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/tests/:id/chunks/:chunk", req, res, [&] {
            auto f = coord_.chunkFile(Reader, pathId(req, 1, "test id"), pathId(req, 2, "chunk id"));
            std::ifstream in(f.path, std::ios::binary);
            if (!in) throw CoordError(ErrorCode::NotFound, "the chunk's file cannot be read");
            std::ostringstream data;
            data << in.rdbuf();
            res.set_header("Content-Disposition",
                           "attachment; filename=\"chunk-" + req.matches[2].str() + ".txt.gz\"");
            res.set_content(data.str(), "application/gzip");
        });
    });
    s.Post(R"(/tests/(\d+)/stop)", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /tests/:id/stop", req, res, [&] {
            auto ses = postSession(req);
            v1::StopTestRequest stop;
            stop.set_test_id(std::uint64_t(pathId(req, 1, "test id")));
            std::string reason = formValue(req, "reason");
            stop.set_reason(reason.empty() ? "stopped by " + ses.caller.name + " from the web view" : reason);
            coord_.stopTest(ses.caller, stop);
            redirect(res, "/tests/" + req.matches[1].str());
        });
    });
    s.Post(R"(/tests/(\d+)/resume)", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /tests/:id/resume", req, res, [&] {
            auto ses = postSession(req);
            v1::ResumeTestRequest resume;
            resume.set_test_id(std::uint64_t(pathId(req, 1, "test id")));
            coord_.resumeTest(ses.caller, resume);
            redirect(res, "/tests/" + req.matches[1].str());
        });
    });
    // An approver releases (or rejects) a pending test from its page.
    for (bool reject : {false, true}) {
        s.Post(reject ? R"(/tests/(\d+)/reject)" : R"(/tests/(\d+)/approve)",
               [=, this](const httplib::Request& req, httplib::Response& res) {
                   handle(reject ? "POST /tests/:id/reject" : "POST /tests/:id/approve", req, res, [&] {
                       auto ses = postSession(req);
                       v1::ApproveTestRequest approve;
                       approve.set_test_id(std::uint64_t(pathId(req, 1, "test id")));
                       approve.set_reject(reject);
                       approve.set_reason(formValue(req, "reason").substr(0, 500));
                       coord_.approveTest(ses.caller, approve);
                       redirect(res, "/tests/" + req.matches[1].str());
                   });
               });
    }
    s.Get("/ladder", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/ladder", req, res, [&] { page(res, web::laddersPage(context(req), coord_.ladders())); });
    });
    s.Get(R"(/ladder/([^/]{1,100}))", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/ladder/:name", req, res, [&] {
            web::LadderPageData d;
            d.name = req.matches[1].str();  // the path arrives decoded
            auto tests = coord_.ladderTests(d.name);
            if (tests.empty()) throw CoordError(ErrorCode::NotFound, "no ladder called '" + d.name + "'");
            stats::RatingInput input;
            for (const auto& v : tests) {
                const auto& m = v.spec().match();
                if (std::find(d.versions.begin(), d.versions.end(), m.dev().name()) == d.versions.end())
                    d.versions.push_back(m.dev().name());
                const auto& sum = v.summary();
                if (sum.games() > 0)
                    input.addTotals(
                        m.dev().name(), m.base().name(),
                        {std::int64_t(sum.wdl(0)), std::int64_t(sum.wdl(1)), std::int64_t(sum.wdl(2))});
            }
            d.tests = std::int64_t(tests.size());
            stats::RatingOptions ro;
            ro.fitAdvantage = false;  // totals carry no colours
            if (!input.games.empty()) d.fit = stats::fitRatings(input.names, input.games, ro);
            page(res, web::ladderPage(context(req), d));
        });
    });
    s.Get("/nets", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/nets", req, res,
               [&] { page(res, web::netsPage(context(req), coord_.listArtifacts(500, ArtifactKindNet))); });
    });
    s.Get(R"(/nets/([^/]{1,200}))", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/nets/:sha256", req, res, [&] {
            const std::string sha = req.matches[1].str();
            if (!isSha256Hex(sha))
                throw CoordError(ErrorCode::InvalidArgument,
                                 "a network is named by its SHA-256 (64 lowercase hex digits)");
            coord_.findArtifact(sha);  // NotFound for an unknown hash
            std::ifstream in(coord_.artifactPath(sha), std::ios::binary);
            if (!in) throw CoordError(ErrorCode::NotFound, "the network's file cannot be read");
            std::ostringstream data;
            data << in.rdbuf();
            res.set_header("Content-Disposition",
                           "attachment; filename=\"xq-" + sha.substr(0, 12) + ".nnue\"");
            res.set_header("Cache-Control", "public, max-age=31536000, immutable");  // content-addressed
            res.set_content(data.str(), "application/octet-stream");
        });
    });
    s.Get("/workers", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/workers", req, res,
               [&] { page(res, web::workersPage(context(req), coord_.listWorkers())); });
    });
    s.Get("/bench", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/bench", req, res, [&] {
            v1::ListBenchesResponse runs;
            if (bench_) runs = bench_->list(Reader, 20);
            page(res, web::benchPage(context(req), runs));
        });
    });
    s.Get("/login", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/login", req, res, [&] { page(res, web::loginPage(context(req), "")); });
    });
    s.Post("/login", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /login", req, res, [&] {
            Caller caller;
            try {
                caller = coord_.authenticate(formValue(req, "token"));
                if (caller.role == Role::Worker)
                    throw CoordError(ErrorCode::PermissionDenied,
                                     "a worker token cannot log in; use a user token");
            } catch (const CoordError& e) {
                res.status = httpStatus(e.code);
                page(res, web::loginPage(context(req), e.what()));
                return;
            }
            std::string id = sessions_.create(caller);
            res.set_header("Set-Cookie", std::string(SessionCookie) + "=" + id +
                                             "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" +
                                             std::to_string(options_.sessionSeconds) +
                                             (tls_ ? "; Secure" : ""));
            redirect(res, "/tests");
        });
    });
    s.Post("/logout", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /logout", req, res, [&] {
            postSession(req);
            sessions_.erase(cookieValue(req, SessionCookie));
            res.set_header("Set-Cookie", std::string(SessionCookie) +
                                             "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0" +
                                             (tls_ ? "; Secure" : ""));
            redirect(res, "/tests");
        });
    });
    s.Get("/submit", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/submit", req, res, [&] {
            if (!session(req)) return redirect(res, "/login");
            page(res, web::submitPage(context(req), formArtifacts(), ""));
        });
    });
    s.Post("/submit", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /submit", req, res, [&] {
            auto ses = postSession(req);
            try {
                auto id = submitForm(req, ses.caller);
                redirect(res, "/tests/" + std::to_string(id));
            } catch (const CoordError& e) {
                res.status = httpStatus(e.code);
                page(res, web::submitPage(context(req), formArtifacts(), e.what(), submittedValues(req)));
            } catch (const std::invalid_argument& e) {
                res.status = 400;
                page(res, web::submitPage(context(req), formArtifacts(), e.what(), submittedValues(req)));
            }
        });
    });

    // JSON.
    s.Get("/api/tests", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/api/tests", req, res, [&] {
            auto [q, tests] = testsQuery(req);
            json list = json::array();
            for (const auto& v : tests.tests) {
                json t = testViewObject(v);
                t.erase("workers");
                t.erase("events");
                t["submitter"] = v.spec().submitter();
                list.push_back(std::move(t));
            }
            sendJson(res,
                     {{"total", tests.total}, {"page", q.page}, {"per_page", q.perPage}, {"tests", list}});
        });
    });
    s.Get(R"(/api/tests/(\d+))", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/api/tests/:id", req, res, [&] {
            std::int64_t id = pathId(req, 1, "test id");
            auto view = coord_.showTest(id);
            json t = testViewObject(view);
            t["submitter"] = view.spec().submitter();
            auto g = coord_.gameTotals(id);
            t["games_stored"] = g.games;
            sendJson(res, t);
        });
    });
    s.Get(R"(/api/tests/(\d+)/history)", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/api/tests/:id/history", req, res, [&] {
            json points = json::array();
            for (const auto& p : coord_.testHistory(pathId(req, 1, "test id")))
                points.push_back(
                    {{"games", p.games}, {"llr", p.llr}, {"elo", p.elo}, {"elo_error", p.eloError}});
            sendJson(res, points);
        });
    });
    s.Get("/api/workers", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/api/workers", req, res, [&] { sendJson(res, workersObject(coord_.listWorkers())); });
    });
    s.Get("/api/bench", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/api/bench", req, res, [&] {
            v1::ListBenchesResponse runs;
            if (bench_) runs = bench_->list(Reader, 20);
            std::string out;
            google::protobuf::util::JsonPrintOptions o;
            o.preserve_proto_field_names = true;
            (void)google::protobuf::util::MessageToJsonString(runs, &out, o);
            res.set_header("Cache-Control", "no-store");
            res.set_content(out, "application/json");
        });
    });
    s.Get("/healthz", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/healthz", req, res, [&] {
            coord_.gauges();  // answers only while the store answers
            res.set_content("ok\n", "text/plain");
        });
    });
    s.Get("/metrics", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/metrics", req, res, [&] {
            res.set_content(coord_.metrics().render(coord_.gauges()),
                            "text/plain; version=0.0.4; charset=utf-8");
        });
    });
    s.Get("/static/style.css", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/static", req, res, [&] {
            res.set_header("Cache-Control", "max-age=300");
            res.set_content(web::StyleCss, "text/css; charset=utf-8");
        });
    });
    s.Get("/static/live.js", [=, this](const httplib::Request& req, httplib::Response& res) {
        handle("/static", req, res, [&] {
            res.set_header("Cache-Control", "max-age=300");
            res.set_content(web::LiveJs, "text/javascript; charset=utf-8");
        });
    });
    // The icon, at the name browsers ask for by themselves and at the one the pages name.
    for (const char* path : {"/favicon.ico", "/static/favicon.svg"})
        s.Get(path, [=, this](const httplib::Request& req, httplib::Response& res) {
            handle("/static", req, res, [&] {
                res.set_header("Cache-Control", "max-age=86400");
                res.set_content(web::FaviconSvg, "image/svg+xml");
            });
        });
    runRoutes();
    s.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return;
        int status = res.status;
        handle("(unmatched)", req, res, [&] {
            throw CoordError(status == 404 ? ErrorCode::NotFound : ErrorCode::InvalidArgument,
                             status == 404 ? "no page at " + req.path.substr(0, 200)
                                           : "bad request (HTTP " + std::to_string(status) + ")");
        });
        if (status == 413) res.status = 413;
    });
}

web::FormValues WebServer::submittedValues(const httplib::Request& req) const {
    static const char* const fields[] = {
        "dev_name",   "base_name",  "dev_settings",  "base_settings", "dev_signature", "base_signature",
        "each",       "sprt",       "games",         "concurrency",   "priority",      "throughput",
        "game",       "rules",      "max_moves",     "resign",        "resign_moves",  "draw",
        "draw_moves", "draw_after", "reference_nps", "description",   "board"};
    web::FormValues values;
    for (const char* f : fields)
        if (req.has_param(f) || req.has_file(f)) values[f] = formValue(req, f).substr(0, 2000);
    // An artifact chosen by hash stays chosen; a file uploaded with the refused form was stored before the
    // refusal, so it is chosen by its hash and need not be uploaded again.
    for (const char* f : {"dev_sha256", "base_sha256", "dev_weights_sha256", "base_weights_sha256",
                          "openings_sha256", "dev_net_sha256", "base_net_sha256"}) {
        std::string field = f;
        std::string fileField = field.substr(0, field.size() - std::string("_sha256").size()) + "_file";
        if (req.has_file(fileField) && !req.get_file_value(fileField).content.empty()) {
            std::string sha = sha256Hex(req.get_file_value(fileField).content);
            if (coord_.hasArtifact(sha)) values[field] = sha;
        } else if (req.has_param(field) || req.has_file(field)) {
            values[field] = formValue(req, field).substr(0, 64);
        }
    }
    return values;
}

std::vector<Coordinator::ArtifactInfo> WebServer::formArtifacts() {
    auto artifacts = coord_.listArtifacts();
    for (auto& a : artifacts)
        if (a.kind.empty() && looksExecutable(coord_.artifactPath(a.sha256))) a.kind = ArtifactKindEngine;
    return artifacts;
}

std::string WebServer::storeArtifact(const Caller& caller, const std::string& content,
                                     const std::string& name, const std::string& kind,
                                     const std::string& what) {
    std::string sha = sha256Hex(content);
    try {
        if (coord_.hasArtifact(sha)) {
            coord_.markArtifactKind(caller, sha, kind);  // checks that it is what the field says
            return sha;
        }
        auto upload = coord_.beginUpload(caller, sha, content.size());
        try {
            upload->write(content);
            upload->finish();
        } catch (const std::invalid_argument& e) {
            throw CoordError(ErrorCode::InvalidArgument, e.what());
        }
        coord_.artifactUploaded(sha, content.size(), name, kind);
    } catch (const CoordError& e) {
        throw CoordError(e.code, what + ": " + e.what());
    }
    return sha;
}

std::uint64_t WebServer::submitForm(const httplib::Request& req, const Caller& caller) {
    SubmissionOptions o;
    ArtifactHashes h;
    // A stored artifact chosen by hash, or a file uploaded with the form (stored and checked like `xq submit`
    // stores and checks it).
    auto artifact = [&](const std::string& field, const std::string& what, bool required,
                        const char* kind) -> std::string {
        std::string fileField = field.substr(0, field.size() - std::string("_sha256").size()) + "_file";
        if (req.has_file(fileField) && !req.get_file_value(fileField).content.empty()) {
            const auto& file = req.get_file_value(fileField);
            return storeArtifact(caller, file.content, file.filename, kind, what);
        }
        std::string sha = formValue(req, field);
        if (sha.empty() && required)
            throw CoordError(ErrorCode::InvalidArgument,
                             what + ": choose a stored engine or upload its file");
        return sha;
    };
    h.dev = artifact("dev_sha256", "dev engine", true, ArtifactKindEngine);
    h.base = artifact("base_sha256", "base engine", true, ArtifactKindEngine);
    h.devWeights = artifact("dev_weights_sha256", "dev weights", false, ArtifactKindWeights);
    h.baseWeights = artifact("base_weights_sha256", "base weights", false, ArtifactKindWeights);
    h.openings = artifact("openings_sha256", "openings", false, ArtifactKindOpenings);
    h.devNet = artifact("dev_net_sha256", "dev network", false, ArtifactKindNet);
    h.baseNet = artifact("base_net_sha256", "base network", false, ArtifactKindNet);
    o.dev.name = formValue(req, "dev_name");
    o.base.name = formValue(req, "base_name");
    o.dev.settings = settingsField(formValue(req, "dev_settings"));
    o.base.settings = settingsField(formValue(req, "base_settings"));
    o.each = settingsField(formValue(req, "each"));
    o.dev.benchSignature = std::uint64_t(parseNumber(formValue(req, "dev_signature"), "dev bench signature"));
    o.base.benchSignature =
        std::uint64_t(parseNumber(formValue(req, "base_signature"), "base bench signature"));
    o.sprt = formValue(req, "sprt");
    std::int64_t games = parseNumber(formValue(req, "games"), "games");
    if (games < 0) throw CoordError(ErrorCode::InvalidArgument, "games must not be negative");
    o.games = std::uint64_t(games);
    o.concurrencyPerWorker = int(parseNumber(formValue(req, "concurrency"), "concurrency"));
    o.priority = int(parseNumber(formValue(req, "priority"), "priority"));
    std::string throughput = formValue(req, "throughput");
    try {
        o.throughput = throughput.empty() ? 1 : std::stod(throughput);
    } catch (const std::exception&) {
        throw CoordError(ErrorCode::InvalidArgument, "throughput must be a number");
    }
    o.maxMoves = int(parseNumber(formValue(req, "max_moves"), "max moves"));
    if (std::string rules = formValue(req, "rules"); !rules.empty()) o.rules = rules;
    if (std::string game = formValue(req, "game"); !game.empty()) o.game = game;
    // The form's rule select is Xiangqi's; chess and Capture Go ignore it (Capture Go's rules are its
    // board's).
    if (o.game == "chess" || o.game == "capturego") o.rules = "asian";
    o.board = formValue(req, "board");
    o.boardName = "Board";
    // No book chosen: the game's book, as `xq submit` plays without --openings; "none": no book.
    if (h.openings == web::FormNoOpenings) {
        h.openings.clear();
    } else if (h.openings.empty()) {
        if (std::string book = findDefaultOpenings(o.game); !book.empty()) {
            std::ifstream in(book, std::ios::binary);
            std::ostringstream content;
            content << in.rdbuf();
            h.openings = storeArtifact(caller, content.str(), std::filesystem::path(book).filename().string(),
                                       ArtifactKindOpenings, "the game's opening book " + book);
        }
    }
    o.resignScore = int(parseNumber(formValue(req, "resign"), "resign score"));
    o.resignMoves = int(parseNumber(formValue(req, "resign_moves"), "resign moves"));
    o.drawScore = int(parseNumber(formValue(req, "draw"), "draw score"));
    o.drawMoves = int(parseNumber(formValue(req, "draw_moves"), "draw moves"));
    o.drawMoveNumber = int(parseNumber(formValue(req, "draw_after"), "draw after"));
    o.referenceNps = std::uint64_t(parseNumber(formValue(req, "reference_nps"), "reference nps"));
    o.description = formValue(req, "description").substr(0, 1000);
    v1::SubmitRequest submit;
    *submit.mutable_spec() = buildTestSpec(o, h);
    return coord_.submit(caller, submit).test_id();
}

}  // namespace xq::coord
