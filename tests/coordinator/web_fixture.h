// An in-process coordinator server with its web view on 127.0.0.1 (an OS-picked port), its tokens, and the
// calls the web view's tests make: a test submitted, a worker's job, a login's session cookie and form token.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <string>

#include "server.h"
#include "test_store.h"
#include "test_util.h"
#include "upload_artifact.h"

namespace xq::coord::testing {

// The <select> of a form field in a page, up to its end ("" when the page has none).
inline std::string selectIn(const std::string& page, const std::string& name) {
    auto from = page.find("<select name=\"" + name + "\"");
    return from == std::string::npos ? std::string() : page.substr(from, page.find("</select>", from) - from);
}

struct WebFixture {
    TempDir dir;
    TestStore store;
    std::unique_ptr<CoordinatorServer> server;
    Caller user, worker;
    std::string userToken;

    ServerOptions o;

    explicit WebFixture(const std::string& cert = "", const std::string& key = "") {
        o.coordinator.dataDir = dir.file("data");
        o.coordinator.store = store.option();
        o.coordinator.chunk.maxPairs = 4;
        o.tlsCertPath = cert;
        o.tlsKeyPath = key;
        o.web.listen = "127.0.0.1:0";
        o.web.maxUploadBytes = 1 << 20;
        server = std::make_unique<CoordinatorServer>(o);
        userToken = server->coordinator().createToken(Role::User, "alice");
        user = server->coordinator().authenticate(userToken);
        worker = server->coordinator().authenticate(server->coordinator().createToken(Role::Worker, "box"));
    }
    Coordinator& coord() { return server->coordinator(); }
    // Another coordinator server on the same store and data directory (a replica, or a restart).
    std::unique_ptr<CoordinatorServer> another() { return std::make_unique<CoordinatorServer>(o); }
    httplib::Client client(CoordinatorServer* on = nullptr) {
        httplib::Client c("http://" + (on ? on : server.get())->web()->address());
        c.set_read_timeout(20, 0);
        return c;
    }
    std::int64_t submit(const std::string& description) {
        v1::SubmitRequest req;
        auto* m = req.mutable_spec()->mutable_match();
        m->mutable_base()->set_binary_sha256(uploadArtifact(coord(), user, "base engine"));
        m->mutable_dev()->set_binary_sha256(uploadArtifact(coord(), user, "dev engine"));
        m->mutable_base()->set_tc("10+0.1");
        m->mutable_dev()->set_tc("10+0.1");
        req.mutable_spec()->set_games(20);
        req.mutable_spec()->set_description(description);
        return std::int64_t(coord().submit(user, req).test_id());
    }
    // A registered worker and the job it is given (a worker of `kind` jobs besides match ones).
    std::pair<std::uint64_t, v1::Job> workerJob(const std::string& kind = "") {
        v1::RegisterRequest reg;
        reg.set_name("box");
        auto w = coord().registerWorker(worker, reg).worker_id();
        v1::JobRequest jr;
        jr.set_worker_id(w);
        jr.set_concurrency(1);
        if (!kind.empty()) jr.add_kinds(kind);
        return {w, coord().requestJob(worker, jr).job()};
    }
    // The session cookie and form token of a login.
    std::pair<std::string, std::string> login(httplib::Client& c) {
        auto res = c.Post("/login", httplib::Params{{"token", userToken}});
        EXPECT_TRUE(res);
        if (!res) return {};
        EXPECT_EQ(res->status, 303);
        std::string cookie = res->get_header_value("Set-Cookie");
        std::string session = cookie.substr(0, cookie.find(';'));
        auto page = c.Get("/submit", httplib::Headers{{"Cookie", session}});
        std::string body = page ? page->body : "";
        auto at = body.find("name=\"csrf\" value=\"");
        EXPECT_NE(at, std::string::npos);
        at += 19;
        return {session, body.substr(at, body.find('"', at) - at)};
    }
};

}  // namespace xq::coord::testing
