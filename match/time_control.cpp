#include "time_control.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace xq::match {

namespace {

[[noreturn]] void fail(std::string_view what, std::string_view text) {
    throw std::invalid_argument("time control: " + std::string(what) + " in '" + std::string(text) + "'");
}

std::int64_t parseInteger(std::string_view s, std::string_view whole, const char* what) {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 0)
        fail(std::string("expected a non-negative whole number for ") + what + ", got '" + std::string(s) +
                 "'",
             whole);
    return v;
}

// Seconds with an optional fraction ("10", "0.1", "5400") to milliseconds.
std::int64_t parseSeconds(std::string_view s, std::string_view whole, const char* what) {
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::fixed);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !(v >= 0) || v > 1e9)
        fail(std::string("expected seconds for ") + what + ", got '" + std::string(s) + "'", whole);
    return std::llround(v * 1000.0);
}

std::vector<TimePeriod> parseClock(std::string_view spec) {
    std::vector<TimePeriod> periods;
    std::size_t start = 0;
    while (true) {
        std::size_t colon = spec.find(':', start);
        std::string_view part =
            spec.substr(start, colon == std::string_view::npos ? spec.npos : colon - start);
        TimePeriod p;
        std::size_t slash = part.find('/');
        if (slash != std::string_view::npos) {
            const std::int64_t moves = parseInteger(part.substr(0, slash), spec, "the moves of a period");
            if (moves > 100000) fail("a period of more than 100000 moves", spec);
            p.moves = int(moves);
            part.remove_prefix(slash + 1);
        }
        std::size_t plus = part.find('+');
        p.timeMs = parseSeconds(part.substr(0, plus), spec, "the time of a period");
        if (plus != std::string_view::npos)
            p.incrementMs = parseSeconds(part.substr(plus + 1), spec, "the increment");
        if (p.timeMs <= 0 && p.incrementMs <= 0) fail("a period needs time or an increment", spec);
        periods.push_back(p);
        if (colon == std::string_view::npos) break;
        start = colon + 1;
    }
    for (std::size_t i = 0; i + 1 < periods.size(); ++i)
        if (periods[i].moves == 0)
            fail("only the last period may run to the end of the game (give it moves/)", spec);
    return periods;
}

std::string formatSeconds(std::int64_t ms) {
    std::string s = std::to_string(ms / 1000);
    if (ms % 1000) {
        char frac[8];
        std::snprintf(frac, sizeof frac, ".%03d", int(ms % 1000));
        std::string f = frac;
        while (f.back() == '0') f.pop_back();
        s += f;
    }
    return s;
}

}  // namespace

TimeControl TimeControl::parse(std::string_view text) {
    TimeControl tc;
    bool any = false;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t') ++j;
        if (j == i) break;
        std::string_view token = text.substr(i, j - i);
        i = j;
        any = true;
        std::size_t eq = token.find('=');
        std::string_view key = eq == token.npos ? "tc" : token.substr(0, eq);
        std::string_view value = eq == token.npos ? token : token.substr(eq + 1);
        if (key == "tc" && value.substr(0, 7) == "permove") {
            value.remove_prefix(7);
            const std::size_t plus = value.find('+');
            tc.perMoveMs = parseSeconds(value.substr(0, plus), text, "the time per move");
            if (tc.perMoveMs <= 0) fail("the time per move must be positive", text);
            if (plus != std::string_view::npos) {
                std::string_view bank = value.substr(plus + 1);
                if (bank.substr(0, 4) != "bank") fail("expected +bankSECONDS after permoveSECONDS", text);
                tc.bankMs = parseSeconds(bank.substr(4), text, "the bank");
            }
            tc.periods.clear();
        } else if (key == "tc") {
            tc.periods = parseClock(value);
            tc.perMoveMs = tc.bankMs = 0;
        } else if (key == "st") {
            tc.moveTimeMs = parseSeconds(value, text, "st");
            if (tc.moveTimeMs <= 0) fail("st must be positive", text);
        } else if (key == "nodes") {
            tc.nodes = parseInteger(value, text, "nodes");
            if (tc.nodes <= 0) fail("nodes must be positive", text);
        } else if (key == "depth") {
            std::int64_t d = parseInteger(value, text, "depth");
            if (d <= 0 || d > 1000) fail("depth must be from 1 to 1000", text);
            tc.depth = int(d);
        } else if (key == "margin" || key == "timemargin") {
            tc.marginMs = parseInteger(value, text, "margin (milliseconds)");
        } else {
            fail("unknown setting '" + std::string(key) + "' (expected tc=, st=, nodes=, depth= or margin=)",
                 text);
        }
    }
    if (!any) throw std::invalid_argument("time control: empty (expected e.g. tc=10+0.1, st=1, nodes=5000)");
    return tc;
}

