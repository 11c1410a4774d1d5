#include "run_report.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "test_report.h"
#include "util/text.h"

namespace xq::coord {

namespace v1 = xq::v1;
using nlohmann::json;

namespace {

// A loss, or "-" while there is none (NaN: not trained yet).
std::string loss(double v) {
    return std::isfinite(v) ? fixed(v, 5) : "-";
}

std::string eloText(double elo, double error) {
    return (elo > 0 ? "+" : "") + fixed(elo, 1) + " +- " + fixed(error, 1);
}

std::string bestText(const v1::RunSummary& s) {
    return runNetName(s.best_net_sha256()) +
           (s.best_generation() ? " (gen " + std::to_string(s.best_generation()) + ")" : " (start)");
}

std::string stepText(const v1::RunSummary& s) {
    return std::to_string(s.generation()) + " " + (s.step().empty() ? "-" : s.step());
}

json number(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json generationJson(const v1::GenerationView& g) {
    json j = {{"generation", g.generation()},
              {"step", g.step()},
              {"parent_net_sha256", g.parent_net_sha256()},
              {"candidate_net_sha256", g.candidate_net_sha256()},
              {"selfplay_test_id", g.selfplay_test_id()},
              {"training_test_id", g.training_test_id()},
              {"gate_test_id", g.gate_test_id()},
              {"promoted", g.promoted()},
              {"positions", g.positions()},
              {"window_positions", g.window_positions()},
              {"train_loss", number(g.train_loss())},
              {"validation_loss", number(g.validation_loss())},
              {"start_validation_loss", number(g.start_validation_loss())},
              {"training_seconds", g.training_seconds()},
              {"training_leases", g.training_leases()},
              {"selfplay_ms", g.selfplay_ms()},
              {"training_ms", g.training_ms()},
              {"gate_ms", g.gate_ms()},
              {"started_unix", g.started_unix()},
              {"finished_unix", g.finished_unix()}};
    if (g.has_gate() && g.gate().id()) j["gate"] = summaryJson(g.gate());
    return j;
}

}  // namespace

const char* runStateName(v1::RunState s) {
    switch (s) {
        case v1::RUN_STATE_RUNNING:
            return "running";
        case v1::RUN_STATE_FINISHED:
            return "finished";
        case v1::RUN_STATE_STOPPED:
            return "stopped";
        case v1::RUN_STATE_FAILED:
            return "failed";
        default:
            return "unknown";
    }
}

std::string runNetName(const std::string& sha256) {
    return sha256.empty() ? std::string("hand-written") : "xq-" + sha256.substr(0, 12) + ".nnue";
}

std::string runListText(const v1::ListRunsResponse& list) {
    if (list.runs_size() == 0) return "no runs\n";
    std::ostringstream out;
    char line[512];
    std::snprintf(line, sizeof line, "%5s  %-9s %-12s %-30s %-16s %s\n", "id", "state", "gen step", "best",
                  "Elo", "description");
    out << line;
    for (const auto& s : list.runs()) {
        std::snprintf(line, sizeof line, "%5llu  %-9s %-12s %-30s %-16s %s\n", (unsigned long long)s.id(),
                      runStateName(s.state()), stepText(s).c_str(), bestText(s).c_str(),
                      eloText(s.elo(), s.elo_error()).c_str(), s.description().c_str());
        out << line;
    }
    return out.str();
}

json runSummaryJson(const v1::RunSummary& s) {
    json j = {{"id", s.id()},
              {"state", runStateName(s.state())},
              {"description", s.description()},
              {"result", s.result()},
              {"generation", s.generation()},
              {"step", s.step()},
              {"step_test_id", s.step_test_id()},
              {"best_net_sha256", s.best_net_sha256()},
              {"best_generation", s.best_generation()},
              {"failed_gates", s.failed_gates()},
              {"promotions", s.promotions()},
              {"elo", s.elo()},
              {"elo_error", s.elo_error()},
              {"created_unix", s.created_unix()},
              {"finished_unix", s.finished_unix()},
              {"submitter", s.submitter()},
              {"generations_target", s.generations_target()}};
    if (s.has_step_test() && s.step_test().id()) j["step_test"] = summaryJson(s.step_test());
    return j;
}

std::string runListJson(const v1::ListRunsResponse& list) {
    json runs = json::array();
    for (const auto& s : list.runs()) runs.push_back(runSummaryJson(s));
    return runs.dump();
}

std::string runViewText(const v1::RunView& view, const std::string& stepLine) {
    const auto& s = view.summary();
    const auto& spec = view.spec();
    std::ostringstream out;
    out << "run " << s.id() << " " << runStateName(s.state()) << ": generation " << s.generation() << ", "
        << (s.step().empty() ? "-" : s.step())
        << (s.step_test_id() ? " (test " + std::to_string(s.step_test_id()) + ")" : std::string()) << "\n";
    if (!s.description().empty()) out << "  description  " << s.description() << "\n";
    if (!s.result().empty()) out << "  result       " << s.result() << "\n";
    out << "  best         " << bestText(s) << ", Elo over the start " << eloText(s.elo(), s.elo_error())
        << ", " << counted(s.promotions(), "promotion") << ", failed gates in a row " << s.failed_gates()
        << " of " << spec.max_failed_gates() << "\n";
    out << "  generations  "
        << (s.generations_target()
                ? std::to_string(s.generations_target())
                : "until " + std::to_string(spec.max_failed_gates()) + " gates fail in a row")
        << "\n";
    out << "  self-play    " << spec.games_per_generation() << " games a generation at "
        << spec.datagen().nodes() << " nodes a move, engine " << spec.datagen().engine().name() << " ["
        << spec.datagen().engine().binary_sha256().substr(0, 12) << "]\n";
    std::string recipe;  // by name: a protobuf map has no order
    const std::map<std::string, std::string> byName(spec.recipe().begin(), spec.recipe().end());
    for (const auto& [name, value] : byName) recipe += (recipe.empty() ? "" : ",") + name + "=" + value;
    out << "  training     " << (recipe.empty() ? "-" : recipe) << "; window " << spec.window()
        << " generations\n";
    out << "  gate         " << spec.gate().base().tc() << ", SPRT elo0=" << spec.gate_sprt().elo0()
        << " elo1=" << spec.gate_sprt().elo1()
        << (spec.gate_games() ? ", at most " + std::to_string(spec.gate_games()) + " games" : std::string())
        << "\n";
    out << "  submitted by " << (s.submitter().empty() ? "-" : s.submitter()) << "\n\n";

    char line[512];
    std::snprintf(line, sizeof line, "%4s %10s %10s %10s %10s %9s %14s %17s %7s %s\n", "gen", "positions",
                  "window", "train", "valid", "train s", "gate W/D/L", "Elo", "LLR", "promoted");
    out << line;
    for (const auto& g : view.generations()) {
        const bool gated = g.has_gate() && g.gate().id();
        const auto& t = g.gate();
        std::string wdl =
            gated && t.wdl_size() == 3
                ? std::to_string(t.wdl(0)) + "/" + std::to_string(t.wdl(1)) + "/" + std::to_string(t.wdl(2))
                : "-";
        std::snprintf(line, sizeof line, "%4u %10llu %10llu %10s %10s %9s %14s %17s %7s %s\n", g.generation(),
                      (unsigned long long)g.positions(), (unsigned long long)g.window_positions(),
                      loss(g.train_loss()).c_str(), loss(g.validation_loss()).c_str(),
                      g.training_seconds() > 0 ? fixed(g.training_seconds(), 1).c_str() : "-", wdl.c_str(),
                      gated ? eloText(t.elo(), t.elo_error()).c_str() : "-",
                      gated && t.is_sprt() ? fixed(t.llr(), 2).c_str() : "-",
                      g.step() == "done" ? (g.promoted() ? "yes" : "no") : ("(" + g.step() + ")").c_str());
        out << line;
    }
    if (!stepLine.empty()) out << "\nnow: " << stepLine << "\n";
    if (view.events_size()) {
        out << "\nevents\n";
        for (const auto& e : view.events()) out << "  " << e << "\n";
    }
    return out.str();
}

std::string runViewJson(const v1::RunView& view) {
    json j = runSummaryJson(view.summary());
    const auto& spec = view.spec();
    json recipe = json::object();
    for (const auto& [name, value] : spec.recipe()) recipe[name] = value;
    j["spec"] = {{"games_per_generation", spec.games_per_generation()},
                 {"nodes", spec.datagen().nodes()},
                 {"engine_sha256", spec.datagen().engine().binary_sha256()},
                 {"start_net_sha256", spec.start_net_sha256()},
                 {"start_hce", spec.start_hce()},
                 {"start_checkpoint_sha256", spec.start_checkpoint_sha256()},
                 {"recipe", recipe},
                 {"window", spec.window()},
                 {"gate_tc", spec.gate().base().tc()},
                 {"gate_openings_sha256", spec.gate().openings_sha256()},
                 {"gate_sprt", {{"elo0", spec.gate_sprt().elo0()}, {"elo1", spec.gate_sprt().elo1()}}},
                 {"gate_games", spec.gate_games()},
                 {"generations", spec.generations()},
                 {"max_failed_gates", spec.max_failed_gates()},
                 {"priority", spec.priority()}};
    json gens = json::array();
    for (const auto& g : view.generations()) gens.push_back(generationJson(g));
    j["generations"] = gens;
    j["events"] = json(std::vector<std::string>(view.events().begin(), view.events().end()));
    return j.dump();
}

}  // namespace xq::coord
