// The options every command that talks to a coordinator takes: --coordinator, --token, --tls-ca (or
// XQ_COORDINATOR, XQ_TOKEN, XQ_TLS_CA, ~/.config/xq/config). Included by cmd_*.cpp files only, which
// include CLI11 anyway.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "client.h"

namespace xq::cli {

struct Connection {
    xq::coord::Endpoint endpoint;
    void addOptions(CLI::App* sub) {
        sub->add_option("--coordinator", endpoint.address, "coordinator HOST:PORT (or XQ_COORDINATOR)");
        sub->add_option("--token", endpoint.token, "user token (or XQ_TOKEN)");
        sub->add_option("--tls-ca", endpoint.tlsCaPath,
                        "CA bundle to verify a TLS coordinator (or XQ_TLS_CA)");
    }
    std::unique_ptr<xq::coord::Client> open() const {
        return std::make_unique<xq::coord::Client>(xq::coord::resolveEndpoint(endpoint));
    }
};

// What every `xq submit ...` prints: "submitted <what> ID" and the id alone on stdout (or {"id", "state"}
// with
// --json); a test that waits for an approver says so, with the command that releases it, on stderr.
inline void printSubmitted(const std::string& command, const std::string& what,
                           const xq::coord::SubmittedTest& t, bool json) {
    if (json)
        std::cout << "{\"id\": " << t.id << ", \"state\": \"" << (t.pending ? "pending" : "running")
                  << "\"}\n";
    else
        std::cout << "submitted " << what << " " << t.id << (t.pending ? " (pending approval)" : "") << "\n"
                  << t.id << "\n";
    if (t.pending) std::cerr << command << ": " << xq::coord::pendingHint(t.id) << "\n";
}

}  // namespace xq::cli
