// `xq nets`: the networks (NNUE files, docs/nnue.md) a coordinator holds as artifacts: list them with the
// tests that used them, upload one, download one by hash (verified). Tests name them with
// `xq submit --dev-net FILE` / `--base-net FILE`.
#include <CLI/CLI.hpp>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command.h"
#include "connection.h"
#include "net_file.h"
#include "nnue_network.h"
#include "util/sha256.h"

namespace {

namespace v1 = xq::v1;
using xq::cli::Connection;

std::string isoTime(std::int64_t seconds) {
    std::time_t t = std::time_t(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
    return buf;
}

void addList(CLI::App* nets, const std::shared_ptr<Connection>& conn) {
    auto json = std::make_shared<bool>(false);
    auto limit = std::make_shared<unsigned>(200);
    nets->add_flag("--json", *json, "print the list as JSON");
    nets->add_option("--limit", *limit, "most recent N networks")->capture_default_str();
    nets->callback([nets, conn, json, limit] {
        if (!nets->get_subcommands().empty()) return;
        auto client = conn->open();
        v1::ListArtifactsRequest req;
        req.set_kind(xq::coord::ArtifactKindNet);
        req.set_limit(*limit);
        v1::ListArtifactsResponse resp;
        auto ctx = client->context();
        xq::coord::check(client->user().ListArtifacts(ctx.get(), req, &resp), "list networks");
        if (*json) {
            auto out = nlohmann::json::array();
            for (const auto& a : resp.artifacts())
                out.push_back(
                    {{"sha256", a.sha256()},
                     {"name", a.name()},
                     {"size", a.size()},
                     {"created_unix", a.created_unix()},
                     {"tests", std::vector<std::uint64_t>(a.test_ids().begin(), a.test_ids().end())}});
            std::cout << out.dump(2) << "\n";
            return;
        }
        if (resp.artifacts().empty()) {
            std::cout << "no networks\n";
            return;
        }
        std::cout << "hash          size       first upload          name                 tests\n";
        for (const auto& a : resp.artifacts()) {
            std::string tests;
            for (auto id : a.test_ids()) tests += (tests.empty() ? "" : ",") + std::to_string(id);
            std::string name = a.name().substr(0, 20);
            name.resize(20, ' ');
            std::string size = std::to_string(a.size());
            size.resize(10, ' ');
            std::cout << a.sha256().substr(0, 12) << "  " << size << " " << isoTime(a.created_unix()) << "  "
                      << name << " " << (tests.empty() ? "-" : tests) << "\n";
        }
    });
}

void addUpload(CLI::App* nets, const std::shared_ptr<Connection>& conn) {
    auto* sub = nets->add_subcommand("upload", "upload a network file (checked first); prints its hash");
    auto file = std::make_shared<std::string>();
    conn->addOptions(sub);
    sub->add_option("FILE", *file, "network file")->required();
    sub->callback([conn, file] {
        if (std::string problem = xq::cli::networkProblem(*file); !problem.empty()) {
            std::cerr << "xq nets upload: " << problem << "\n";
            throw xq::cli::ExitCode{2};
        }
        auto client = conn->open();
        bool present = false;
        std::string sha = client->upload(*file, xq::coord::ArtifactKindNet, &present);
        std::cerr << "xq nets upload: " << *file
                  << (present ? " was already on the coordinator" : " uploaded") << "\n";
        std::cout << sha << "\n";
    });
}

void addDownload(CLI::App* nets, const std::shared_ptr<Connection>& conn) {
    auto* sub = nets->add_subcommand("download", "download a network by hash (verified)");
    auto hash = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    conn->addOptions(sub);
    sub->add_option("HASH", *hash, "the network's SHA-256 (64 hex digits)")->required();
    sub->add_option("--out", *out, "file to write (default: its name, xq-<hash prefix>.nnue)");
    sub->callback([conn, hash, out] {
        if (!xq::isSha256Hex(*hash)) {
            std::cerr << "xq nets download: '" << hash->substr(0, 80)
                      << "' is not a SHA-256 (64 lowercase hex digits)\n";
            throw xq::cli::ExitCode{2};
        }
        std::string path = out->empty() ? "xq-" + hash->substr(0, 12) + ".nnue" : *out;
        auto client = conn->open();
        client->download(*hash, path);
        std::cout << path << "\n";
    });
}

xq::cli::RegisterCommand registerNets([](CLI::App& app) {
    auto* nets = app.add_subcommand("nets", "networks on a coordinator: list (default), upload, download");
    auto conn = std::make_shared<Connection>();
    conn->addOptions(nets);
    addList(nets, conn);
    addUpload(nets, conn);
    addDownload(nets, conn);
});

}  // namespace

std::string xq::cli::networkProblem(const std::string& path) {
    if (!std::filesystem::is_regular_file(path)) return "network file '" + path + "' is not a file";
    try {
        xq::nnue::loadNetworkFile(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}
