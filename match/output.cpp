#include "output.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "util/text.h"

namespace xq::match {

namespace {

std::string fmt(const char* format, double a, double b = 0, double c = 0) {
    char buf[128];
    std::snprintf(buf, sizeof buf, format, a, b, c);
    return buf;
}

std::string duration(double seconds) {
    long s = std::lround(seconds);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    else if (s >= 60)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%lds", s);
    return buf;
}

std::string failuresText(const EngineFailures& f) {
    return std::to_string(f.crashes) + " crashes, " + std::to_string(f.timeLosses) + " time losses, " +
           std::to_string(f.illegalMoves) + " illegal moves, " + std::to_string(f.stalls) + " stalls";
}

std::string bounds(const MatchReport& r) {
    const auto& s = *r.sprt;
    return "LLR " + fixed(r.sprtState.llr, 2) + " (" + fixed(r.sprtState.lower, 2) + ", " +
           fixed(r.sprtState.upper, 2) + ")" + fmt(" [%g, %g] ", s.elo0, s.elo1) +
           xq::stats::toString(s.model);
}

}  // namespace

xq::stats::Penta pentaOf(const MatchTotals& t) {
    xq::stats::Penta p;
    for (int i = 0; i < 5; ++i) p.pairs[std::size_t(i)] = t.penta[std::size_t(i)];
    return p;
}

xq::stats::Wdl wdlOf(const MatchTotals& t) {
    return {t.wdl[0], t.wdl[1], t.wdl[2]};
}

std::string progressLine(const MatchReport& r) {
    const MatchTotals& t = r.totals;
    long planned = 2 * (r.config->games / 2);
    auto e = xq::stats::elo(pentaOf(t));
    std::string line = "Games " + std::to_string(t.games()) + "/" + std::to_string(planned) + "  W/D/L " +
                       std::to_string(t.wdl[0]) + "/" + std::to_string(t.wdl[1]) + "/" +
                       std::to_string(t.wdl[2]) + "  Ptnml " + std::to_string(t.penta[0]) + "," +
                       std::to_string(t.penta[1]) + "," + std::to_string(t.penta[2]) + "," +
                       std::to_string(t.penta[3]) + "," + std::to_string(t.penta[4]);
    if (t.pairs > 0) line += "  Elo " + fixed(e.elo, 1) + " +- " + fixed(e.eloError, 1);
    if (r.sprt) line += "  " + bounds(r);
    if (t.games() > 0 && t.games() < planned)
        line += "  ETA " + duration(r.elapsedSeconds / double(t.games()) * double(planned - t.games()));
    return line;
}

std::string summaryText(const MatchReport& r) {
    const MatchTotals& t = r.totals;
    const MatchConfig& c = *r.config;
    const std::string& a = c.engines[0].name;
    const std::string& b = c.engines[1].name;
    std::string out;
    out += "Match " + a + " vs " + b + ": " + std::to_string(t.games()) + " games (" +
           std::to_string(t.pairs) + " pairs) in " + duration(r.elapsedSeconds) +
           (r.interrupted ? ", stopped early" : "") + (r.error.empty() ? "" : ", stopped by an error") + "\n";
    if (!r.error.empty()) out += "Error: " + r.error + "\n";
    if (c.engines[0].tc == c.engines[1].tc)
        out += "Time control: " + c.engines[0].tc.toString() + "\n";
    else
        out += "Time controls: " + a + " " + c.engines[0].tc.toString() + ", " + b + " " +
               c.engines[1].tc.toString() + "\n";
    double score = t.games() ? (t.wdl[0] + 0.5 * t.wdl[1]) / double(t.games()) : 0.5;
    out += "Score of " + a + " vs " + b + ": " + std::to_string(t.wdl[0]) + " - " + std::to_string(t.wdl[2]) +
           " - " + std::to_string(t.wdl[1]) + fmt("  [%.3f] (W - L - D)\n", score);
    out += xq::stats::formatPenta(pentaOf(t)) + "\n";
    auto e = xq::stats::elo(pentaOf(t));
    out += "Elo: " + fixed(e.elo, 2) + " +- " + fixed(e.eloError, 2) + " (95%), nElo: " + fixed(e.nelo, 2) +
           " +- " + fixed(e.neloError, 2) + ", LOS: " + fixed(e.los * 100, 1) + "%\n";
    if (r.sprt) {
        const char* verdict = r.sprtState.decision == xq::stats::Decision::AcceptH1   ? "H1 accepted (pass)"
                              : r.sprtState.decision == xq::stats::Decision::AcceptH0 ? "H0 accepted (fail)"
                                                                                      : "no decision yet";
        out +=
            "SPRT: " + bounds(r) + fmt(", alpha %g beta %g: ", r.sprt->alpha, r.sprt->beta) + verdict + "\n";
    }
    if (r.runnerCpuSeconds >= 0 && r.enginesCpuSeconds > 0)
        out += fmt("CPU: runner %.2f s, engines %.2f s (runner overhead %.2f%%", r.runnerCpuSeconds,
                   r.enginesCpuSeconds, 100 * r.runnerCpuSeconds / r.enginesCpuSeconds) +
               (t.plies > 0 && r.runnerWakeups >= 0
                    ? fmt("; per move %.0f us, %.1f wake-ups", 1e6 * r.runnerCpuSeconds / double(t.plies),
                          double(r.runnerWakeups) / double(t.plies))
                    : std::string()) +
               ")\n";
    out += "Failures of " + a + ": " + failuresText(t.failures[0]) + "\n";
    out += "Failures of " + b + ": " + failuresText(t.failures[1]) + "\n";
    return out;
}

std::string jsonReport(const MatchReport& r) {
    const MatchTotals& t = r.totals;
    const MatchConfig& c = *r.config;
    auto e = xq::stats::elo(pentaOf(t));
    nlohmann::json j;
    j["engines"] = {c.engines[0].name, c.engines[1].name};
    j["tc"] = {c.engines[0].tc.toString(), c.engines[1].tc.toString()};
    j["games"] = t.games();
    j["pairs"] = t.pairs;
    j["wdl"] = t.wdl;
    j["penta"] = t.penta;
    j["score"] = t.games() ? (t.wdl[0] + 0.5 * t.wdl[1]) / double(t.games()) : 0.5;
    j["elo"] = e.elo;
    j["elo_error"] = e.eloError;
    j["nelo"] = e.nelo;
    j["nelo_error"] = e.neloError;
    j["los"] = e.los;
    if (r.sprt) {
        j["llr"] = r.sprtState.llr;
        j["sprt"] = {{"elo0", r.sprt->elo0},
                     {"elo1", r.sprt->elo1},
                     {"alpha", r.sprt->alpha},
                     {"beta", r.sprt->beta},
                     {"model", xq::stats::toString(r.sprt->model)},
                     {"lower", r.sprtState.lower},
                     {"upper", r.sprtState.upper},
                     {"decision", xq::stats::toString(r.sprtState.decision)}};
    } else {
        j["llr"] = nullptr;
        j["sprt"] = nullptr;
    }
    nlohmann::json failures = nlohmann::json::array();
    for (const EngineFailures& f : t.failures)
        failures.push_back({{"crashes", f.crashes},
                            {"time_losses", f.timeLosses},
                            {"illegal_moves", f.illegalMoves},
                            {"stalls", f.stalls}});
    j["failures"] = failures;
    j["elapsed_seconds"] = r.elapsedSeconds;
    if (r.runnerCpuSeconds >= 0) {
        j["runner_cpu_seconds"] = r.runnerCpuSeconds;
        j["engines_cpu_seconds"] = r.enginesCpuSeconds;
    }
    if (r.runnerWakeups >= 0) j["runner_wakeups"] = r.runnerWakeups;
    j["plies"] = t.plies;
    j["interrupted"] = r.interrupted;
    j["error"] = r.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.error);
    return j.dump(2) + "\n";
}

}  // namespace xq::match
