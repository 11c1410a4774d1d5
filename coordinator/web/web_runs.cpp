// The web view's runs (run.proto): the list of runs, one run's page (summary, current step with its
// progress and ETA, the table of generations, the charts of the best's Elo and of validation loss, its
// settings and events, Stop / Resume), and the run form. Pure functions from views to HTML, as
// web_pages.cpp's.
#include <algorithm>
#include <cmath>
#include <map>

#include "artifact_check.h"
#include "form_fields.h"
#include "html.h"
#include "net_file.h"
#include "run_report.h"
#include "web_pages.h"

namespace xq::coord::web {

namespace {

using html::escape;
using html::fixed;
using xq::counted;

std::string testLink(std::uint64_t id) {
    if (!id) return "-";
    const std::string s = std::to_string(id);
    return "<a href=\"/tests/" + s + "\">" + s + "</a>";
}

std::string runBadge(const v1::RunSummary& s) {
    const std::string name = runStateName(s.state());
    return "<span class=\"state " + name + "\">" + escape(name) + "</span>";
}

// A network, or the hand-written evaluation for none.
std::string netOrHce(const std::string& sha) {
    return sha.empty() ? std::string("the hand-written evaluation") : netLink(sha);
}

std::string bestText(const v1::RunSummary& s) {
    return netOrHce(s.best_net_sha256()) +
           (s.best_generation()
                ? " <span class=\"muted\">of generation " + std::to_string(s.best_generation()) + "</span>"
                : std::string(" <span class=\"muted\">(the start)</span>"));
}

std::string runEloText(const v1::RunSummary& s) {
    return (s.elo() > 0 ? "+" : "") + fixed(s.elo(), 1) + " &plusmn; " + fixed(s.elo_error(), 1);
}

std::string generationText(const v1::RunSummary& s) {
    return std::to_string(s.generation()) +
           (s.generations_target() ? " of " + std::to_string(s.generations_target()) : std::string());
}

std::string loss(double v) {
    return std::isfinite(v) ? fixed(v, 5) : std::string("-");
}

std::string wallTime(std::int64_t ms) {
    return ms > 0 ? html::duration(double(ms) / 1000) : std::string("-");
}

std::string stepCell(std::uint64_t test, std::int64_t ms) {
    if (!test) return "-";
    return testLink(test) + " <span class=\"muted\">" + wallTime(ms) + "</span>";
}

std::string generationsSection(const v1::RunView& run) {
    const std::string id = std::to_string(run.summary().id());
    std::string b =
        "<h2>Generations</h2><table class=\"generations\"><thead><tr><th>Gen</th><th>Step</th>"
        "<th>Positions</th><th>Window</th><th>Train loss</th><th>Validation loss (start)</th>"
        "<th>Training time</th><th>Gate W / D / L</th><th>Elo</th><th>LLR</th><th>Promoted</th>"
        "<th>Candidate</th><th>Report</th><th>Self-play test</th><th>Training test</th><th>Gate test</th>"
        "</tr></thead><tbody>";
    for (const auto& g : run.generations()) {
        const std::string gen = std::to_string(g.generation());
        const bool trained = !g.training_report_json().empty();
        const bool gated = g.gate_test_id() && g.gate().games() > 0;
        b += "<tr data-generation=\"" + gen + "\"><td class=\"num\">" + gen + "</td><td class=\"step\">" +
             escape(g.step()) + "</td><td class=\"num positions\">" + std::to_string(g.positions()) +
             "</td><td class=\"num window\">" +
             (g.training_test_id() ? std::to_string(g.window_positions()) : std::string("-")) +
             "</td><td class=\"num train-loss\">" + loss(g.train_loss()) +
             "</td><td class=\"num validation-loss\">" + loss(g.validation_loss()) +
             (std::isfinite(g.start_validation_loss())
                  ? " <span class=\"muted\">(" + loss(g.start_validation_loss()) + ")</span>"
                  : std::string()) +
             "</td><td class=\"num\">" + (trained ? html::duration(g.training_seconds()) : std::string("-")) +
             "</td><td class=\"num wdl\">" + (gated ? wdlText(g.gate()) : std::string("-")) +
             "</td><td class=\"num elo\">" + (gated ? eloText(g.gate()) : std::string("-")) +
             "</td><td class=\"llrcell\">" + (g.gate_test_id() ? llrBar(g.gate(), false) : std::string("-")) +
             "</td><td class=\"promoted\">" +
             (g.step() != "done" ? std::string("-")
              : g.promoted()     ? "<b>yes</b>"
                                 : "no") +
             "</td><td class=\"candidate\">" +
             (g.candidate_net_sha256().empty() ? std::string("-") : netLink(g.candidate_net_sha256())) +
             "</td><td>" +
             (trained ? "<a class=\"report\" href=\"/runs/" + id + "/generations/" + gen +
                            "/report.json\">report.json</a>"
                      : std::string("-")) +
             "</td><td>" + stepCell(g.selfplay_test_id(), g.selfplay_ms()) + "</td><td>" +
             stepCell(g.training_test_id(), g.training_ms()) +
             (g.training_leases() > 1
                  ? " <span class=\"muted\">" + counted(g.training_leases(), "lease") + "</span>"
                  : std::string()) +
             "</td><td>" + stepCell(g.gate_test_id(), g.gate_ms()) + "</td></tr>";
    }
    if (run.generations_size() == 0) b += "<tr><td colspan=\"16\" class=\"muted\">none yet</td></tr>";
    return b + "</tbody></table>";
}

std::string summarySection(const PageContext& ctx, const v1::RunView& run) {
    const auto& s = run.summary();
    const auto& spec = run.spec();
    std::string b = "<table class=\"kv\">";
    auto row = [&](const std::string& k, const std::string& v) {
        b += "<tr><th>" + k + "</th><td>" + v + "</td></tr>";
    };
    row("State", runBadge(s) +
                     (s.result().empty() ? "" : " <span class=\"result\">" + escape(s.result()) + "</span>"));
    row("Start", netOrHce(spec.start_net_sha256()));
    row("Best network", "<span class=\"best\">" + bestText(s) + "</span>");
    row("Promotions", "<span class=\"promotions\">" + std::to_string(s.promotions()) + "</span>; " +
                          std::to_string(s.failed_gates()) + " of " +
                          std::to_string(spec.max_failed_gates()) + " gates failed in a row");
    row("Elo over the start", "<span class=\"elo\">" + runEloText(s) +
                                  "</span> <span class=\"muted\">the promoted gates' estimates chained, 95% "
                                  "errors combined</span>");
    row("Generation", "<span class=\"generation\">" + generationText(s) + "</span>" +
                          (s.generations_target()
                               ? std::string()
                               : " <span class=\"muted\">until " + std::to_string(spec.max_failed_gates()) +
                                     " gates fail in a row</span>"));
    if (!s.step().empty() && s.step() != "done") {
        const auto p = runStepProgress(s, ctx.nowUnix);
        const int w = 120;
        row("Step",
            "<span class=\"step\">" + escape(s.step()) + "</span>, test " + testLink(s.step_test_id()) +
                ": <span class=\"progress\">" + p.text + "</span> <svg class=\"progressbar\" width=\"" +
                std::to_string(w) +
                "\" height=\"10\" viewBox=\"0 0 120 10\"><rect width=\"120\" height=\"10\" "
                "fill=\"#e6e6e6\"/><rect width=\"" +
                fixed(p.fraction * w, 1) + "\" height=\"10\" fill=\"#1f5fa8\"/></svg>" +
                (s.state() == v1::RUN_STATE_RUNNING
                     ? " <span class=\"eta\">" +
                           (p.etaSeconds >= 0 ? "about " + html::duration(double(p.etaSeconds)) + " left"
                                              : std::string("no estimate yet")) +
                           "</span>"
                     : std::string()));
    }
    return b + "</table>";
}

std::string recipeText(const v1::RunSpec& spec) {
    std::string out;
    for (const auto& [k, v] : std::map<std::string, std::string>(spec.recipe().begin(), spec.recipe().end()))
        out += (out.empty() ? "" : ",") + k + "=" + v;
    return out;
}

std::string settingsSection(const v1::RunSpec& spec) {
    const auto& d = spec.datagen();
    const auto& sprt = spec.gate_sprt();
    std::string b = "<h2>Settings</h2><table class=\"kv settings\">";
    auto row = [&](const std::string& k, const std::string& v) {
        b += "<tr><th>" + k + "</th><td>" + v + "</td></tr>";
    };
    row("Engine", escape(d.engine().name()) + " " + shortSha(d.engine().binary_sha256()));
    row("Self-play", std::to_string(spec.games_per_generation()) + " games a generation at " +
                         std::to_string(d.nodes()) + " nodes a move");
    row("Training", "<code>" + escape(recipeText(spec)) + "</code> on the last " +
                        counted(spec.window(), "generation") + "' positions");
    row("Gate", escape(spec.gate().base().tc()) + ", SPRT elo0=" + fixed(sprt.elo0(), 2) +
                    " elo1=" + fixed(sprt.elo1(), 2) + ", at most " + std::to_string(spec.gate_games()) +
                    " games, openings " + shortSha(spec.gate().openings_sha256()));
    row("Scheduling", "priority " + std::to_string(spec.priority()) + ", throughput " +
                          fixed(spec.throughput() > 0 ? spec.throughput() : 1, 2));
    return b + "</table>";
}

}  // namespace

RunStepProgress runStepProgress(const v1::RunSummary& s, std::int64_t nowUnix) {
    RunStepProgress p;
    const auto& t = s.step_test();
    double done = 0, total = 0;
    if (s.step() == "training") {
        done = t.training().epochs_done(), total = t.training().epochs();
        p.text = std::to_string(t.training().epochs_done()) + " of " +
                 counted(t.training().epochs(), "epoch") + " done, " +
                 counted(t.training().positions(), "position") + " in the window";
    } else {
        done = double(t.games()), total = double(t.games_target());
        p.text = std::to_string(t.games()) + " of " + counted(t.games_target(), "game");
        if (s.step() == "selfplay")
            p.text += ", " + counted(t.datagen().positions(), "position");
        else if (t.is_sprt())
            p.text += " at most, LLR " + fixed(t.llr(), 2) + " in [" + fixed(t.lower_bound(), 2) + ", " +
                      fixed(t.upper_bound(), 2) + "]";
    }
    p.fraction = total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0;
    const double elapsed = double(nowUnix - t.created_unix());
    if (p.fraction > 0 && p.fraction < 1 && t.created_unix() > 0 && elapsed > 0)
        p.etaSeconds = std::int64_t(std::llround(elapsed * (1 - p.fraction) / p.fraction));
    else if (p.fraction >= 1)
        p.etaSeconds = 0;
    return p;
}

Chart runEloChart(const v1::RunView& run) {
    Chart c;
    c.title = "Best network's Elo over the start (95% band)";
    c.xLabel = "generation";
    c.emptyText = "no gate has ended yet";
    c.wholeX = true;
    double elo = 0, variance = 0;
    for (const auto& g : run.generations()) {
        if (g.step() != "done") continue;
        if (c.x.empty()) c.x = {0}, c.y = {0}, c.bandLow = {0}, c.bandHigh = {0};
        if (g.promoted()) elo += g.gate().elo(), variance += g.gate().elo_error() * g.gate().elo_error();
        const double e = std::sqrt(variance);
        c.x.push_back(g.generation());
        c.y.push_back(elo);
        c.bandLow.push_back(elo - e);
        c.bandHigh.push_back(elo + e);
    }
    c.lines = {{0, "start"}};
    return c;
}

Chart runLossChart(const v1::RunView& run) {
    Chart c;
    c.title = "Validation loss of each generation's network";
    c.xLabel = "generation";
    c.emptyText = "no network trained yet";
    c.wholeX = true;
    for (const auto& g : run.generations()) {
        if (!std::isfinite(g.validation_loss())) continue;
        if (c.x.empty() && std::isfinite(g.start_validation_loss()))
            c.lines = {{g.start_validation_loss(), "start " + fixed(g.start_validation_loss(), 4)}};
        c.x.push_back(g.generation());
        c.y.push_back(g.validation_loss());
    }
    return c;
}

std::string runsPage(const PageContext& ctx, const v1::ListRunsResponse& runs) {
    std::string b =
        "<h1>Runs</h1><p class=\"muted\">The network's loop on the coordinator: self-play, training, gate "
        "and promotion, generation after generation (<a href=\"/api/runs\">JSON</a>)" +
        std::string(ctx.user.empty() ? "" : " &middot; <a href=\"/submit/run\">start a run</a>") +
        "</p><div id=\"runs-live\" data-live=\"1\"><table class=\"tests runs\"><thead><tr><th>Run</th>"
        "<th>State</th><th>Generation</th><th>Step</th><th>Best network</th><th>Elo</th><th>Submitter</th>"
        "<th>Created</th></tr></thead><tbody>";
    constexpr auto cell = &listCell;
    for (const auto& s : runs.runs()) {
        const std::string id = std::to_string(s.id());
        b += "<tr data-run=\"" + id + "\">" +
             cell("Run", " class=\"test\"",
                  "<a href=\"/runs/" + id + "\">" + id + "</a> <span class=\"desc\">" +
                      escape(s.description()) + "</span>") +
             cell("State", "",
                  runBadge(s) + (s.state() == v1::RUN_STATE_FAILED
                                     ? " <span class=\"reason\">" + escape(s.result()) + "</span>"
                                     : std::string())) +
             cell("Generation", " class=\"num generation\"", generationText(s)) +
             cell("Step", " class=\"step\"",
                  s.step() == "done" ? std::string("done")
                                     : escape(s.step()) + " " + testLink(s.step_test_id())) +
             cell("Best", " class=\"best\"", bestText(s)) + cell("Elo", " class=\"num elo\"", runEloText(s)) +
             cell("Submitter", "", escape(s.submitter())) +
             cell("Created", "", html::utcTime(s.created_unix())) + "</tr>";
    }
    if (runs.runs_size() == 0) b += "<tr><td colspan=\"8\" class=\"muted\">no runs</td></tr>";
    return layout(ctx, "Runs", b + "</tbody></table></div>");
}

std::string runPage(const PageContext& ctx, const v1::RunView& run) {
    const auto& s = run.summary();
    const std::string id = std::to_string(s.id());
    const bool running = s.state() == v1::RUN_STATE_RUNNING;
    const std::string live = running ? " data-live=\"1\"" : "";
    std::string b = "<h1>Run " + id + " <span class=\"desc\">" + escape(s.description()) + "</span></h1>";
    b += "<p class=\"muted\">submitted by " + escape(s.submitter().empty() ? "-" : s.submitter()) + ", " +
         html::utcTime(s.created_unix()) +
         (s.finished_unix() ? ", ended " + html::utcTime(s.finished_unix()) : std::string()) +
         " &middot; <a href=\"/api/runs/" + id + "\">JSON</a></p>";
    if (!ctx.user.empty() && running)
        b += "<form method=\"post\" action=\"/runs/" + id +
             "/stop\" class=\"stop\" data-confirm=\"Stop run " + id +
             "? Its current step's test stops; Resume starts the step again.\">" + csrfField(ctx) +
             "<input name=\"reason\" placeholder=\"reason (optional)\" maxlength=\"200\"> <button "
             "type=\"submit\" id=\"stop\">Stop this run</button></form>";
    if (!ctx.user.empty() && (s.state() == v1::RUN_STATE_STOPPED || s.state() == v1::RUN_STATE_FAILED))
        b += "<form method=\"post\" action=\"/runs/" + id + "/resume\" class=\"resume\">" + csrfField(ctx) +
             "<button type=\"submit\" id=\"resume\">Resume this run</button> <span class=\"muted\">its "
             "step runs again</span></form>";
    b += "<div id=\"run-summary\"" + live + ">" + summarySection(ctx, run) + "</div>";
    b += "<div id=\"run-charts\" class=\"charts\"" + live + "><div id=\"run-elo-chart\">" +
         svgChart(runEloChart(run), 600) + "</div><div id=\"run-loss-chart\">" +
         svgChart(runLossChart(run), 600) + "</div></div>";
    b += "<div id=\"generations\" class=\"scroll\"" + live + ">" + generationsSection(run) + "</div>";
    b += settingsSection(run.spec());
    b += "<div id=\"run-events\"" + live + "><h2>Events</h2><ul class=\"events\">";
    for (const auto& e : run.events()) b += "<li>" + escape(e) + "</li>";
    b += "</ul></div>";
    return layout(ctx, "Run " + id, b);
}

std::string runSubmitPage(const PageContext& ctx, const std::vector<Coordinator::ArtifactInfo>& artifacts,
                          const std::string& error, const FormValues& values) {
    const FormFields form(values, artifacts);
    std::string b =
        "<h1>Start a run</h1><p class=\"muted\">Each generation plays self-play games with the run's best "
        "network, trains a candidate on the last generations' positions, and plays an SPRT of the candidate "
        "against the best; a candidate that passes becomes the best.</p>";
    if (!error.empty()) b += "<p class=\"error\" id=\"submit-error\">" + escape(error) + "</p>";
    b += "<form method=\"post\" action=\"/submit/run\" enctype=\"multipart/form-data\" class=\"submit\">" +
         csrfField(ctx);
    b += "<fieldset><legend>Engine and start</legend><label>Engine " +
         form.artifactChoice("engine_sha256", "upload a file below", ArtifactKindEngine) +
         "</label> or <input type=\"file\" name=\"engine_file\" id=\"engine_file\"><br>";
    b += form.field("Engine settings", "engine_settings", "",
                    "for self-play and the gate, e.g. option.Hash=16 (no tc: the gate's is below)");
    b += "<label>Start network " +
         form.artifactChoice("start_net_sha256", "the hand-written evaluation", ArtifactKindNet) +
         "</label> or <input type=\"file\" name=\"start_net_file\" id=\"start_net_file\"><br>";
    b += "</fieldset><fieldset><legend>Self-play and training</legend>";
    b += form.field("Games per generation", "games_per_generation", "1000",
                    "self-play games of each generation");
    b += form.field("Nodes", "nodes", "5000", "per self-play move");
    b += form.field("Recipe", "recipe", "hidden=128,epochs=4",
                    "xq-tuner nnue settings: hidden, epochs, lambda, lr, lr-final-ratio, wd, wdl-k, batch, "
                    "validation, seed, max-positions, init=best|scratch");
    b += form.field("Window", "window", "3", "generations of positions each training reads (the newest)");
    b += "</fieldset><fieldset><legend>Gate</legend>";
    b += form.field("Gate time control", "gate_tc", "10+0.1", "e.g. 10+0.1, or nodes=20000");
    b += "<label>Openings " +
         form.artifactChoice("openings_sha256", "the game's book, as xq submit", ArtifactKindOpenings,
                             {{FormNoOpenings, "none: every pair from the start position"}}) +
         "</label><br>";
    b += form.field("SPRT", "gate_sprt", "elo0=0,elo1=10", "the candidate against the best");
    b += form.field("Gate games", "gate_games", "2000", "the SPRT's cap");
    b += "</fieldset><fieldset><legend>Length and scheduling</legend>";
    b += form.field("Generations", "generations", "10", "0: until the gates below fail in a row");
    b += form.field("Max failed gates", "max_failed_gates", "3", "the run ends after this many in a row");
    b += form.field("Priority", "priority", "0", "of the run's tests; higher runs first");
    b += form.field("Throughput", "throughput", "1", "share among tests of equal priority");
    b += form.field("Description", "description", "", "shown in listings");
    b += "</fieldset><button type=\"submit\" id=\"submit\">Start the run</button></form>";
    return layout(ctx, "Start a run", b);
}

}  // namespace xq::coord::web
