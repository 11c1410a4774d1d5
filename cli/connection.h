// The options every command that talks to a coordinator takes: --coordinator, --token, --tls-ca (or
// XQ_COORDINATOR, XQ_TOKEN, XQ_TLS_CA, ~/.config/xq/config). Included by cmd_*.cpp files only, which
// include CLI11 anyway.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

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

}  // namespace xq::cli
