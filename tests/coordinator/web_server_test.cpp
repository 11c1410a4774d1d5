// The web view over real HTTP on 127.0.0.1 with an OS-picked port (an in-process coordinator server):
// what readers may see, what needs a login, hostile requests, HTTPS with the gRPC certificate, and the
// games download.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "data_chunk.h"
#include "fixture.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "process.h"
#include "server.h"
#include "submission.h"
#include "test_store.h"
#include "web_fixture.h"

using namespace xq::coord;
using namespace xq::coord::testing;
namespace v1 = xq::v1;

namespace {

// An engine as the form accepts one: a script (the form checks what an engine file is, not that it plays).
const std::string DevScript = "#!/bin/sh\n# the dev engine uploaded with the form\n";

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(WebServer, ReadersSeeTestsWorkersAndJsonWithoutLogin) {
    WebFixture f;
    auto id = f.submit("a plain test");
    auto c = f.client();
    auto list = c.Get("/tests");
    ASSERT_TRUE(list);
    EXPECT_EQ(list->status, 200);
    EXPECT_NE(list->body.find("a plain test"), std::string::npos);
    EXPECT_EQ(list->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_NE(list->get_header_value("Content-Security-Policy").find("script-src 'self'"), std::string::npos);
    auto page = c.Get("/tests/" + std::to_string(id));
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_EQ(page->body.find("Stop this test"), std::string::npos);
    auto api = c.Get("/api/tests?state=running");
    ASSERT_TRUE(api);
    auto j = nlohmann::json::parse(api->body);
    EXPECT_EQ(j["total"], 1);
    EXPECT_EQ(j["tests"][0]["id"], id);
    EXPECT_EQ(j["tests"][0]["submitter"], "alice");
    EXPECT_EQ(c.Get("/workers")->status, 200);
    EXPECT_EQ(c.Get("/bench")->status, 200);
    EXPECT_EQ(c.Get("/static/live.js")->status, 200);
    auto metrics = c.Get("/metrics");
    ASSERT_TRUE(metrics);
    EXPECT_NE(metrics->body.find("xq_tests{state=\"running\"} 1"), std::string::npos);
    EXPECT_NE(metrics->body.find("xq_http_duration_seconds_count{route=\"GET /tests\"} 1"),
              std::string::npos);
}

TEST(WebServer, HostileRequestsGetAClearErrorAndChangeNothing) {
    WebFixture f;
    auto id = f.submit("target");
    auto c = f.client();
    EXPECT_EQ(c.Get("/tests/999")->status, 404);
    EXPECT_EQ(c.Get("/tests/99999999999999999999999")->status, 400);
    EXPECT_EQ(c.Get("/no/such/page")->status, 404);
    auto badState = c.Get("/api/tests?state=%3Cscript%3E");
    ASSERT_TRUE(badState);
    EXPECT_EQ(badState->status, 400);
    EXPECT_NE(nlohmann::json::parse(badState->body)["error"].get<std::string>().find("state must be"),
              std::string::npos);
    auto badPage = c.Get("/tests?page=banana");
    EXPECT_EQ(badPage->status, 400);
    EXPECT_NE(badPage->body.find("page must be a whole number"), std::string::npos);
    // Actions need a logged-in user; a worker token cannot log in; a bad token is named as such.
    auto stop = c.Post("/tests/" + std::to_string(id) + "/stop", httplib::Params{});
    EXPECT_EQ(stop->status, 401);
    EXPECT_EQ(c.Post("/submit", httplib::Params{{"sprt", "elo0=0,elo1=5"}})->status, 401);
    auto noLogin = c.Get("/submit");
    EXPECT_EQ(noLogin->status, 303);
    EXPECT_EQ(noLogin->get_header_value("Location"), "/login");
    auto bad = c.Post("/login", httplib::Params{{"token", "not-a-token"}});
    EXPECT_EQ(bad->status, 401);
    EXPECT_NE(bad->body.find("unknown token"), std::string::npos);
    EXPECT_TRUE(bad->get_header_value("Set-Cookie").empty());
    // A logged-in user's form without its token, or posted from another site, is refused.
    auto [session, csrf] = f.login(c);
    ASSERT_FALSE(csrf.empty());
    auto noCsrf = c.Post("/tests/" + std::to_string(id) + "/stop", httplib::Headers{{"Cookie", session}},
                         httplib::Params{{"csrf", "wrong"}});
    EXPECT_EQ(noCsrf->status, 403);
    auto crossSite = c.Post("/tests/" + std::to_string(id) + "/stop",
                            httplib::Headers{{"Cookie", session}, {"Origin", "http://evil.example"}},
                            httplib::Params{{"csrf", csrf}});
    EXPECT_EQ(crossSite->status, 403);
    EXPECT_EQ(f.coord().showTest(id).summary().state(), v1::TEST_STATE_RUNNING);
    // Too large a body is refused before it is read.
    std::string huge(2 << 20, 'x');
    auto big = c.Post("/submit", httplib::Headers{{"Cookie", session}}, huge, "application/octet-stream");
    ASSERT_TRUE(big);
    EXPECT_EQ(big->status, 413);
    // A body without a length, a compressed body and many ranges are refused before anything is read.
    auto chunked = c.Post("/login", httplib::Headers{{"Transfer-Encoding", "chunked"}},
                          "7\r\ntoken=x\r\n0\r\n\r\n", "application/x-www-form-urlencoded");
    ASSERT_TRUE(chunked) << httplib::to_string(chunked.error());
    EXPECT_EQ(chunked->status, 411);
    auto gz =
        c.Post("/login", httplib::Headers{{"Content-Encoding", "gzip"}}, "x", "application/octet-stream");
    EXPECT_EQ(gz->status, 415);
    EXPECT_EQ(c.Get("/metrics", httplib::Headers{{"Range", "bytes=0-1,0-1,0-1"}})->status, 416);
    // With its token, the same stop works.
    auto ok = c.Post("/tests/" + std::to_string(id) + "/stop", httplib::Headers{{"Cookie", session}},
                     httplib::Params{{"csrf", csrf}, {"reason", "enough"}});
    EXPECT_EQ(ok->status, 303);
    EXPECT_EQ(f.coord().showTest(id).summary().state(), v1::TEST_STATE_STOPPED);
    EXPECT_EQ(f.coord().showTest(id).summary().result(), "enough");
}

TEST(WebServer, TheSessionCookieIsHttpOnlyAndSameSiteAndLogoutEndsIt) {
    WebFixture f;
    auto c = f.client();
    auto res = c.Post("/login", httplib::Params{{"token", f.userToken}});
    ASSERT_TRUE(res);
    std::string cookie = res->get_header_value("Set-Cookie");
    EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
    EXPECT_NE(cookie.find("SameSite=Strict"), std::string::npos);
    auto [session, csrf] = f.login(c);
    EXPECT_EQ(c.Get("/submit", httplib::Headers{{"Cookie", session}})->status, 200);
    EXPECT_EQ(
        c.Post("/logout", httplib::Headers{{"Cookie", session}}, httplib::Params{{"csrf", csrf}})->status,
        303);
    EXPECT_EQ(c.Get("/submit", httplib::Headers{{"Cookie", session}})->status, 303);
}

TEST(WebServer, ALoginOutlivesARestartOfTheCoordinator) {
    WebFixture f;
    std::string session, csrf;
    {
        auto c = f.client();
        std::tie(session, csrf) = f.login(c);
    }
    f.server.reset();
    f.server = f.another();
    auto c = f.client();
    auto page = c.Get("/submit", httplib::Headers{{"Cookie", session}});
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find(csrf), std::string::npos) << "the session keeps its form token";
    EXPECT_EQ(c.Get("/submit", httplib::Headers{{"Cookie", "xq_session=forged"}})->status, 303);
}

TEST(WebServer, ALoginHoldsOnEveryReplicaAndALogoutOnOneEndsItOnAll) {
    WebFixture f;
    if (!f.store.postgres()) GTEST_SKIP() << "replicas share a PostgreSQL store: runs as pg.WebServer.*";
    auto replica = f.another();
    auto a = f.client(), b = f.client(replica.get());
    auto [session, csrf] = f.login(a);
    // The form of one replica posts to the other: the test is stopped through replica b.
    auto id = f.submit("stopped through the other replica");
    auto stop = b.Post("/tests/" + std::to_string(id) + "/stop", httplib::Headers{{"Cookie", session}},
                       httplib::Params{{"csrf", csrf}});
    ASSERT_TRUE(stop);
    EXPECT_EQ(stop->status, 303) << stop->body;
    EXPECT_EQ(f.coord().showTest(id).summary().state(), v1::TEST_STATE_STOPPED);
    ASSERT_EQ(
        b.Post("/logout", httplib::Headers{{"Cookie", session}}, httplib::Params{{"csrf", csrf}})->status,
        303);
    EXPECT_EQ(a.Get("/submit", httplib::Headers{{"Cookie", session}})->status, 303)
        << "logged out everywhere";
    EXPECT_EQ(b.Get("/submit", httplib::Headers{{"Cookie", session}})->status, 303);
}

TEST(WebServer, TheSubmitFormMakesTheSameTestAsXqSubmit) {
    WebFixture f;
    auto c = f.client();
    auto [session, csrf] = f.login(c);
    std::string base = uploadArtifact(f.coord(), f.user, "stored base");
    httplib::MultipartFormDataItems form = {
        {"csrf", csrf, "", ""},
        {"base_sha256", base, "", ""},
        {"dev_file", DevScript, "dev-engine", "application/octet-stream"},
        {"each", "nodes=5000; option.Skill Level=3", "", ""},
        {"dev_settings", "option.Hash=32", "", ""},
        {"sprt", "elo0=0,elo1=5", "", ""},
        {"games", "400", "", ""},
        {"description", "from the form", "", ""},
        {"dev_name", "dev", "", ""},
        {"base_name", "base", "", ""},
    };
    auto res = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 303) << res->body;
    std::int64_t id = std::stoll(res->get_header_value("Location").substr(7));
    auto view = f.coord().showTest(id);
    const auto& m = view.spec().match();
    EXPECT_EQ(m.base().binary_sha256(), base);
    EXPECT_EQ(m.dev().binary_sha256(), xq::sha256Hex(DevScript));
    EXPECT_TRUE(f.coord().hasArtifact(m.dev().binary_sha256())) << "the uploaded engine is stored";
    EXPECT_EQ(m.dev().tc(), "nodes=5000");
    EXPECT_EQ(m.dev().options().at("Skill Level"), "3");
    EXPECT_EQ(m.dev().options().at("Hash"), "32");
    EXPECT_EQ(m.base().options().count("Hash"), 0u);
    EXPECT_EQ(view.spec().sprt().elo1(), 5);
    EXPECT_EQ(view.spec().submitter(), "alice");
    EXPECT_EQ(view.summary().description(), "from the form");
    // No book chosen: the game's book, as xq submit takes without --openings.
    const std::string book = findDefaultOpenings("xiangqi");
    ASSERT_FALSE(book.empty());
    EXPECT_EQ(m.openings_sha256(), xq::sha256File(book));
    // A refused form says why and submits nothing.
    httplib::MultipartFormDataItems bad = {{"csrf", csrf, "", ""},
                                           {"base_sha256", base, "", ""},
                                           {"dev_sha256", base, "", ""},
                                           {"each", "tc=banana", "", ""},
                                           {"games", "10", "", ""}};
    auto refused = c.Post("/submit", httplib::Headers{{"Cookie", session}}, bad);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400);
    EXPECT_NE(refused->body.find("time control"), std::string::npos) << refused->body;
    EXPECT_EQ(f.coord().listTestsPage({}).total, 1);
    // The SPRT field takes fishtest's two kinds of test by name, and the form says so.
    auto page = c.Get("/submit", httplib::Headers{{"Cookie", session}});
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("non-regression (elo0=-1.75,elo1=0.25)"), std::string::npos);
    form[5] = {"sprt", "non-regression", "", ""};
    auto nonRegression = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
    ASSERT_TRUE(nonRegression);
    ASSERT_EQ(nonRegression->status, 303) << nonRegression->body;
    auto second = f.coord().showTest(std::stoll(nonRegression->get_header_value("Location").substr(7)));
    EXPECT_EQ(second.spec().sprt().elo0(), -1.75);
    EXPECT_EQ(second.spec().sprt().elo1(), 0.25);
}

