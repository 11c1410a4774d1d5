// `xq sprt`: the SPRT verdict and Elo estimates for given counts, as fishtest would compute them.
#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "command.h"
#include "sprt.h"
#include "sprt_elo.h"
#include "util/text.h"

namespace {

namespace st = xq::stats;
using xq::fixed;

struct SprtOptions {
    std::string penta, wdl;
    std::string elo0, elo1;
    std::string model = "normalized";
    std::string alpha = "0.05", beta = "0.05";
    bool json = false;
};

// "a,b,c" -> counts; every field must be a whole non-negative number.
std::vector<std::int64_t> parseCounts(const std::string& text, std::size_t expected, const char* option,
                                      const char* layout) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const auto comma = text.find(',', start);
        fields.push_back(
            xq::trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    const std::string usage =
        std::string(option) + " expects " + std::to_string(expected) + " comma-separated counts " + layout;
    if (fields.size() != expected)
        throw std::invalid_argument(usage + ", got " + std::to_string(fields.size()) + " in '" + text + "'");
    std::vector<std::int64_t> counts;
    for (const std::string& f : fields) {
        if (!f.empty() && f[0] == '-')
            throw std::invalid_argument(std::string(option) + ": count '" + f + "' is negative");
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
        if (ec == std::errc::result_out_of_range)
            throw std::invalid_argument(std::string(option) + ": count '" + f + "' is too large");
        if (f.empty() || ec != std::errc() || end != f.data() + f.size())
            throw std::invalid_argument(std::string(option) + ": '" + f + "' is not a whole number (" +
                                        usage + ")");
        counts.push_back(value);
    }
    return counts;
}

double parseNumber(const std::string& text, const char* option) {
    const std::string t = xq::trim(text);
    double value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(value))
        throw std::invalid_argument(std::string(option) + ": '" + text + "' is not a number");
    return value;
}

