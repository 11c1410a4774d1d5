#include "engine_settings.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace xq::match {

namespace {

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// Each setting of the tokens, in order.
std::vector<std::string> settingsOf(const std::vector<std::string>& tokens) {
    std::vector<std::string> out;
    for (const auto& t : tokens) {
        std::size_t start = t.find_first_not_of(" \t");
        if (start == std::string::npos) continue;
        std::string trimmed = t.substr(start);
        if (trimmed.rfind("option.", 0) == 0 || trimmed.rfind("args=", 0) == 0) {
            while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.pop_back();
            out.push_back(trimmed);
        } else {
            for (auto& w : words(trimmed)) out.push_back(w);
        }
    }
    return out;
}

bool isTimeKey(const std::string& k) {
    return k == "tc" || k == "st" || k == "nodes" || k == "depth" || k == "margin" || k == "timemargin";
}

void put(std::vector<std::pair<std::string, std::string>>& list, const std::string& key,
         const std::string& value) {
    auto it = std::find_if(list.begin(), list.end(), [&](const auto& kv) { return kv.first == key; });
    if (it != list.end())
        it->second = value;
    else
        list.emplace_back(key, value);
}

}  // namespace

std::string EngineSettings::timeSpec() const {
    std::string out;
    for (const auto& [key, value] : time) out += (out.empty() ? "" : " ") + key + "=" + value;
    return out;
}

void applyEngineSettings(EngineSettings& s, const std::vector<std::string>& tokens, const std::string& flag,
                         const std::vector<std::string>& allowed) {
    auto isAllowed = [&](const std::string& k) {
        return std::find(allowed.begin(), allowed.end(), k) != allowed.end();
    };
    for (const auto& item : settingsOf(tokens)) {
        auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument(flag + ": expected key=value, got '" + item + "'");
        std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key.rfind("option.", 0) == 0 && key.size() > 7) {
            put(s.options, key.substr(7), value);
        } else if (isTimeKey(key)) {
            put(s.time, key, value);
        } else if (key == "name" && isAllowed(key)) {
            s.name = value;
        } else if (key == "cmd" && isAllowed(key)) {
            s.cmd = value;
        } else if (key == "args" && isAllowed(key)) {
            s.args = words(value);
        } else if (key == "proto" && isAllowed(key)) {
            if (value != "uci" && value != "ucci" && value != "fairy" && value != "gtp")
                throw std::invalid_argument(flag + ": proto must be uci, ucci, fairy or gtp, got '" + value +
                                            "'");
            s.protocol = value;
        } else {
            std::string expected;
            for (const auto& a : allowed) expected += a + ", ";
            throw std::invalid_argument(flag + ": unknown setting '" + key + "' (expected " + expected +
                                        "option.NAME, tc, st, nodes, depth, margin)");
        }
    }
}

stats::SprtConfig parseSprtSettings(const std::vector<std::string>& tokens, const std::string& flag) {
    std::vector<std::string> split;
    for (std::string t : tokens) {
        std::replace(t.begin(), t.end(), ',', ' ');
        for (auto& w : words(t)) split.push_back(w);
    }
    stats::SprtConfig s;
    bool has0 = false, has1 = false;
    for (const auto& item : split) {
        auto eq = item.find('=');
        const SprtPreset* preset = nullptr;
        for (const auto& p : SprtPresets)
            if (item == p.name) preset = &p;
        if (preset != nullptr) {
            s.elo0 = preset->elo0, s.elo1 = preset->elo1, has0 = has1 = true;
            s.model = stats::EloModel::Normalized;
            continue;
        }
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument(
                flag + ": expected key=value or a preset (gainer, non-regression), got '" + item + "'");
        std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "model") {
            try {
                s.model = stats::parseEloModel(value);
            } catch (const std::invalid_argument&) {
                throw std::invalid_argument(flag + ": model must be normalized or logistic, got '" + value +
                                            "'");
            }
            continue;
        }
        double v = 0;
        try {
            std::size_t used = 0;
            v = std::stod(value, &used);
            if (used != value.size() || !std::isfinite(v)) throw std::invalid_argument("");
        } catch (const std::exception&) {
            throw std::invalid_argument(flag + ": " + key + " must be a number, got '" + value + "'");
        }
        if (key == "elo0")
            s.elo0 = v, has0 = true;
        else if (key == "elo1")
            s.elo1 = v, has1 = true;
        else if (key == "alpha")
            s.alpha = v;
        else if (key == "beta")
            s.beta = v;
        else
            throw std::invalid_argument(flag + ": unknown setting '" + key +
                                        "' (expected elo0, elo1, alpha, beta, model)");
    }
    if (!has0 || !has1)
        throw std::invalid_argument(flag +
                                    " needs elo0=A and elo1=B (e.g. elo0=0,elo1=5) or a preset: gainer or "
                                    "non-regression");
    return s;
}

}  // namespace xq::match