TEST(WebServer, TheSubmitFormMakesAChessTestAndItsPagesSayChess) {
    WebFixture f;
    auto c = f.client();
    auto [session, csrf] = f.login(c);
    std::string engine = uploadArtifact(f.coord(), f.user, "a chess engine");
    httplib::MultipartFormDataItems form = {
        {"csrf", csrf, "", ""},         {"base_sha256", engine, "", ""}, {"dev_sha256", engine, "", ""},
        {"each", "nodes=1000", "", ""}, {"games", "20", "", ""},         {"game", "chess", "", ""},
        {"rules", "asian", "", ""},     {"dev_name", "sf", "", ""},      {"base_name", "sf-base", "", ""},
    };
    auto res = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 303) << res->body;
    const std::string location = res->get_header_value("Location");
    std::int64_t id = std::stoll(location.substr(7));
    const auto view = f.coord().showTest(id);
    const auto& m = view.spec().match();
    EXPECT_EQ(m.game(), "chess");
    EXPECT_EQ(m.rules(), "") << "the Xiangqi rule set is not stored with a chess test";
    auto page = c.Get(location.c_str());
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("<th>Rules</th><td>Chess</td>"), std::string::npos) << page->body;
    auto form_ = c.Get("/submit", httplib::Headers{{"Cookie", session}});
    ASSERT_TRUE(form_);
    EXPECT_NE(form_->body.find("<option value=\"chess\">International chess</option>"), std::string::npos);
    // A game the coordinator does not know is refused by name.
    form[5] = {"game", "shogi", "", ""};
    auto refused = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400);
    EXPECT_NE(refused->body.find("unknown game &#39;shogi&#39;"), std::string::npos) << refused->body;
}

