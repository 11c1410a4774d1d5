// The store a test runs on. By default SQLite, in a file of the test's own directory. When the environment
// names a PostgreSQL server (XQ_TEST_POSTGRES: a postgresql:// URL of a database allowed to create others,
// or XQ_TEST_POSTGRES_FILE: a file holding one, as scripts/pg-server.sh writes), a fresh database on it,
// dropped when the test ends. ctest runs the store, coordinator and cluster tests both ways (the second
// run's names start with "pg.").
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "database.h"

namespace xq::coord::testing {

// The server's admin URL from the environment, or "" for SQLite.
inline std::string postgresAdminUrl() {
    if (const char* url = std::getenv("XQ_TEST_POSTGRES"); url && *url) return url;
    if (const char* file = std::getenv("XQ_TEST_POSTGRES_FILE"); file && *file) {
        std::ifstream in(file);
        std::string url;
        std::getline(in, url);
        if (url.empty()) ADD_FAILURE() << "XQ_TEST_POSTGRES_FILE=" << file << " holds no URL";
        return url;
    }
    return "";
}

// `url` with its database name (the path after the host) replaced.
inline std::string withDatabase(const std::string& url, const std::string& name) {
    auto hostStart = url.find("://") + 3;
    auto slash = url.find('/', hostStart);
    auto query = url.find('?', hostStart);
    std::string base = url.substr(0, std::min(slash, query));
    return base + "/" + name + (query == std::string::npos ? "" : url.substr(query));
}

struct TestStore {
    std::string adminUrl = postgresAdminUrl();
    std::string name, url;  // url: empty for SQLite

    TestStore() { create(); }
    // A database on the server of `admin` (a test that runs its own server).
    explicit TestStore(std::string admin) : adminUrl(std::move(admin)) { create(); }
    void create() {
        if (adminUrl.empty()) return;
        static std::atomic<int> counter{0};
        name = "xq_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
        Database admin(adminUrl);
        admin.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        admin.exec("CREATE DATABASE " + name);
        url = withDatabase(adminUrl, name);
    }
    ~TestStore() {
        if (name.empty()) return;
        try {
            Database admin(adminUrl);
            admin.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (const std::exception& e) {
            ADD_FAILURE() << "could not drop " << name << ": " << e.what();
        }
    }
    TestStore(const TestStore&) = delete;
    TestStore& operator=(const TestStore&) = delete;

    bool postgres() const { return !url.empty(); }
    // What Store and CoordinatorOptions::store take: the URL, or SQLite's file (Store) / "" (options).
    std::string address(const std::string& sqlitePath) const { return postgres() ? url : sqlitePath; }
    std::string option() const { return url; }
    // xq-coordinator's arguments for this store.
    std::vector<std::string> args() const {
        return postgres() ? std::vector<std::string>{"--store", url} : std::vector<std::string>{};
    }
};

}  // namespace xq::coord::testing
