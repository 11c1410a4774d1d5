// The web view's networks (docs/nnue.md, artifacts of kind "net"): the section of a test page naming the
// networks its engines used, and the page listing every network with the tests that used it. Each links
// its download, GET /nets/<sha256> (web_server.cpp).
#include <string>

#include "html.h"
#include "web_pages.h"

namespace xq::coord::web {

namespace {

using html::escape;

std::string size(std::int64_t bytes) {
    return html::compact(double(bytes)) + "B";
}

}  // namespace

std::string netLink(const std::string& sha) {
    // The file's name is the network's own name: xq- and the first 12 hex digits of its SHA-256.
    return "<a class=\"net\" href=\"/nets/" + escape(sha) + "\" download=\"xq-" + escape(sha.substr(0, 12)) +
           ".nnue\"><code>" + escape(sha.substr(0, 12)) + "</code></a>";
}

std::string netsSection(const std::vector<NetUse>& nets) {
    if (nets.empty()) return {};
    std::string b =
        "<div id=\"nets\"><h2>Networks</h2><table><thead><tr><th>Engine</th><th>Network</th>"
        "<th>Size</th><th>Name</th></tr></thead><tbody>";
    for (const auto& n : nets)
        b += "<tr><td>" + escape(n.role) + "</td><td>" + netLink(n.sha256) + "</td><td>" +
             (n.found ? size(n.info.size) : std::string("missing from the store")) + "</td><td>" +
             escape(n.info.name) + "</td></tr>";
    return b + "</tbody></table></div>";
}

std::string netsPage(const PageContext& ctx, const std::vector<Coordinator::ArtifactInfo>& nets) {
    std::string b =
        "<h1>Networks</h1><p class=\"muted\">" + std::to_string(nets.size()) +
        " networks, newest first &middot; <code>xq nets</code>, <code>xq nets download HASH --out "
        "FILE</code>, <code>xq submit --dev-net FILE</code></p>";
    if (nets.empty()) return layout(ctx, "Networks", b + "<p>No networks yet.</p>");
    b += "<table id=\"nets-table\"><thead><tr><th>Network</th><th>Size</th><th>First upload</th><th>Name</th>"
         "<th>Tests</th></tr></thead><tbody>";
    for (const auto& n : nets) {
        std::string tests;
        for (auto id : n.testIds) {
            std::string s = std::to_string(id);
            tests += (tests.empty() ? "" : " ") + std::string("<a href=\"/tests/") + s + "\">" + s + "</a>";
        }
        b += "<tr><td>" + netLink(n.sha256) + "</td><td>" + size(n.size) + "</td><td>" +
             html::utcTime(n.createdMs / 1000) + "</td><td>" + escape(n.name) + "</td><td>" +
             (tests.empty() ? std::string("-") : tests) + "</td></tr>";
    }
    return layout(ctx, "Networks", b + "</tbody></table>");
}

}  // namespace xq::coord::web