// The form's Capture Go test is xq submit's: `xq submit --game capturego --board size=5,rules=go,komi=0.5
// --each nodes=1 --dev-option "args=--mode gtp --level 10" --base-option "args=--mode gtp --level 0"
// --openings data/openings/go-5x5.txt` (README, "Capture Go on the cluster").
TEST(WebServer, TheSubmitFormMakesACaptureGoTestWithItsBoardAsXqSubmitDoes) {
    WebFixture f;
    auto c = f.client();
    auto [session, csrf] = f.login(c);
    auto form_ = c.Get("/submit", httplib::Headers{{"Cookie", session}});
    ASSERT_TRUE(form_);
    EXPECT_NE(form_->body.find("<option value=\"capturego\">Capture Go</option>"), std::string::npos);
    EXPECT_NE(form_->body.find("<input name=\"board\" id=\"board\""), std::string::npos);
    std::string engine = uploadArtifact(f.coord(), f.user, "a GTP engine");
    std::ifstream in(std::string(XQ_SOURCE_DIR) + "/data/openings/go-5x5.txt", std::ios::binary);
    const std::string book((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(book.empty());
    httplib::MultipartFormDataItems form = {
        {"csrf", csrf, "", ""},
        {"base_sha256", engine, "", ""},
        {"dev_sha256", engine, "", ""},
        {"game", "capturego", "", ""},
        {"board", "size=5,rules=go,komi=0.5", "", ""},
        {"each", "nodes=1", "", ""},
        {"dev_settings", "args=--mode gtp --level 10", "", ""},
        {"base_settings", "args=--mode gtp --level 0", "", ""},
        {"openings_file", book, "go-5x5.txt", "text/plain"},
        {"sprt", "elo0=0,elo1=200,alpha=0.1,beta=0.1", "", ""},
        {"rules", "asian", "", ""},  // the form's Xiangqi select, sent as a browser sends it
        {"dev_name", "gnugo-10", "", ""},
        {"base_name", "gnugo-0", "", ""},
    };
    auto res = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 303) << res->body;
    const std::string location = res->get_header_value("Location");
    const auto view = f.coord().showTest(std::stoll(location.substr(7)));
    const auto& m = view.spec().match();
    EXPECT_EQ(m.game(), "capturego");
    EXPECT_EQ(m.board(), "size=5,rules=go,komi=0.5");
    EXPECT_EQ(m.rules(), "") << "no Xiangqi rule set is stored with a Capture Go test";
    EXPECT_EQ(m.dev().protocol(), "gtp");
    EXPECT_EQ(m.base().protocol(), "gtp");
    EXPECT_EQ(m.openings_sha256(), xq::sha256Hex(book));
    EXPECT_EQ(view.spec().sprt().elo1(), 200);
    // The same settings through xq submit's path give the same match.
    xq::coord::SubmissionOptions o;
    o.game = "capturego";
    o.board = "size=5,rules=go,komi=0.5";
    o.each = {"nodes=1"};
    o.dev.name = "gnugo-10";
    o.base.name = "gnugo-0";
    o.dev.settings = {"args=--mode gtp --level 10"};
    o.base.settings = {"args=--mode gtp --level 0"};
    o.sprt = "elo0=0,elo1=200,alpha=0.1,beta=0.1";
    xq::coord::ArtifactHashes h;
    h.base = h.dev = engine;
    h.openings = xq::sha256Hex(book);
    const auto cli = xq::coord::buildTestSpec(o, h);
    EXPECT_EQ(m.dev().SerializeAsString(), cli.match().dev().SerializeAsString());
    EXPECT_EQ(m.base().SerializeAsString(), cli.match().base().SerializeAsString());
    EXPECT_EQ(m.board(), cli.match().board());
    auto page = c.Get(location.c_str());
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("Capture Go, board size=5,rules=go,komi=0.5"), std::string::npos) << page->body;
    // A malformed board is refused naming what is wrong, and comes back in the form.
    form[4] = {"board", "size=5,colour=black", "", ""};
    auto refused = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400);
    EXPECT_NE(refused->body.find("Board: unknown setting &#39;colour&#39;"), std::string::npos)
        << refused->body;
    EXPECT_EQ(refused->body.find("--board:"), std::string::npos)
        << "the form names its field, not the CLI's flag";
    EXPECT_NE(refused->body.find("value=\"size=5,colour=black\""), std::string::npos);
    EXPECT_EQ(f.coord().listTestsPage({}).total, 1);
}

