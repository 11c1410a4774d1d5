#include "capturego_settings.h"

#include <charconv>
#include <stdexcept>

#include "board.h"
#include "capturego/position_text.h"
#include "capturego/result.h"
#include "util/text.h"

namespace xq::games {

namespace {

namespace cg = xq::capturego;

// A piece of the input as an error message shows it: at most 100 characters (a board string may come from
// the network).
std::string shown(const std::string& text) {
    return text.size() <= 100 ? text : text.substr(0, 100) + "...";
}

int wholeNumber(const std::string& flag, const std::string& key, const std::string& value, int min, int max) {
    return int(xq::settingNumber(flag, key, value, min, max));
}

cg::Rules rulesOf(const CaptureGoSettings& s) {
    return s.rules == "go" ? cg::Rules::go(s.komi.value_or(7.5))
                           : cg::Rules::capture(s.target.value_or(1), s.komi.value_or(0));
}

}  // namespace

CaptureGoSettings parseCaptureGoSettings(const std::vector<std::string>& tokens, const std::string& flag) {
    CaptureGoSettings s;
    for (const std::string& token : tokens) {
        std::size_t begin = 0;
        while (begin <= token.size()) {
            std::size_t comma = token.find(',', begin);
            if (comma == std::string::npos) comma = token.size();
            const std::string item = token.substr(begin, comma - begin);
            begin = comma + 1;
            if (item.empty()) {
                if (token.empty()) break;
                throw std::invalid_argument(flag + ": an empty setting in '" + shown(token) +
                                            "' (expected key=value, separated by commas)");
            }
            const auto eq = item.find('=');
            if (eq == std::string::npos || eq == 0)
                throw std::invalid_argument(flag + ": expected key=value, got '" + shown(item) + "'");
            const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
            if (key == "size") {
                s.size = wholeNumber(flag, key, value, cg::kMinBoardSize, cg::kMaxBoardSize);
            } else if (key == "rules") {
                if (value != "capture" && value != "go")
                    throw std::invalid_argument(flag + ": unknown Capture Go rule set '" + shown(value) +
                                                "' (capture or go)");
                s.rules = value;
            } else if (key == "target") {
                s.target = wholeNumber(flag, key, value, 1, 361);
            } else if (key == "komi") {
                double k = 0;
                if (!cg::parsePoints(value, &k) || k < -1000 || k > 1000)
                    throw std::invalid_argument(flag +
                                                ": komi must be a multiple of 0.5 from -1000 to 1000, got '" +
                                                shown(value) + "'");
                s.komi = k;
            } else {
                throw std::invalid_argument(flag + ": unknown setting '" + shown(key) +
                                            "' (expected size, rules, target, komi)");
            }
        }
    }
    if (s.rules == "go" && s.target)
        throw std::invalid_argument(flag + ": a capture target belongs to the capture rule set, not to go");
    if (std::string problem = cg::rulesProblem(rulesOf(s)); !problem.empty())
        throw std::invalid_argument(flag + ": " + problem);
    return s;
}

CaptureGoSettings parseCaptureGoSettings(std::string_view text, const std::string& flag) {
    if (text.empty()) return {};
    return parseCaptureGoSettings(std::vector<std::string>{std::string(text)}, flag);
}

std::string captureGoSettingsText(const CaptureGoSettings& s) {
    const cg::Rules rules = rulesOf(s);
    std::string out = "size=" + std::to_string(s.size) + ",rules=" + s.rules;
    if (s.rules == "capture") out += ",target=" + std::to_string(rules.target);
    return out + ",komi=" + cg::formatPoints(rules.komi);
}

std::string captureGoStartText(const CaptureGoSettings& s) {
    return captureGoStartText(s.size, s.rules, s.target, s.komi);
}

std::string captureGoOpeningText(const CaptureGoSettings& s, std::string_view positionText) {
    cg::Position pos = [&] {
        try {
            return cg::parsePositionText(positionText);
        } catch (const cg::ParseError& e) {
            throw std::invalid_argument(std::string("not a Capture Go position: ") + e.what());
        }
    }();
    if (pos.size() != s.size)
        throw std::invalid_argument("the opening is a " + std::to_string(pos.size()) + "x" +
                                    std::to_string(pos.size()) + " board, the test's board is " +
                                    std::to_string(s.size) + "x" + std::to_string(s.size));
    pos.setRules(rulesOf(s));
    // A book made for other rules can hold positions these rules have decided (a capture in a Go book, run
    // with target 1): every game from it would end before the engines' first move.
    if (const cg::Result verdict = cg::judge(pos); verdict.isOver())
        throw std::invalid_argument("the opening is decided under the test's rules already (" +
                                    verdict.reason + ")");
    return cg::positionText(pos);
}

}  // namespace xq::games
