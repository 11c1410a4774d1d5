#include "gtp_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "engine.h"
#include "text.h"
#include "util/text.h"

namespace xq::match {

namespace {

namespace cg = xq::capturego;
using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Whole seconds for GTP's time commands, at least 1 (0 means "no limit" to some of them).
long seconds(std::int64_t ms, bool roundUp) {
    long s = long(roundUp ? (ms + 999) / 1000 : ms / 1000);
    return std::max(1L, s);
}

// The time_settings command for a time control, or "" when GTP cannot say it (nodes=, depth=).
std::string timeSettings(const TimeControl& tc) {
    if (!tc.periods.empty()) {
        const TimePeriod& p = tc.periods.front();
        if (p.moves > 0)
            return "time_settings 0 " + std::to_string(seconds(p.timeMs, false)) + " " +
                   std::to_string(p.moves);
        return "time_settings " + std::to_string(seconds(p.timeMs, false)) + " 0 0";
    }
    if (tc.perMoveMs > 0)
        return "time_settings " + std::to_string(tc.bankMs / 1000) + " " +
               std::to_string(seconds(tc.perMoveMs, false)) + " 1";
    if (tc.moveTimeMs > 0) return "time_settings 0 " + std::to_string(seconds(tc.moveTimeMs, true)) + " 1";
    return "";
}

std::string timeLeft(const TimeControl& tc, const GameClock& clock, const char* color) {
    if (!tc.periods.empty()) {
        if (tc.periods.front().moves > 0)
            return "time_left " + std::string(color) + " " +
                   std::to_string(seconds(clock.remainingMs(), false)) + " " +
                   std::to_string(std::max(1, clock.movesToGo()));
        return "time_left " + std::string(color) + " " + std::to_string(seconds(clock.remainingMs(), false)) +
               " 0";
    }
    if (tc.perMoveMs > 0)
        return "time_left " + std::string(color) + " " + std::to_string(seconds(tc.perMoveMs, false)) + " 1";
    if (tc.moveTimeMs > 0)
        return "time_left " + std::string(color) + " " + std::to_string(seconds(tc.moveTimeMs, true)) + " 1";
    return "";
}

SearchOutcome failure(SearchOutcome::Status status, std::string detail) {
    SearchOutcome out;
    out.status = status;
    out.detail = std::move(detail);
    return out;
}

// A failed answer to a command other than genmove as the outcome of the search that needed it.
SearchOutcome commandFailure(const std::string& cmd, const GtpAnswer& a, EngineProcess& process,
                             std::int64_t timeoutMs) {
    switch (a.kind) {
        case GtpAnswer::Closed:
            return failure(SearchOutcome::Crash,
                           "the engine " + process.exitDescription() + " after '" + cmd + "'");
        case GtpAnswer::Timeout:
            return failure(SearchOutcome::Stall,
                           "no answer to '" + cmd + "' within " + std::to_string(timeoutMs) + " ms");
        case GtpAnswer::Stopped:
            return failure(SearchOutcome::Stopped, "stopped");
        case GtpAnswer::Failure:
            return failure(SearchOutcome::Garbage, "answered '? " + a.text + "' to '" + cmd + "'");
        default:
            return failure(SearchOutcome::Garbage,
                           "answered '" + a.text + "' to '" + cmd + "' (no GTP answer)");
    }
}

}  // namespace

std::string gtpMoveFromEngine(std::string_view text, int boardSize) {
    std::string t = trim(text);
    if (lower(t) == "resign") return "resign";
    if (t.empty() || t.find_first_of(" \t\n") != std::string::npos) return {};
    try {
        return cg::moveName(cg::parseMove(t, boardSize));
    } catch (const cg::ParseError&) {
        return {};
    }
}

GtpSession::GtpSession(EngineProcess& process, const EngineConfig& config, int startupTimeoutMs,
                       int stallTimeoutMs)
    : process_(process),
      config_(config),
      startupTimeoutMs_(startupTimeoutMs),
      stallTimeoutMs_(stallTimeoutMs) {}

GtpAnswer GtpSession::readAnswer(std::int64_t timeoutMs, const StopCheck& stop) {
    auto begin = Clock::now();
    GtpAnswer answer;
    bool inAnswer = false;
    std::string text;
    while (true) {
        std::int64_t left = timeoutMs - millisSince(begin);
        if (left < 0) {
            answer.kind = GtpAnswer::Timeout;
            return answer;
        }
        auto status = process_.readLine(line_, std::min(left + 1, StopPollMs));
        if (status == EngineProcess::ReadStatus::Closed) {
            answer.kind = GtpAnswer::Closed;
            return answer;
        }
        if (status == EngineProcess::ReadStatus::Timeout) {
            if (stop && stop()) {
                answer.kind = GtpAnswer::Stopped;
                return answer;
            }
            continue;
        }
        if (!line_.empty() && line_.back() == '\r') line_.pop_back();
        if (!inAnswer) {
            if (trim(line_).empty()) continue;  // blank lines between answers
            if (line_[0] != '=' && line_[0] != '?') {
                answer.kind = GtpAnswer::Garbage;
                answer.text = line_;
                return answer;
            }
            answer.kind = line_[0] == '=' ? GtpAnswer::Success : GtpAnswer::Failure;
            std::size_t i = 1;
            while (i < line_.size() && std::isdigit(static_cast<unsigned char>(line_[i]))) ++i;  // an id
            text = line_.substr(i);
            inAnswer = true;
            continue;
        }
        if (line_.empty()) {
            answer.text = trim(text);
            return answer;
        }
        text += '\n';
        text += line_;
    }
}

GtpAnswer GtpSession::command(const std::string& cmd, std::int64_t timeoutMs, const StopCheck& stop) {
    if (!process_.writeLine(cmd)) return GtpAnswer{GtpAnswer::Closed, {}};
    return readAnswer(timeoutMs, stop);
}

void GtpSession::handshake(const StopCheck& stop) {
    GtpAnswer a = command("list_commands", startupTimeoutMs_, stop);
    if (a.kind != GtpAnswer::Success) {
        std::string why =
            a.kind == GtpAnswer::Closed    ? "the engine " + process_.exitDescription()
            : a.kind == GtpAnswer::Timeout ? "no answer within " + std::to_string(startupTimeoutMs_) + " ms"
            : a.kind == GtpAnswer::Stopped ? std::string("stopped")
            : a.kind == GtpAnswer::Failure ? "it answered '? " + a.text + "'"
                                           : "it answered '" + a.text + "', which is no GTP answer";
        throw std::runtime_error("engine '" + config_.name + "' did not answer list_commands: " + why);
    }
    commands_.clear();
    std::size_t begin = 0;
    while (begin <= a.text.size()) {
        std::size_t end = a.text.find('\n', begin);
        if (end == std::string::npos) end = a.text.size();
        if (std::string c = trim(std::string_view(a.text).substr(begin, end - begin)); !c.empty())
            commands_.insert(c);
        begin = end + 1;
    }
    for (const char* needed : {"boardsize", "clear_board", "play", "genmove"})
        if (!lists(needed))
            throw std::runtime_error("engine '" + config_.name + "' does not list the GTP command '" +
                                     needed + "' that a game needs");
    if (!config_.options.empty())
        throw std::runtime_error("engine '" + config_.name +
                                 "': GTP has no options (option.NAME=VALUE); give them as args=\"...\"");
    synced_ = false;
}

bool GtpSession::newGame(const StopCheck& stop, std::string& error) {
    synced_ = false;
    GtpAnswer a = command("protocol_version", startupTimeoutMs_, stop);
    if (a.kind == GtpAnswer::Success || a.kind == GtpAnswer::Failure) return true;
    error = a.kind == GtpAnswer::Closed ? "the engine " + process_.exitDescription()
                                        : "no answer to protocol_version";
    return false;
}

std::string GtpSession::setUp(const std::string& fen, const StopCheck& stop) {
    cg::Position start;
    try {
        start = cg::parsePositionText(fen);
    } catch (const cg::ParseError& e) {
        return std::string("bad start position: ") + e.what();
    }
    if (start.captures(cg::Color::Black) || start.captures(cg::Color::White))
        return "a start position with captures already counted cannot be told to a GTP engine";
    const cg::Rules& rules = start.rules();
    std::vector<std::string> cmds{"boardsize " + std::to_string(start.size()), "clear_board"};
    const bool capture = rules.ruleSet == cg::RuleSet::Capture;
    if (lists("xq-rules")) cmds.push_back(capture ? "xq-rules capture" : "xq-rules go");
    if (capture && lists("cap")) cmds.push_back("cap " + std::to_string(rules.target));
    if (lists("komi")) cmds.push_back("komi " + cg::formatPoints(rules.komi));
    for (int row = 0; row < start.size(); ++row)
        for (int col = 0; col < start.size(); ++col) {
            cg::Cell c = start.at(cg::Point{col, row});
            if (c != cg::Cell::Empty)
                cmds.push_back(std::string("play ") + (c == cg::Cell::Black ? "B " : "W ") +
                               cg::pointName(cg::Point{col, row}));
        }
    if (lists("time_settings"))
        if (std::string t = timeSettings(config_.tc); !t.empty()) cmds.push_back(t);
    for (const std::string& cmd : cmds) {
        GtpAnswer a = command(cmd, stallTimeoutMs_, stop);
        if (a.kind != GtpAnswer::Success) {
            SearchOutcome out = commandFailure(cmd, a, process_, stallTimeoutMs_);
            return out.status == SearchOutcome::Stopped ? "stopped" : out.detail;
        }
    }
    syncedFen_ = fen;
    sent_.clear();
    synced_ = true;
    return "";
}

SearchOutcome GtpSession::go(const std::string& fen, const std::vector<std::string>& moves,
                             const GameClock* clocks, bool blackToMove, const StopCheck& stop) {
    // The start position's side to move and size: the colour of each move sent.
    cg::Position start;
    try {
        start = cg::parsePositionText(fen);
    } catch (const cg::ParseError& e) {
        return failure(SearchOutcome::Garbage, std::string("bad start position: ") + e.what());
    }
    const bool continues = synced_ && syncedFen_ == fen && sent_.size() <= moves.size() &&
                           std::equal(sent_.begin(), sent_.end(), moves.begin());
    if (!continues) {
        synced_ = false;
        std::string error = setUp(fen, stop);
        if (error == "stopped") return failure(SearchOutcome::Stopped, "stopped");
        if (!error.empty()) {
            SearchOutcome out = failure(SearchOutcome::Garbage, error);
            if (error.rfind("the engine ", 0) == 0) out.status = SearchOutcome::Crash;
            return out;
        }
    }
    const bool blackFirst = start.toMove() == cg::Color::Black;
    for (std::size_t i = sent_.size(); i < moves.size(); ++i) {
        const bool black = (i % 2 == 0) == blackFirst;
        const std::string cmd = std::string("play ") + (black ? "B " : "W ") + moves[i];
        GtpAnswer a = command(cmd, stallTimeoutMs_, stop);
        if (a.kind != GtpAnswer::Success) {
            synced_ = false;
            return commandFailure(cmd, a, process_, stallTimeoutMs_);
        }
        sent_.push_back(moves[i]);
    }
    const char* color = blackToMove ? "b" : "w";
    const GameClock& clock = clocks[blackToMove ? 0 : 1];
    if (lists("time_left"))
        if (std::string t = timeLeft(config_.tc, clock, color); !t.empty()) {
            GtpAnswer a = command(t, stallTimeoutMs_, stop);
            if (a.kind != GtpAnswer::Success) return commandFailure(t, a, process_, stallTimeoutMs_);
        }

    std::int64_t deadline = clock.deadlineMs();
    std::int64_t limit = deadline >= 0 ? deadline : stallTimeoutMs_;
    const std::string cmd = std::string("genmove ") + color;
    auto begin = Clock::now();
    GtpAnswer a = command(cmd, limit, stop);
    SearchOutcome out;
    out.elapsedMs = millisSince(begin);
    switch (a.kind) {
        case GtpAnswer::Success:
            break;
        case GtpAnswer::Timeout:
            synced_ = false;
            out.status = deadline >= 0 ? SearchOutcome::TimeLoss : SearchOutcome::Stall;
            out.detail = deadline >= 0
                             ? "no move within " + std::to_string(deadline) + " ms (margin included)"
                             : "no move within " + std::to_string(limit) + " ms";
            return out;
        default: {
            synced_ = false;
            SearchOutcome f = commandFailure(cmd, a, process_, limit);
            f.elapsedMs = out.elapsedMs;
            return f;
        }
    }
    out.move = gtpMoveFromEngine(a.text, start.size());
    if (out.move.empty()) {
        synced_ = false;
        out.status = SearchOutcome::Garbage;
        out.detail = "unreadable move '" + a.text + "' (answer to '" + cmd + "')";
        return out;
    }
    if (out.move == "resign") {
        out.move.clear();
        out.status = SearchOutcome::Resign;
        return out;
    }
    // The engine has played its move on its own board.
    sent_.push_back(out.move);
    out.status = SearchOutcome::Move;
    return out;
}

}  // namespace xq::match