TEST(WebServer, ARefusedSubmitFormComesBackFilledWithWhatWasSent) {
    WebFixture f;
    auto c = f.client();
    auto [session, csrf] = f.login(c);
    std::string stored = uploadArtifact(f.coord(), f.user, "#!/bin/sh\n# a stored engine\n");
    const std::string uploaded = "#!/bin/sh\n# an engine uploaded with the form\n";
    httplib::MultipartFormDataItems form = {
        {"csrf", csrf, "", ""},         {"dev_sha256", stored, "", ""},
        {"base_sha256", "", "", ""},    {"base_file", uploaded, "base-engine", "application/octet-stream"},
        {"each", "nodes=1000", "", ""}, {"sprt", "elo0=0,elo1=banana", "", ""},
        {"game", "chess", "", ""},      {"description", "<b>my \"test\"</b>", "", ""},
    };
    auto refused = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400);
    const std::string& body = refused->body;
    EXPECT_NE(body.find("id=\"submit-error\""), std::string::npos) << body;
    EXPECT_NE(body.find("banana"), std::string::npos) << "the error names what was wrong";
    // Text fields keep what was typed (escaped), selects keep what was chosen.
    EXPECT_NE(body.find("id=\"sprt\" value=\"elo0=0,elo1=banana\""), std::string::npos) << body;
    EXPECT_NE(body.find("id=\"each\" value=\"nodes=1000\""), std::string::npos);
    EXPECT_NE(body.find("value=\"&lt;b&gt;my &quot;test&quot;&lt;/b&gt;\""), std::string::npos) << body;
    EXPECT_NE(body.find("<option value=\"chess\" selected>International chess</option>"), std::string::npos);
    EXPECT_EQ(body.find("<option value=\"xiangqi\" selected>"), std::string::npos);
    // The chosen artifact stays chosen, and the uploaded file (stored before the refusal) is now chosen by
    // its hash, so it need not be uploaded again.
    EXPECT_NE(body.find("id=\"dev_sha256\"><option value=\"\">upload a file below</option>"),
              std::string::npos);
    auto selectOf = [&](const std::string& name) { return selectIn(body, name); };
    EXPECT_NE(selectOf("dev_sha256").find("value=\"" + stored + "\" selected"), std::string::npos);
    EXPECT_NE(selectOf("base_sha256").find("value=\"" + xq::sha256Hex(uploaded) + "\" selected"),
              std::string::npos)
        << selectOf("base_sha256");
    EXPECT_EQ(selectOf("openings_sha256").find(" selected"), std::string::npos);
    // A fresh form is filled with the defaults.
    auto fresh = c.Get("/submit", httplib::Headers{{"Cookie", session}});
    ASSERT_TRUE(fresh);
    EXPECT_NE(fresh->body.find("id=\"sprt\" value=\"elo0=0,elo1=5\""), std::string::npos);
    EXPECT_EQ(fresh->body.find(" selected"), std::string::npos);
}