nlohmann::json finiteOrNull(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

int runSprt(const SprtOptions& o) {
    const bool isPenta = !o.penta.empty();
    st::SprtConfig cfg;
    st::Penta penta;
    st::Wdl wdl;
    st::SprtState state;
    st::EloEstimate estimate;
    st::SprtForecast forecast;
    st::SprtEloEstimate sprtEstimate;
    try {
        if (o.penta.empty() == o.wdl.empty())
            throw std::invalid_argument("give exactly one of --penta LL,LD,DD,WD,WW or --wdl W,D,L");
        cfg.elo0 = parseNumber(o.elo0, "--elo0");
        cfg.elo1 = parseNumber(o.elo1, "--elo1");
        cfg.alpha = parseNumber(o.alpha, "--alpha");
        cfg.beta = parseNumber(o.beta, "--beta");
        cfg.model = st::parseEloModel(o.model);
        st::validate(cfg);
        if (isPenta) {
            const auto c = parseCounts(o.penta, 5, "--penta", "LL,LD,DD+WL,WD,WW");
            for (int i = 0; i < 5; ++i) penta.pairs[i] = c[i];
            state = st::sprt(penta, cfg);
            estimate = st::elo(penta);
            forecast = st::forecastRemaining(penta, cfg);
            sprtEstimate = st::sprtElo(penta, cfg);
        } else {
            const auto c = parseCounts(o.wdl, 3, "--wdl", "W,D,L");
            wdl = st::Wdl{c[0], c[1], c[2]};
            state = st::sprt(wdl, cfg);
            estimate = st::elo(wdl);
            forecast = st::forecastRemaining(wdl, cfg);
            sprtEstimate = st::sprtElo(wdl, cfg);
        }
    } catch (const std::exception& e) {  // bad input, or bounds fishtest's maths cannot handle
        if (o.json) std::cout << nlohmann::json{{"error", e.what()}}.dump() << "\n";
        std::cerr << "xq sprt: " << e.what() << "\n";
        return 2;
    }

    if (o.json) {
        nlohmann::json j = {{"model", st::toString(cfg.model)},
                            {"elo0", cfg.elo0},
                            {"elo1", cfg.elo1},
                            {"alpha", cfg.alpha},
                            {"beta", cfg.beta},
                            {"games", estimate.games},
                            {"llr", state.llr},
                            {"lower_bound", state.lower},
                            {"upper_bound", state.upper},
                            {"decision", st::toString(state.decision)},
                            {"elo", estimate.elo},
                            {"elo_error", estimate.eloError},
                            {"elo_lower", estimate.eloLower},
                            {"elo_upper", estimate.eloUpper},
                            {"nelo", estimate.nelo},
                            {"nelo_error", estimate.neloError},
                            {"los", estimate.los},
                            {"score", estimate.score},
                            {"draw_ratio", estimate.drawRatio},
                            {"expected_games_left", finiteOrNull(forecast.expectedGames)},
                            {"pass_probability", forecast.passProbability},
                            {"sprt_elo", sprtEstimate.elo},
                            {"sprt_elo_lower", sprtEstimate.ciLower},
                            {"sprt_elo_upper", sprtEstimate.ciUpper},
                            {"sprt_los", sprtEstimate.los}};
        if (isPenta) {
            j["pairs"] = penta.pairCount();
            j["penta"] = penta.pairs;
            j["pairs_ratio"] = finiteOrNull(estimate.pairsRatio);
        } else {
            j["wdl"] = {wdl.wins, wdl.draws, wdl.losses};
        }
        std::cout << j.dump() << "\n";
        return 0;
    }

    if (isPenta)
        std::cout << "Games: " << estimate.games << " (" << penta.pairCount() << " pairs), "
                  << st::formatPenta(penta) << "\n";
    else
        std::cout << "Games: " << estimate.games << ", W: " << wdl.wins << " D: " << wdl.draws
                  << " L: " << wdl.losses << "\n";
    std::cout << "Elo: " << fixed(estimate.elo, 2) << " +- " << fixed(estimate.eloError, 2)
              << " (95%), nElo: " << fixed(estimate.nelo, 2) << " +- " << fixed(estimate.neloError, 2)
              << " (95%), LOS: " << fixed(estimate.los * 100, 2) << "%\n";
    std::cout << "LLR: " << fixed(state.llr, 2) << " (" << fixed(state.lower, 2) << ", "
              << fixed(state.upper, 2) << ") [" << fixed(cfg.elo0, 2) << ", " << fixed(cfg.elo1, 2) << "] "
              << st::toString(cfg.model) << "\n";
    // What fishtest shows for an SPRT: corrected for the bias of stopping at a bound.
    std::cout << "SPRT Elo: " << fixed(sprtEstimate.elo, 2) << " [" << fixed(sprtEstimate.ciLower, 2) << ", "
              << fixed(sprtEstimate.ciUpper, 2) << "] (95%, logistic, stopping-rule corrected)\n";
    switch (state.decision) {
        case st::Decision::AcceptH1:
            std::cout << "Decision: H1 accepted (pass)\n";
            break;
        case st::Decision::AcceptH0:
            std::cout << "Decision: H0 accepted (fail)\n";
            break;
        default:
            std::cout << "Decision: continue";
            if (std::isfinite(forecast.expectedGames))
                std::cout << " (about " << std::llround(forecast.expectedGames)
                          << " more games if the current score holds, "
                          << fixed(forecast.passProbability * 100, 0) << "% chance to pass)";
            std::cout << "\n";
    }
    return 0;
}

xq::cli::RegisterCommand registerSprt([](CLI::App& app) {
    auto options = std::make_shared<SprtOptions>();
    CLI::App* sub = app.add_subcommand(
        "sprt", "SPRT verdict, LLR and Elo estimates for given results (fishtest's maths)");
    sub->add_option("--penta", options->penta,
                    "Game-pair counts LL,LD,DD+WL,WD,WW from the tested engine's side");
    sub->add_option("--wdl", options->wdl,
                    "Game counts W,D,L from the tested engine's side (unpaired games)");
    sub->add_option("--elo0", options->elo0, "H0 bound (in the model's Elo)")->required();
    sub->add_option("--elo1", options->elo1, "H1 bound (in the model's Elo), above elo0")->required();
    sub->add_option("--model", options->model, "Elo model of the bounds: normalized (default) or logistic");
    sub->add_option("--alpha", options->alpha, "False positive rate (default 0.05)");
    sub->add_option("--beta", options->beta, "False negative rate (default 0.05)");
    sub->add_flag("--json", options->json, "Print a JSON object");
    sub->callback([options] {
        const int code = runSprt(*options);
        if (code != 0) throw xq::cli::ExitCode{code};
    });
});

}  // namespace
