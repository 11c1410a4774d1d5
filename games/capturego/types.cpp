#include "capturego/types.h"

#include <charconv>
#include <cmath>

#include "capturego/concat.h"

namespace xq::capturego {

using detail::cat;

const char* colorName(Color c) {
    return c == Color::Black ? "black" : "white";
}

std::string ruleSetText(const Rules& rules) {
    if (rules.ruleSet == RuleSet::Go) return "go";
    return cat("capture:", rules.target);
}

std::string rulesProblem(const Rules& rules) {
    if (rules.ruleSet == RuleSet::Capture && rules.target < 1)
        return cat("the capture target must be 1 or more, not ", rules.target);
    if (rules.ruleSet == RuleSet::Go && rules.target != 0)
        return cat("the go rule set has no capture target (it is ", rules.target, ")");
    if (!std::isfinite(rules.komi) || std::fabs(rules.komi) > 10000 ||
        rules.komi * 2 != std::floor(rules.komi * 2))
        return cat("komi ", std::to_string(rules.komi), " is not a multiple of 0.5 within +-10000");
    return "";
}

std::string formatPoints(double points) {
    // Whole numbers print without a fraction; halves with ".5". Values here are multiples of 0.5.
    long long twice = std::llround(points * 2);
    bool negative = twice < 0;
    long long magnitude = negative ? -twice : twice;
    std::string text = negative ? "-" : "";
    text += std::to_string(magnitude / 2);
    if (magnitude % 2) text += ".5";
    return text;
}

bool parsePoints(const std::string& text, double* points) {
    std::string_view s = text;
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty() || s.front() == '+') return false;
    for (char c : s)
        if (!(c == '-' || c == '.' || (c >= '0' && c <= '9'))) return false;  // no exponents, inf or nan
    double value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size()) return false;
    if (std::fabs(value) > 10000 || value * 2 != std::floor(value * 2)) return false;
    *points = value == 0 ? 0.0 : value;  // no "-0"
    return true;
}

}  // namespace xq::capturego