TEST(WebServer, GamesDownloadAsOneGzipFileOfEveryReport) {
    WebFixture f;
    auto id = f.submit("games");
    auto& coord = f.coord();
    auto [w, job] = f.workerJob();
    for (std::uint32_t i = 0; i < job.match().pair_count(); ++i) {
        v1::ReportRequest r;
        r.set_worker_id(w);
        r.set_lease_id(job.lease_id());
        r.set_sequence(i + 1);
        auto* p = r.add_pairs();
        p->set_pair_index(job.match().first_pair() + i);
        p->set_penta_index(2);
        p->set_wins(1);
        p->set_losses(1);
        r.set_pgn_gz(gzipText("[Event \"g\"]\n\n1-0\n\n[Event \"g\"]\n\n0-1\n\n"));
        coord.report(f.worker, r);
    }
    auto c = f.client();
    auto res = c.Get("/tests/" + std::to_string(id) + "/games.pgn.gz");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/gzip");
    std::string text = gunzipText(res->body, 1 << 20, true);
    int games = 0;
    for (auto pos = text.find("[Event "); pos != std::string::npos; pos = text.find("[Event ", pos + 1))
        ++games;
    EXPECT_EQ(games, 2 * int(job.match().pair_count()));
    EXPECT_EQ(c.Get("/tests/77/games.pgn.gz")->status, 404);
}

