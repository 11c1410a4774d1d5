#include "web_pages.h"

#include <algorithm>
#include <cmath>

#include "artifact_check.h"
#include "charts.h"
#include "forge.h"
#include "form_fields.h"
#include "html.h"
#include "net_file.h"
#include "test_report.h"

namespace xq::coord::web {

namespace {

using html::escape;
using html::fixed;
using xq::counted;

}  // namespace

std::string shortSha(const std::string& sha) {
    return sha.empty() ? "-" : "<code title=\"" + escape(sha) + "\">" + escape(sha.substr(0, 12)) + "</code>";
}

std::string stateBadge(const v1::TestSummary& s) {
    std::string name = stateName(s.state());
    std::string cls = name;
    if (s.result() == "H1 accepted") cls = "passed";
    if (s.result() == "H0 accepted") cls = "failed";
    return "<span class=\"state " + cls + "\">" + escape(name) + "</span>";
}

// The LLR between its bounds as a small bar (SVG, so no inline style is needed under the page's CSP).
std::string llrBar(const v1::TestSummary& s, bool showBounds) {
    if (!s.is_sprt()) return "<span class=\"muted\">fixed games</span>";
    double lo = s.lower_bound(), hi = s.upper_bound();
    double frac = hi > lo ? std::clamp((s.llr() - lo) / (hi - lo), 0.0, 1.0) : 0;
    double zero = hi > lo ? std::clamp(-lo / (hi - lo), 0.0, 1.0) : 0.5;
    const int w = 120;
    std::string color = s.llr() >= hi ? "#2e8b57" : s.llr() <= lo ? "#c0392b" : "#1f5fa8";
    return "<span class=\"llr\" title=\"LLR " + fixed(s.llr(), 2) + " in [" + fixed(lo, 2) + ", " +
           fixed(hi, 2) + "]\"><svg class=\"llrbar\" width=\"" + std::to_string(w) +
           "\" height=\"10\" viewBox=\"0 0 120 10\"><rect width=\"120\" height=\"10\" fill=\"#e6e6e6\"/>"
           "<rect width=\"" +
           fixed(frac * w, 1) + "\" height=\"10\" fill=\"" + color + "\"/><line x1=\"" + fixed(zero * w, 1) +
           "\" x2=\"" + fixed(zero * w, 1) +
           "\" y1=\"0\" y2=\"10\" stroke=\"#333\"/></svg> <span class=\"num\">" + fixed(s.llr(), 2) +
           "</span>" +
           (showBounds ? " <span class=\"muted\">[" + fixed(lo, 2) + ", " + fixed(hi, 2) + "]</span>" : "") +
           "</span>";
}

std::string wdlText(const v1::TestSummary& s) {
    if (s.wdl_size() != 3) return "-";
    return std::to_string(s.wdl(0)) + " / " + std::to_string(s.wdl(1)) + " / " + std::to_string(s.wdl(2));
}

std::string pentaText(const v1::TestSummary& s) {
    std::string out;
    for (int i = 0; i < s.penta().counts_size(); ++i)
        out += (i ? ", " : "") + std::to_string(s.penta().counts(i));
    return out.empty() ? "-" : out;
}

std::string eloText(const v1::TestSummary& s) {
    if (s.games() == 0) return "-";
    return fixed(s.elo(), 1) + " &plusmn; " + fixed(s.elo_error(), 1);
}

namespace {

// An engine's build: its commit (built by each worker) or its binary's hash.
std::string buildOf(const v1::EngineSpec& e) {
    if (!e.has_source()) return shortSha(e.binary_sha256());
    std::string code = "<code title=\"" + escape(e.source().subject()) + "\">" +
                       escape(e.source().commit().substr(0, 12)) + "</code>";
    std::string link = forgeCommitUrl(e.source().repository(), e.source().commit());
    return link.empty() ? code : "<a class=\"commit\" href=\"" + escape(link) + "\">" + code + "</a>";
}

// Who wrote a source engine's commit and the ref it was named by: " <span>by A, ref R</span>", or "".
std::string sourceNote(const v1::EngineSpec& e) {
    std::vector<std::string> parts;
    if (!e.source().author().empty()) parts.push_back("by " + escape(e.source().author()));
    if (!e.source().ref().empty()) parts.push_back("ref <code>" + escape(e.source().ref()) + "</code>");
    std::string note;
    for (const auto& p : parts) note += (note.empty() ? "" : ", ") + p;
    return note.empty() ? "" : " <span class=\"muted source\">" + note + "</span>";
}

// The match a test plays: its own, or an SPSA test's (θ+ as dev against θ− as base).
const v1::MatchSpec& matchOf(const v1::TestSpec& spec) {
    return spec.has_spsa() ? spec.spsa().match() : spec.match();
}

std::string engineLine(const v1::TestSpec& spec) {
    if (spec.has_datagen()) return "datagen: " + escape(spec.datagen().engine().name());
    if (spec.has_spsa())
        return "spsa: " + escape(spec.spsa().match().dev().name()) + " " + buildOf(spec.spsa().match().dev());
    const auto& m = spec.match();
    return escape(m.dev().name()) + " " + buildOf(m.dev()) + " vs " + escape(m.base().name()) + " " +
           buildOf(m.base());
}

std::string tcText(const v1::TestSpec& spec) {
    if (spec.has_datagen()) return "nodes=" + std::to_string(spec.datagen().nodes());
    const auto& m = matchOf(spec);
    if (m.dev().tc() == m.base().tc()) return escape(m.dev().tc());
    // In the order of the Engines column beside it ("dev vs base"), as a ladder's version against a
    // reference of its own clock reads.
    return escape(m.dev().tc()) + " vs " + escape(m.base().tc());
}

// The rule set that judges a test's games, as the pages name it.
std::string rulesText(const v1::TestSpec& spec) {
    if ((spec.has_datagen() ? spec.datagen().game() : matchOf(spec).game()) == "chess") return "Chess";
    if (!spec.has_datagen() && matchOf(spec).game() == "capturego")
        return "Capture Go, board " + escape(matchOf(spec).board());
    const std::string& r = spec.has_datagen() ? spec.datagen().rules() : matchOf(spec).rules();
    return r == "chinese" ? "Chinese" : "Asian";
}

std::string pageLink(const TestsPageQuery& q, std::int64_t page, const std::string& text) {
    std::string url = "/tests?page=" + std::to_string(page);
    if (!q.state.empty()) url += "&state=" + html::urlEncode(q.state);
    if (!q.submitter.empty()) url += "&submitter=" + html::urlEncode(q.submitter);
    return "<a href=\"" + escape(url) + "\">" + text + "</a>";
}

std::string failuresText(const v1::Failures& f) {
    return counted(f.crashes(), "crash", "crashes") + ", " +
           counted(f.time_losses(), "time loss", "time losses") + ", " +
           counted(f.illegal_moves(), "illegal move") + ", " + counted(f.stalls(), "stall");
}

std::string optionsText(const v1::EngineSpec& e) {
    std::vector<std::string> items;
    for (const auto& [k, v] : e.options()) items.push_back(escape(k) + "=" + escape(v));
    std::sort(items.begin(), items.end());
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
    for (const auto& a : e.args()) out += (out.empty() ? "arg " : ", arg ") + escape(a);
    return out.empty() ? "-" : out;
}

}  // namespace

std::string listCell(const char* label, const std::string& attrs, const std::string& content) {
    return std::string("<td data-label=\"") + label + "\"" + attrs + ">" + content + "</td>";
}

std::string csrfField(const PageContext& ctx) {
    return "<input type=\"hidden\" name=\"csrf\" value=\"" + escape(ctx.csrf) + "\">";
}

std::string layout(const PageContext& ctx, const std::string& title, const std::string& body) {
    std::string out =
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<title>" +
        escape(title) +
        " - xq</title><link rel=\"icon\" type=\"image/svg+xml\" href=\"/static/favicon.svg\">"
        "<link rel=\"stylesheet\" href=\"/static/style.css\">"
        "<script src=\"/static/live.js\" defer></script></head><body><nav><a class=\"brand\" "
        "href=\"/tests\">xq</a>"
        "<a href=\"/tests\">Tests</a><a href=\"/workers\">Workers</a><a href=\"/bench\">Benchmarks</a>"
        "<a href=\"/ladder\">Ladders</a><a href=\"/nets\">Networks</a><a href=\"/runs\">Runs</a>"
        "<a href=\"/metrics\">Metrics</a><span class=\"spacer\"></span>";
    if (ctx.user.empty()) {
        out += "<a href=\"/login\">Log in</a>";
    } else {
        out += "<a href=\"/submit\">Submit</a><span class=\"user\">" + escape(ctx.user) +
               "</span><form method=\"post\" action=\"/logout\" class=\"inline\">" + csrfField(ctx) +
               "<button type=\"submit\">Log out</button></form>";
    }
    out += "</nav><main>" + body + "</main></body></html>";
    return out;
}

std::string testsPage(const PageContext& ctx, const TestsPageQuery& q, const Coordinator::TestPage& tests) {
    std::string b =
        "<h1>Tests</h1><form class=\"filter\" method=\"get\" action=\"/tests\"><label>State <select "
        "name=\"state\">";
    for (const char* s : {"", "running", "pending", "finished", "stopped", "failed"})
        b += std::string("<option value=\"") + s + "\"" + (q.state == s ? " selected" : "") + ">" +
             (*s ? s : "any") + "</option>";
    b += "</select></label> <label>Submitter <input name=\"submitter\" value=\"" + escape(q.submitter) +
         "\"></label> <button type=\"submit\">Filter</button></form>";
    b += "<div id=\"tests-live\" data-live=\"1\"><p class=\"muted\">" + counted(tests.total, "test") +
         "</p><table class=\"tests\"><thead><tr><th>Test</th><th>State</th><th>Engines</th><th>TC</th>"
         "<th>Rules</th><th>Games</th><th>W / D / L</th><th>Pentanomial</th><th>Elo</th><th>LLR</th>"
         "<th>Submitter</th><th>Age</th></tr></thead><tbody>";
    constexpr auto cell = &listCell;
    for (const auto& v : tests.tests) {
        const auto& s = v.summary();
        std::string id = std::to_string(s.id());
        b += "<tr data-test=\"" + id + "\">" +
             cell("Test", " class=\"test\"",
                  "<a href=\"/tests/" + id + "\">" + id + "</a> <span class=\"desc\">" +
                      escape(s.description()) + "</span>") +
             cell("State", "",
                  stateBadge(s) + (s.state() == v1::TEST_STATE_FAILED
                                       ? " <span class=\"reason\">" + escape(s.result()) + "</span>"
                                       : std::string())) +
             cell("Engines", "", engineLine(v.spec())) + cell("TC", "", tcText(v.spec())) +
             cell("Rules", "", rulesText(v.spec())) +
             cell("Games", " class=\"num games\"",
                  std::to_string(s.games()) + " / " + std::to_string(s.games_target()));
        if (s.kind() == "datagen") {
            b += cell("Data", " colspan=\"4\"",
                      counted(s.datagen().positions(), "position") + " in " +
                          counted(s.datagen().chunks(), "chunk"));
        } else if (s.has_spsa()) {
            b += cell("SPSA", " colspan=\"4\"", spsaValuesText(s.spsa()));
        } else {
            b += cell("W / D / L", " class=\"num wdl\"", wdlText(s)) +
                 cell("Pentanomial", " class=\"num penta\"", pentaText(s)) +
                 cell("Elo", " class=\"num elo\"", eloText(s)) +
                 cell("LLR", " class=\"llrcell\"", llrBar(s, false));
        }
        b += cell("Submitter", "", escape(v.spec().submitter())) +
             cell("Age", "", html::age(s.created_unix(), ctx.nowUnix)) + "</tr>";
    }
    if (tests.tests.empty()) b += "<tr><td colspan=\"12\" class=\"muted\">no tests</td></tr>";
    b += "</tbody></table></div>";
    std::int64_t pages = std::max<std::int64_t>(1, (tests.total + q.perPage - 1) / q.perPage);
    b += "<p class=\"pager\">";
    if (q.page > 1) b += pageLink(q, q.page - 1, "&larr; newer") + " ";
    b += "page " + std::to_string(q.page) + " of " + std::to_string(pages);
    if (q.page < pages) b += " " + pageLink(q, q.page + 1, "older &rarr;");
    b += "</p>";
    return layout(ctx, "Tests", b);
}

std::string llrChart(const TestPageData& d) {
    Chart c;
    c.title = "LLR";
    c.xLabel = "games";
    for (const auto& p : d.history) c.x.push_back(double(p.games)), c.y.push_back(p.llr);
    const auto& s = d.view.summary();
    c.lines = {{s.upper_bound(), "H1 " + fixed(s.upper_bound(), 2)},
               {s.lower_bound(), "H0 " + fixed(s.lower_bound(), 2)}};
    return svgChart(c);
}

std::string eloChart(const TestPageData& d) {
    Chart c;
    c.title = "Elo with its 95% interval";
    c.xLabel = "games";
    for (const auto& p : d.history) {
        c.x.push_back(double(p.games));
        c.y.push_back(p.elo);
        c.bandLow.push_back(p.elo - p.eloError);
        c.bandHigh.push_back(p.elo + p.eloError);
    }
    c.lines = {{0, "0"}};
    return svgChart(c);
}

namespace {

std::string resultsSection(const TestPageData& d) {
    const auto& s = d.view.summary();
    const auto& spec = d.view.spec();
    std::string b = "<table class=\"kv\">";
    auto row = [&](const std::string& k, const std::string& v) {
        b += "<tr><th>" + k + "</th><td>" + v + "</td></tr>";
    };
    row("State", stateBadge(s) + (s.result().empty() ? "" : " " + escape(s.result())));
    row("Games", "<span class=\"games\">" + std::to_string(s.games()) + "</span> of " +
                     std::to_string(s.games_target()) + (s.is_sprt() ? " at most" : "") + ", " +
                     counted(s.active_workers(), "worker") + " active");
    if (s.kind() == "datagen") {
        const auto& p = s.datagen();
        row("Data", counted(p.positions(), "position") + " in " + counted(p.chunks(), "chunk") + " (" +
                        html::compact(double(p.bytes())) + " bytes); slices " +
                        std::to_string(p.slices_done()) + " of " + std::to_string(p.slices()) + " done; " +
                        counted(p.games_played(), "game") + " finished");
    } else {
        row("W / D / L", "<span class=\"wdl\">" + wdlText(s) + "</span>");
        row("Pentanomial", "<span class=\"penta\">" + pentaText(s) +
                               "</span> <span class=\"muted\">(LL, LD, DD+WL, WD, WW)</span>");
        row("Elo", "<span class=\"elo\">" + eloText(s) + "</span>, LOS " + fixed(100 * s.los(), 1) + "%");
        if (s.is_sprt())
            row("LLR", llrBar(s) + " <span class=\"muted\">SPRT elo0=" + fixed(spec.sprt().elo0(), 2) +
                           " elo1=" + fixed(spec.sprt().elo1(), 2) + " (" +
                           escape(spec.sprt().model().empty() ? "normalized" : spec.sprt().model()) +
                           ")</span>");
        row("Failures", failuresText(d.view.failures()));
    }
    return b + "</table>";
}

std::string workersSection(const TestPageData& d) {
    std::string b =
        "<h2>Workers</h2><table><thead><tr><th>Worker</th><th>Games</th><th>Crashes</th><th>Time "
        "losses</th><th>Illegal moves</th><th>Stalls</th><th>Suspended</th></tr></thead><tbody>";
    for (const auto& w : d.view.workers())
        b += "<tr><td>" + std::to_string(w.worker_id()) + " " + escape(w.worker_name()) +
             "</td><td class=\"num\">" + std::to_string(w.games()) + "</td><td class=\"num\">" +
             std::to_string(w.failures().crashes()) + "</td><td class=\"num\">" +
             std::to_string(w.failures().time_losses()) + "</td><td class=\"num\">" +
             std::to_string(w.failures().illegal_moves()) + "</td><td class=\"num\">" +
             std::to_string(w.failures().stalls()) + "</td><td>" + (w.suspended() ? "<b>yes</b>" : "no") +
             "</td></tr>";
    if (d.view.workers_size() == 0) b += "<tr><td colspan=\"7\" class=\"muted\">none yet</td></tr>";
    return b + "</tbody></table>";
}

std::string eventsSection(const TestPageData& d) {
    std::string b = "<h2>Events</h2><ul class=\"events\">";
    for (const auto& e : d.view.events()) b += "<li>" + escape(e) + "</li>";
    b += "</ul>";
    // The test's webhooks: each delivery, delivered, pending (tried again) or failed with the reason.
    if (d.view.webhook_deliveries_size() > 0) {
        b += "<h2>Webhooks</h2><table class=\"webhooks\"><thead><tr><th>Receiver</th><th>Event</th>"
             "<th>State</th><th>Attempts</th><th>Last answer</th></tr></thead><tbody>";
        for (const auto& w : d.view.webhook_deliveries())
            b += "<tr><td><code>" + escape(w.url()) + "</code></td><td>" + escape(w.event()) +
                 "</td><td class=\"webhook-" + escape(w.state()) + "\">" + escape(w.state()) + "</td><td>" +
                 std::to_string(w.attempts()) + "</td><td>" +
                 (w.last_error().empty() ? (w.http_status() ? "HTTP " + std::to_string(w.http_status()) : "-")
                                         : escape(w.last_error())) +
                 "</td></tr>";
        b += "</tbody></table>";
    }
    return b;
}

std::string specSection(const v1::TestSpec& spec) {
    std::string b;
    if (spec.has_datagen()) {
        const auto& g = spec.datagen();
        b += "<table class=\"kv\"><tr><th>Engine</th><td>" + escape(g.engine().name()) + " " +
             shortSha(g.engine().binary_sha256()) + "</td></tr><tr><th>Settings</th><td>" +
             std::to_string(g.nodes()) + " nodes, " + std::to_string(g.random_plies()) +
             " random plies, sample rate " + fixed(g.sample_rate(), 3) + ", balanced within " +
             std::to_string(g.balanced_cp()) + " cp, seed " + std::to_string(g.seed()) + ", " +
             std::to_string(g.slice_games()) + " games a slice</td></tr></table>";
        return b;
    }
    const auto& m = matchOf(spec);
    b += "<table><thead><tr><th>Engine</th><th>Name</th><th>Binary</th><th>Weights</th><th>Time control</th>"
         "<th>Protocol</th><th>Options</th><th>Bench</th></tr></thead><tbody>";
    for (const auto* e : {&m.dev(), &m.base()})
        b += std::string("<tr><th>") + (e == &m.dev() ? "dev" : "base") + "</th><td>" + escape(e->name()) +
             "</td><td>" +
             (e->has_source() ? "commit " + buildOf(*e) + " " + escape(e->source().subject()) + sourceNote(*e)
                              : shortSha(e->binary_sha256())) +
             "</td><td>" + shortSha(e->weights_sha256()) + "</td><td>" + escape(e->tc()) + "</td><td>" +
             escape(e->protocol().empty() ? "uci" : e->protocol()) + "</td><td>" + optionsText(*e) +
             "</td><td>" + (e->bench_signature() ? std::to_string(e->bench_signature()) : std::string("-")) +
             "</td></tr>";
    b += "</tbody></table>";
    if (std::string c = compareText(m); !c.empty())
        b += "<p>Compare <code class=\"compare\">" + escape(c) +
             "</code> <span class=\"muted\">(base..dev, built by each worker with <code>" +
             escape(m.dev().source().build_command()) + "</code>)</span></p>";
    if (m.dev().has_source() && !m.dev().source().repository().empty()) {
        const std::string& repo = m.dev().source().repository();
        std::string web = forgeWebUrl(repo);
        b += "<p>Repository " +
             (web.empty() ? "<code>" + escape(repo) + "</code>"
                          : "<a class=\"repository\" href=\"" + escape(web) + "\">" + escape(web) + "</a>") +
             "</p>";
    }
    b += "<table class=\"kv\"><tr><th>Rules</th><td>" + rulesText(spec) +
         "</td></tr><tr><th>Openings</th><td>" + shortSha(m.openings_sha256()) +
         "</td></tr><tr><th>Adjudication</th><td>";
    std::string adj;
    if (m.resign_score())
        adj += "resign at " + std::to_string(m.resign_score()) + " cp for " +
               std::to_string(m.resign_moves()) + " moves; ";
    if (m.draw_score() || m.draw_moves())
        adj += "draw within " + std::to_string(m.draw_score()) + " cp for " + std::to_string(m.draw_moves()) +
               " moves from move " + std::to_string(m.draw_move_number()) + "; ";
    if (m.max_moves()) adj += "draw after " + std::to_string(m.max_moves()) + " moves; ";
    b += (adj.empty() ? "none" : escape(adj)) + "</td></tr><tr><th>Scheduling</th><td>priority " +
         std::to_string(spec.priority()) + ", throughput " +
         fixed(spec.throughput() > 0 ? spec.throughput() : 1, 2) + ", " +
         (m.concurrency_per_worker() ? std::to_string(m.concurrency_per_worker()) + " games at once a worker"
                                     : std::string("as many games at once as a worker offers")) +
         (m.reference_nps() ? ", clocks for " + html::compact(double(m.reference_nps())) + " nodes/s"
                            : std::string()) +
         "</td></tr></table>";
    return b;
}

std::string chunksSection(const TestPageData& d) {
    std::string id = std::to_string(d.view.summary().id());
    std::string b =
        "<h2>Data chunks</h2><table><thead><tr><th>Chunk</th><th>Slice</th><th>Positions</th><th>Bytes</th>"
        "<th>Worker</th><th>Slice state</th></tr></thead><tbody>";
    for (const auto& c : d.chunks.chunks())
        b += "<tr><td><a href=\"/tests/" + id + "/chunks/" + std::to_string(c.id()) + "\">" +
             std::to_string(c.id()) + ".txt.gz</a></td><td class=\"num\">" + std::to_string(c.slice()) +
             "</td><td class=\"num\">" + std::to_string(c.positions()) + "</td><td class=\"num\">" +
             std::to_string(c.bytes()) + "</td><td>" + std::to_string(c.worker_id()) + "</td><td>" +
             (c.slice_done() ? "done" : "in play") + "</td></tr>";
    if (d.chunks.chunks_size() == 0) b += "<tr><td colspan=\"6\" class=\"muted\">none yet</td></tr>";
    b += "</tbody></table>";
    if (d.chunks.more())
        b += "<p class=\"muted\">More chunks: <code>xq data list --test " + id + "</code></p>";
    return b;
}

}  // namespace

std::string testPage(const PageContext& ctx, const TestPageData& d) {
    const auto& s = d.view.summary();
    const auto& spec = d.view.spec();
    const bool running = s.state() == v1::TEST_STATE_RUNNING;
    const bool pending = s.state() == v1::TEST_STATE_PENDING;
    std::string id = std::to_string(s.id());
    const std::string live = running ? " data-live=\"1\"" : "";
    std::string b = "<h1>Test " + id + " <span class=\"desc\">" + escape(s.description()) + "</span></h1>";
    b += "<p class=\"muted\">" + escape(s.kind().empty() ? "match" : s.kind()) + " test submitted by " +
         escape(spec.submitter().empty() ? "-" : spec.submitter()) + ", " + html::utcTime(s.created_unix()) +
         (s.finished_unix() ? ", ended " + html::utcTime(s.finished_unix()) : std::string()) +
         " &middot; <a href=\"/api/tests/" + id + "\">JSON</a>" +
         (spec.ladder().empty() ? std::string()
                                : " &middot; <a href=\"/ladder/" + html::urlEncode(spec.ladder()) +
                                      "\">ladder " + escape(spec.ladder()) + "</a>") +
         "</p>";
    if (pending && ctx.approver)
        b += "<form method=\"post\" action=\"/tests/" + id + "/approve\" class=\"approve\">" +
             csrfField(ctx) +
             "<input name=\"reason\" placeholder=\"note (optional)\" maxlength=\"500\"> <button "
             "type=\"submit\" "
             "id=\"approve\">Approve</button> <button type=\"submit\" id=\"reject\" formaction=\"/tests/" +
             id + "/reject\">Reject</button></form>";
    else if (pending)
        b += "<p class=\"muted\" id=\"waiting\">Waiting for an approver before workers play it.</p>";
    if (s.state() == v1::TEST_STATE_FAILED && !ctx.user.empty())
        b += "<form method=\"post\" action=\"/tests/" + id + "/resume\" class=\"resume\">" + csrfField(ctx) +
             "<button type=\"submit\" id=\"resume\">Resume this test</button> "
             "<span class=\"muted\">its count of failed leases starts again</span></form>";
    if ((running || pending) && !ctx.user.empty())
        b += "<form method=\"post\" action=\"/tests/" + id +
             "/stop\" class=\"stop\" data-confirm=\"Stop test " + id +
             "? Its workers stop playing it, and it cannot be resumed.\">" + csrfField(ctx) +
             "<input name=\"reason\" placeholder=\"reason (optional)\" maxlength=\"200\"> <button "
             "type=\"submit\" "
             "id=\"stop\">Stop this test</button></form>";
    b += "<div id=\"results\"" + live + ">" + resultsSection(d) + "</div>";
    if (spec.has_spsa()) b += "<div id=\"spsa\"" + live + ">" + spsaSection(d.view) + "</div>";
    b += specSection(spec);
    b += netsSection(d.nets);
    if (s.kind() != "datagen") {
        b += "<div id=\"charts\" class=\"charts\"" + live + "><div id=\"llr-chart\">" +
             (s.is_sprt() ? llrChart(d) : std::string("<p class=\"muted\">fixed games: no LLR</p>")) +
             "</div><div id=\"elo-chart\">" + eloChart(d) + "</div></div>";
        // Capture Go's games are SGF, the others' PGN.
        const std::string format = s.game() == "capturego" ? "sgf" : "pgn";
        b += "<div id=\"games\"" + live + "><h2>Games</h2><p>" + counted(d.games.games, "game") +
             " stored (" + html::compact(double(d.games.bytes)) + " bytes compressed)" +
             (d.games.games ? " &middot; <a id=\"" + format + "-download\" href=\"/tests/" + id + "/games." +
                                  format + ".gz\" download>download games." + format + ".gz</a>"
                            : std::string()) +
             " &middot; <code>xq pgn " + id + " --out games." + format + "</code></p></div>";
    } else {
        b += "<div id=\"chunks\"" + live + ">" + chunksSection(d) + "</div>";
    }
    b += "<div id=\"workers\"" + live + ">" + workersSection(d) + "</div>";
    b += "<div id=\"events\"" + live + ">" + eventsSection(d) + "</div>";
    return layout(ctx, "Test " + id, b);
}

std::string workersPage(const PageContext& ctx, const v1::ListWorkersResponse& workers) {
    std::string b =
        "<h1>Workers</h1><div id=\"workers-live\" data-live=\"1\"><p class=\"muted\">" +
        counted(workers.workers_size(), "worker") +
        " seen within a day</p><table><thead><tr><th>Worker</th><th>State</th><th>CPU</th>"
        "<th>Cores</th><th>Concurrency</th><th>Nodes/s</th><th>Last seen</th><th>Test</th><th>Games</th>"
        "<th>Crashes</th><th>Time losses</th><th>Illegal moves</th><th>Suspensions</th><th>Version</th>"
        "</tr></thead><tbody>";
    for (const auto& w : workers.workers()) {
        b +=
            "<tr><td>" + std::to_string(w.id()) + " " + escape(w.name()) + "</td><td>" +
            (w.alive() ? "<span class=\"state running\">alive</span>" : "<span class=\"muted\">gone</span>") +
            "</td><td>" + escape(w.cpu_model()) + "</td><td class=\"num\">" + std::to_string(w.cores()) +
            "</td><td class=\"num\">" +
            (w.concurrency() ? std::to_string(w.concurrency()) : std::string("-")) +
            "</td><td class=\"num\">" + html::compact(double(w.engine_nps())) + "</td><td>" +
            html::age(w.last_seen_unix(), ctx.nowUnix) + " ago</td><td>" +
            (w.current_test_id() ? "<a href=\"/tests/" + std::to_string(w.current_test_id()) + "\">" +
                                       std::to_string(w.current_test_id()) + "</a>"
                                 : std::string("idle")) +
            "</td><td class=\"num\">" + std::to_string(w.games()) + "</td><td class=\"num\">" +
            std::to_string(w.failures().crashes() + w.failures().stalls()) + "</td><td class=\"num\">" +
            std::to_string(w.failures().time_losses()) + "</td><td class=\"num\">" +
            std::to_string(w.failures().illegal_moves()) + "</td><td class=\"num\">" +
            std::to_string(w.suspensions()) + "</td><td>" + escape(w.version()) + "</td></tr>";
    }
    if (workers.workers_size() == 0) b += "<tr><td colspan=\"14\" class=\"muted\">no workers</td></tr>";
    b += "</tbody></table></div>";
    return layout(ctx, "Workers", b);
}

std::string benchPage(const PageContext& ctx, const v1::ListBenchesResponse& runs) {
    std::string b =
        "<h1>Benchmarks</h1><p class=\"muted\">Runs of the engine's <code>bench</code> command on the "
        "workers "
        "(<code>xq bench --cluster</code>), newest first.</p>";
    for (const auto& r : runs.runs()) {
        const auto& st = r.settings();
        b += "<h2>Run " + std::to_string(r.id()) + "</h2><p class=\"muted\">engine " +
             shortSha(st.engine_sha256()) + ", depth " +
             (st.depth() ? std::to_string(st.depth()) : std::string("default")) + ", " +
             counted(st.threads() ? st.threads() : 1, "thread") + ", hash " +
             std::to_string(st.hash_mb() ? st.hash_mb() : 16) + " MB, " +
             counted(st.repeats() ? st.repeats() : 1, "repeat") + ", " + html::utcTime(r.created_unix()) +
             "</p><table><thead><tr><th>Worker</th><th>CPU</th><th>Cores</th>"
             "<th>Nodes</th><th>Nodes/s (each repeat)</th><th>State</th></tr></thead><tbody>";
        for (const auto& w : r.workers()) {
            std::string nps;
            for (const auto& rep : w.repeats())
                nps += (nps.empty() ? "" : ", ") + html::compact(double(rep.nps()));
            b += "<tr><td>" + std::to_string(w.worker_id()) + " " + escape(w.worker_name()) + "</td><td>" +
                 escape(w.cpu_model()) + "</td><td class=\"num\">" + std::to_string(w.cores()) +
                 "</td><td class=\"num\">" +
                 (w.repeats_size() ? std::to_string(w.repeats(0).nodes()) : std::string("-")) +
                 "</td><td class=\"num\">" + (nps.empty() ? "-" : nps) + "</td><td>" +
                 (!w.error().empty() ? "error: " + escape(w.error())
                  : w.done()         ? std::string("done")
                                     : std::string("waiting")) +
                 "</td></tr>";
        }
        b += "</tbody></table>";
    }
    if (runs.runs_size() == 0) b += "<p class=\"muted\">no benchmark runs</p>";
    return layout(ctx, "Benchmarks", b);
}

std::string loginPage(const PageContext& ctx, const std::string& error) {
    std::string b = "<h1>Log in</h1>";
    if (!error.empty()) b += "<p class=\"error\">" + escape(error) + "</p>";
    b += "<form method=\"post\" action=\"/login\" class=\"login\"><label>User token <input type=\"password\" "
         "name=\"token\" id=\"token\" autocomplete=\"current-password\" required></label> <button "
         "type=\"submit\" "
         "id=\"login\">Log in</button></form><p class=\"muted\">The token is the one <code>xq-coordinator "
         "token "
         "create --role user</code> printed. Reading needs no login.</p>";
    return layout(ctx, "Log in", b);
}

std::string submitPage(const PageContext& ctx, const std::vector<Coordinator::ArtifactInfo>& artifacts,
                       const std::string& error, const FormValues& values) {
    std::string b =
        "<h1>Submit a test</h1><p class=\"muted\">or <a href=\"/submit/run\" id=\"run-form\">start a "
        "run</a>: "
        "the network's loop of self-play, training, gate and promotion, generation after generation</p>";
    if (!error.empty()) b += "<p class=\"error\" id=\"submit-error\">" + escape(error) + "</p>";
    const FormFields form(values, artifacts);
    auto field = [&](const std::string& label, const std::string& name, const std::string& value,
                     const std::string& help) { return form.field(label, name, value, help); };
    auto choice = [&](const std::string& name,
                      const std::vector<std::pair<std::string, std::string>>& options) {
        return form.choice(name, options);
    };
    auto artifactChoice = [&](const std::string& name, const std::string& emptyChoice, const char* kind) {
        if (std::string(kind) != ArtifactKindOpenings) return form.artifactChoice(name, emptyChoice, kind);
        return form.artifactChoice(name, emptyChoice, kind,
                                   {{FormNoOpenings, "none: every pair from the start position"}});
    };
    b += "<form method=\"post\" action=\"/submit\" enctype=\"multipart/form-data\" class=\"submit\">" +
         csrfField(ctx);
    b += "<fieldset><legend>Engines</legend>";
    for (const char* who : {"dev", "base"}) {
        std::string w = who;
        b += "<label>" + w + " engine " +
             artifactChoice(w + "_sha256", "upload a file below", ArtifactKindEngine) +
             "</label> or <input type=\"file\" name=\"" + w + "_file\" id=\"" + w + "_file\"><br>";
        b += "<label>" + w + " weights " +
             artifactChoice(w + "_weights_sha256", "none", ArtifactKindWeights) +
             "</label> or <input type=\"file\" name=\"" + w + "_weights_file\"><br>";
        b += "<label>" + w + " network " + artifactChoice(w + "_net_sha256", "none", ArtifactKindNet) +
             "</label> or <input type=\"file\" name=\"" + w +
             "_net_file\"> <span class=\"muted\">an NNUE "
             "file (EvalFile, Use NNUE on)</span><br>";
        b += field(w + " name", w + "_name", w, "shown in results");
        b += field(w + " settings", w + "_settings", "", "for this engine only, e.g. option.Hash=16");
        b += field(w + " bench signature", w + "_signature", "",
                   "workers must reproduce this bench node count (empty: unchecked)");
    }
    b += "</fieldset><fieldset><legend>Match</legend>";
    b += field("Both engines", "each", "tc=10+0.1",
               "settings for both: tc=10+0.1, nodes=5000, option.Hash=16, proto=uci");
    b += "<label>Openings " +
         artifactChoice("openings_sha256", "the game's book, as xq submit", ArtifactKindOpenings) +
         "</label> or <input type=\"file\" name=\"openings_file\"><br>";
    b += field("SPRT", "sprt", "elo0=0,elo1=5",
               "gainer (elo0=0,elo1=2), non-regression (elo0=-1.75,elo1=0.25), or "
               "elo0=A,elo1=B[,alpha=..,beta=..,model=normalized|logistic]; empty: fixed games");
    b += field("Games", "games", "", "fixed games, or the SPRT's cap (empty: the default cap)");
    b += field("Concurrency", "concurrency", "", "games at once per worker (empty: the worker's)");
    b += field("Priority", "priority", "0", "higher runs first");
    b += field("Throughput", "throughput", "1", "share among tests of equal priority");
    b +=
        "<label>Game " +
        choice("game",
               {{"xiangqi", "Xiangqi"}, {"chess", "International chess"}, {"capturego", "Capture Go"}}) +
        "</label> <span class=\"muted\">chess engines speak uci or fairy; Capture Go engines speak gtp, with "
        "no default book</span><br>";
    b +=
        field("Board", "board", "",
              "Capture Go only: size=5..19,rules=capture|go,target=N,komi=K (empty: 9x9, capture, target 1)");
    b += "<label>Rules " +
         choice("rules", {{"asian", "Asian (AXF)"}, {"chinese", "Chinese (40-move limit)"}}) +
         "</label> <span class=\"muted\">Xiangqi's rule set for repetitions</span><br>";
    b += field("Max moves", "max_moves", "", "adjudicate a draw after this many moves per side");
    b += field("Resign", "resign", "", "resign adjudication score (cp)");
    b += field("Resign moves", "resign_moves", "", "moves the resign score must hold");
    b += field("Draw", "draw", "", "draw adjudication score (cp)");
    b += field("Draw moves", "draw_moves", "", "moves the draw score must hold");
    b += field("Draw after", "draw_after", "", "first move number for draw adjudication");
    b += field("Reference nps", "reference_nps", "", "the clocks are meant for this engine speed");
    b += field("Description", "description", "", "shown in listings");
    b += "</fieldset><button type=\"submit\" id=\"submit\">Submit</button></form>";
    return layout(ctx, "Submit", b);
}

std::string ladderPage(const PageContext& ctx, const LadderPageData& d) {
    Chart c;
    c.title = "Rating of each version (95% interval), the players' mean at 0";
    c.xLabel = "version";
    c.emptyText = "no games yet";
    c.wholeX = true;
    for (std::size_t i = 0; i < d.versions.size(); ++i)
        for (const auto& p : d.fit.players)
            if (p.name == d.versions[i]) {
                c.x.push_back(double(i + 1));
                c.y.push_back(p.elo);
                c.bandLow.push_back(p.low);
                c.bandHigh.push_back(p.high);
            }
    std::string b =
        "<h1>Ladder <span class=\"desc\">" + escape(d.name) + "</span></h1><p class=\"muted\">" +
        counted(d.tests, "test") + "; <code>xq rate --ladder " + escape(d.name) +
        "</code> prints the same</p>" + svgChart(c) +
        "<table><thead><tr><th>#</th><th>Player</th><th>Games</th><th>Score</th><th>Elo</th><th>95% "
        "interval</th></tr></thead><tbody>";
    for (std::size_t i = 0; i < d.fit.players.size(); ++i) {
        const auto& p = d.fit.players[i];
        auto v = std::find(d.versions.begin(), d.versions.end(), p.name);
        b += "<tr><td>" +
             (v == d.versions.end() ? std::string("ref") : std::to_string(v - d.versions.begin() + 1)) +
             "</td><td>" + escape(p.name) + "</td><td class=\"num\">" + std::to_string(p.games) +
             "</td><td class=\"num\">" + (p.games ? fixed(100 * p.score / double(p.games), 1) + "%" : "-") +
             "</td><td class=\"num elo\">" + fixed(p.elo, 1) + "</td><td class=\"num\">[" + fixed(p.low, 1) +
             ", " + fixed(p.high, 1) + "]</td></tr>";
    }
    b += "</tbody></table>";
    return layout(ctx, "Ladder " + d.name, b);
}

std::string laddersPage(const PageContext& ctx,
                        const std::vector<std::pair<std::string, std::int64_t>>& ladders) {
    std::string b =
        "<h1>Ladders</h1><p class=\"muted\">An engine's versions rated against fixed reference players "
        "(<code>xq ladder add</code>).</p><table class=\"ladders\"><thead><tr><th>Ladder</th><th>Tests</th>"
        "</tr></thead><tbody>";
    for (const auto& [name, tests] : ladders)
        b += "<tr><td><a href=\"/ladder/" + html::urlEncode(name) + "\">" + escape(name) +
             "</a></td><td class=\"num\">" + std::to_string(tests) + "</td></tr>";
    if (ladders.empty()) b += "<tr><td colspan=\"2\" class=\"muted\">no ladders</td></tr>";
    return layout(ctx, "Ladders", b + "</tbody></table>");
}

std::string errorPage(const PageContext& ctx, int status, const std::string& message) {
    return layout(
        ctx, "Error " + std::to_string(status),
        "<h1>Error " + std::to_string(status) + "</h1><p class=\"error\">" + escape(message) + "</p>");
}

}  // namespace xq::coord::web