std::string TimeControl::toString() const {
    std::string out;
    auto add = [&](const std::string& s) { out += (out.empty() ? "" : " ") + s; };
    if (perMoveMs > 0) {
        add("tc=permove" + formatSeconds(perMoveMs) + (bankMs > 0 ? "+bank" + formatSeconds(bankMs) : ""));
    } else if (hasClock()) {
        std::string clock;
        for (const TimePeriod& p : periods) {
            if (!clock.empty()) clock += ':';
            if (p.moves > 0) clock += std::to_string(p.moves) + '/';
            clock += formatSeconds(p.timeMs);
            if (p.incrementMs > 0) clock += '+' + formatSeconds(p.incrementMs);
        }
        add("tc=" + clock);
    }
    if (moveTimeMs > 0) add("st=" + formatSeconds(moveTimeMs));
    if (nodes > 0) add("nodes=" + std::to_string(nodes));
    if (depth > 0) add("depth=" + std::to_string(depth));
    if (marginMs != DefaultMarginMs || out.empty()) add("margin=" + std::to_string(marginMs));
    return out;
}

GameClock::GameClock(const TimeControl& tc) : tc_(&tc) {
    if (tc.perMoveMs > 0)
        remainingMs_ = tc.bankMs;
    else if (tc.hasClock())
        remainingMs_ = tc.periods[0].timeMs;
}

std::int64_t GameClock::incrementMs() const {
    if (tc_->perMoveMs > 0) return tc_->perMoveMs;
    return tc_->hasClock() ? tc_->periods[period_].incrementMs : 0;
}

int GameClock::movesToGo() const {
    if (!tc_->hasClock() || tc_->perMoveMs > 0) return 0;
    int moves = tc_->periods[period_].moves;
    return moves > 0 ? moves - movesInPeriod_ : 0;
}

std::int64_t GameClock::deadlineMs() const {
    std::int64_t deadline = -1;
    if (tc_->perMoveMs > 0)
        deadline = tc_->perMoveMs + std::max<std::int64_t>(remainingMs_, 0) + tc_->marginMs;
    else if (tc_->hasClock())
        deadline = std::max<std::int64_t>(remainingMs_ + tc_->marginMs, 0);
    if (tc_->moveTimeMs > 0) {
        std::int64_t st = tc_->moveTimeMs + tc_->marginMs;
        deadline = deadline < 0 ? st : std::min(deadline, st);
    }
    return deadline;
}

bool GameClock::charge(std::int64_t elapsedMs) {
    std::int64_t deadline = deadlineMs();
    bool inTime = deadline < 0 || elapsedMs <= deadline;
    if (!tc_->hasClock()) return inTime;
    if (tc_->perMoveMs > 0) {
        // Only the time past the limit comes out of the bank (never below empty: the margin is grace).
        remainingMs_ =
            std::max<std::int64_t>(0, remainingMs_ - std::max<std::int64_t>(0, elapsedMs - tc_->perMoveMs));
        return inTime;
    }
    remainingMs_ -= elapsedMs;
    const TimePeriod& p = tc_->periods[period_];
    remainingMs_ += p.incrementMs;
    if (p.moves > 0 && ++movesInPeriod_ == p.moves) {
        movesInPeriod_ = 0;
        if (period_ + 1 < tc_->periods.size()) ++period_;
        remainingMs_ += tc_->periods[period_].timeMs;
    }
    return inTime;
}

}  // namespace xq::match