TEST(WebServer, ServesHttpsWithTheCoordinatorsCertificate) {
    TempDir certs;
    const std::string cert = certs.file("cert.pem"), key = certs.file("key.pem");
    auto made = runCommand(
        {"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
         "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"},
        certs.path);
    ASSERT_EQ(made.code, 0) << made.err;
    WebFixture f(cert, key);
    EXPECT_EQ(f.server->web()->url().rfind("https://", 0), 0u);
    httplib::SSLClient tls(
        f.server->web()->address().substr(0, f.server->web()->address().rfind(':')),
        std::stoi(f.server->web()->address().substr(f.server->web()->address().rfind(':') + 1)));
    tls.set_ca_cert_path(cert.c_str());
    tls.enable_server_certificate_verification(true);
    auto res = tls.Get("/tests");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    auto login = tls.Post("/login", httplib::Params{{"token", f.userToken}});
    ASSERT_TRUE(login);
    EXPECT_NE(login->get_header_value("Set-Cookie").find("; Secure"), std::string::npos);
    // Plain HTTP to the HTTPS port gets no page.
    httplib::Client plain("http://" + f.server->web()->address());
    auto p = plain.Get("/tests");
    EXPECT_TRUE(!p || p->status != 200);
}

TEST(WebServer, ADatagenTestShowsItsPositionsAndItsChunksDownload) {
    WebFixture f;
    auto& coord = f.coord();
    v1::SubmitRequest req;
    auto* d = req.mutable_spec()->mutable_datagen();
    d->mutable_engine()->set_binary_sha256(uploadArtifact(coord, f.user, "an engine binary"));
    d->set_nodes(200);
    d->set_sample_rate(0.5);
    d->set_slice_games(10);
    req.mutable_spec()->set_games(20);
    auto id = coord.submit(f.user, req).test_id();
    auto [w, job] = f.workerJob("datagen");
    const std::string fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    auto encoded = encodeChunks({{fen, 1.0f}, {fen, 0.5f}, {fen, 0.0f}});
    v1::DataChunkUpload u;
    u.set_worker_id(w);
    u.set_lease_id(job.lease_id());
    u.set_slice(job.datagen().slice());
    u.set_sequence(1);
    u.set_positions(encoded[0].positions);
    u.set_sha256(xq::sha256Hex(encoded[0].data));
    u.set_data(encoded[0].data);
    coord.uploadChunk(f.worker, u);

    auto c = f.client();
    auto page = c.Get("/tests/" + std::to_string(id));
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find("3 positions in 1 chunk ("), std::string::npos) << page->body;
    auto link = page->body.find("/chunks/");
    ASSERT_NE(link, std::string::npos);
    std::string href = page->body.substr(page->body.rfind('"', link) + 1);
    href = href.substr(0, href.find('"'));
    auto chunk = c.Get(href);
    ASSERT_TRUE(chunk);
    EXPECT_EQ(chunk->status, 200);
    EXPECT_EQ(chunk->body, encoded[0].data);
    EXPECT_EQ(c.Get("/tests/" + std::to_string(id) + "/chunks/999")->status, 404);
}

TEST(WebServer, HealthIsServedOverGrpcAndHttp) {
    WebFixture f;
    auto channel = grpc::CreateChannel(f.server->address(), grpc::InsecureChannelCredentials());
    auto stub = grpc::health::v1::Health::NewStub(channel);
    for (const char* service : {"", "xq.v1.WorkerService", "xq.v1.UserService"}) {
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
        grpc::health::v1::HealthCheckRequest req;
        req.set_service(service);
        grpc::health::v1::HealthCheckResponse resp;
        auto status = stub->Check(&ctx, req, &resp);
        ASSERT_TRUE(status.ok()) << service << ": " << status.error_message();
        EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING) << service;
    }
    auto c = f.client();
    auto healthz = c.Get("/healthz");
    ASSERT_TRUE(healthz);
    EXPECT_EQ(healthz->status, 200);
    EXPECT_EQ(healthz->body, "ok\n");
}

TEST(WebServer, AFailedTestShowsItsReasonOnItsPageAndInTheListAndResumesFromItsPage) {
    WebFixture f;
    auto id = f.submit("a test of /bin/false");
    auto [w, job] = f.workerJob();
    for (int i = 0; i < 5; ++i) {
        v1::ReleaseRequest r;
        r.set_worker_id(w);
        r.set_lease_id(job.lease_id());
        r.set_error("engine 'dev' did not start: exit code 127");
        f.coord().release(f.worker, r);
        if (i < 4) {
            v1::JobRequest jr;
            jr.set_worker_id(w);
            jr.set_concurrency(1);
            job = f.coord().requestJob(f.worker, jr).job();
        }
    }
    ASSERT_EQ(f.coord().showTest(id).summary().state(), v1::TEST_STATE_FAILED);
    const std::string reason = "5 leases in a row failed; last: worker " + std::to_string(w) +
                               ": engine &#39;dev&#39; did not start: exit code 127";
    auto c = f.client();
    auto page = c.Get("/tests/" + std::to_string(id));
    ASSERT_TRUE(page);
    EXPECT_NE(page->body.find("<span class=\"state failed\">failed</span> " + reason), std::string::npos)
        << page->body;
    EXPECT_EQ(page->body.find("Resume this test"), std::string::npos) << "readers cannot resume";
    auto list = c.Get("/tests?state=failed");
    ASSERT_TRUE(list);
    EXPECT_NE(list->body.find("a test of /bin/false"), std::string::npos);
    EXPECT_NE(list->body.find("<span class=\"reason\">" + reason + "</span>"), std::string::npos)
        << list->body;
    EXPECT_NE(c.Get("/metrics")->body.find("xq_tests{state=\"failed\"} 1"), std::string::npos);

    auto [session, csrf] = f.login(c);
    page = c.Get("/tests/" + std::to_string(id), httplib::Headers{{"Cookie", session}});
    EXPECT_NE(page->body.find("Resume this test"), std::string::npos);
    auto resumed = c.Post("/tests/" + std::to_string(id) + "/resume", httplib::Headers{{"Cookie", session}},
                          httplib::Params{{"csrf", csrf}});
    ASSERT_TRUE(resumed);
    EXPECT_EQ(resumed->status, 303);
    EXPECT_EQ(f.coord().showTest(id).summary().state(), v1::TEST_STATE_RUNNING);
    // A running test cannot be resumed.
    auto again = c.Post("/tests/" + std::to_string(id) + "/resume", httplib::Headers{{"Cookie", session}},
                        httplib::Params{{"csrf", csrf}});
    EXPECT_EQ(again->status, 409);
}

TEST(WebServer, TheSubmitFormOffersEachStoredFileWhereItBelongsAndRefusesAFileThatIsNotWhatItsFieldSays) {
    WebFixture f;
    auto c = f.client();
    auto [session, csrf] = f.login(c);
    // As xq submit stores them: each upload says what the file is, and the coordinator checks it.
    auto store = [&](const std::string& content, const std::string& name, const std::string& kind) {
        auto up = f.coord().beginUpload(f.user, xq::sha256Hex(content), content.size());
        up->write(content);
        up->finish();
        f.coord().artifactUploaded(up->sha256(), content.size(), name, kind);
        return up->sha256();
    };
    const std::string bookText = fileText(std::string(XQ_SOURCE_DIR) + "/data/openings/xq-balanced.epd");
    const std::string book = store(bookText, "xq-balanced.epd", "openings");
    const std::string weights = store("weights 1 2 3", "dev.weights", "weights");
    const std::string engine = uploadArtifact(f.coord(), f.user, DevScript);  // stored without a kind
    auto page = c.Get("/submit", httplib::Headers{{"Cookie", session}});
    ASSERT_TRUE(page);
    for (const char* field : {"dev_sha256", "base_sha256"}) {
        const std::string select = selectIn(page->body, field);
        EXPECT_NE(select.find(engine), std::string::npos) << select;
        EXPECT_EQ(select.find(book), std::string::npos) << "a book is no engine: " << select;
        EXPECT_EQ(select.find(weights), std::string::npos) << select;
    }
    const std::string openings = selectIn(page->body, "openings_sha256");
    EXPECT_NE(openings.find(book), std::string::npos);
    EXPECT_EQ(openings.find(engine), std::string::npos) << "an engine is no book: " << openings;
    EXPECT_NE(
        openings.find("<option value=\"\">the game&#39;s book, as xq submit</option><option value=\"none\">"),
        std::string::npos)
        << openings;
    const std::string devWeights = selectIn(page->body, "dev_weights_sha256");
    EXPECT_NE(devWeights.find(weights), std::string::npos);
    EXPECT_EQ(devWeights.find(engine), std::string::npos);
    EXPECT_EQ(devWeights.find(book), std::string::npos);

    auto post = [&](httplib::MultipartFormDataItems extra) {
        httplib::MultipartFormDataItems form = {{"csrf", csrf, "", ""},
                                                {"base_sha256", engine, "", ""},
                                                {"each", "tc=10+0.1", "", ""},
                                                {"games", "10", "", ""}};
        form.insert(form.end(), extra.begin(), extra.end());
        auto res = c.Post("/submit", httplib::Headers{{"Cookie", session}}, form);
        EXPECT_TRUE(res);
        return res ? *res : httplib::Response{};
    };
    // A book uploaded as the dev engine is refused saying what is wrong with it, and not stored.
    auto refused = post({{"dev_file", bookText, "book.epd", "text/plain"}});
    EXPECT_EQ(refused.status, 400);
    EXPECT_NE(
        refused.body.find("dev engine: artifact " + book.substr(0, 12) +
                          " is not an engine: neither an executable (ELF) nor a script starting with #!"),
        std::string::npos)
        << refused.body;
    // An engine uploaded as the book is refused too.
    const std::string other = "#!/bin/sh\n# another engine\n";
    refused = post({{"dev_sha256", engine, "", ""}, {"openings_file", other, "book.epd", "text/plain"}});
    EXPECT_EQ(refused.status, 400);
    EXPECT_NE(refused.body.find("openings: artifact " + xq::sha256Hex(other).substr(0, 12) +
                                " is not an opening book of Xiangqi, chess or Capture Go"),
              std::string::npos)
        << refused.body;
    EXPECT_FALSE(f.coord().hasArtifact(xq::sha256Hex(other)));
    EXPECT_EQ(f.coord().listTestsPage({}).total, 0);
    // "none" plays without a book.
    auto none = post({{"dev_sha256", engine, "", ""}, {"openings_sha256", "none", "", ""}});
    ASSERT_EQ(none.status, 303) << none.body;
    auto view = f.coord().showTest(std::stoll(none.get_header_value("Location").substr(7)));
    EXPECT_EQ(view.spec().match().openings_sha256(), "");
}
