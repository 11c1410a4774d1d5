#include "engine.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <stdexcept>

namespace xq::match {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t millisSince(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// How often a wait looks at the stop flag; short enough for a prompt Ctrl-C, long enough to cost
// nothing.
constexpr std::int64_t StopPollMs = 100;

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0 &&
           (s.size() == prefix.size() || s[prefix.size()] == ' ' || s[prefix.size()] == '\t');
}

// The option an "option" line of the handshake declares: "option name NAME type ..." in UCI,
// "option NAME type ..." in UCCI; empty for any other line.
std::string declaredOption(std::string_view line, Protocol protocol) {
    if (!startsWith(line, "option")) return {};
    std::string_view rest = line.substr(6);
    if (protocol != Protocol::Ucci) {
        const auto name = rest.find(" name ");
        if (name == std::string_view::npos) return {};
        rest = rest.substr(name + 6);
    }
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    const auto type = rest.find(" type ");
    std::string_view name = rest.substr(0, type);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    return std::string(name);
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
    });
}

}  // namespace

EngineClient::EngineClient(EngineConfig config, int startupTimeoutMs, int stallTimeoutMs)
    : config_(std::move(config)),
      startupTimeoutMs_(startupTimeoutMs),
      stallTimeoutMs_(stallTimeoutMs),
      process_(makeEngineProcess()),
      protocol_(makeProtocolAdapter(config_.protocol)) {}

EngineClient::~EngineClient() {
    shutdown();
}

void EngineClient::shutdown() {
    if (started_) {
        process_->writeLine("quit");
        process_->terminate(200);
    }
    started_ = false;
}

bool EngineClient::waitFor(std::string_view prefix, std::int64_t timeoutMs, const StopCheck& stop,
                           std::string& error, std::vector<std::string>* skipped) {
    auto begin = Clock::now();
    while (true) {
        std::int64_t left = timeoutMs - millisSince(begin);
        if (left <= 0) {
            error = "no '" + std::string(prefix) + "' within " + std::to_string(timeoutMs) + " ms";
            return false;
        }
        auto status = process_->readLine(line_, std::min(left, StopPollMs));
        if (status == EngineProcess::ReadStatus::Line) {
            if (startsWith(line_, prefix)) return true;
            if (skipped) skipped->push_back(line_);
        } else if (status == EngineProcess::ReadStatus::Closed) {
            error = "the engine " + process_->exitDescription() + " while we waited for '" +
                    std::string(prefix) + "'";
            return false;
        } else if (stop && stop()) {
            error = "stopped";
            return false;
        }
    }
}

void EngineClient::start(const StopCheck& stop) {
    shutdown();
    try {
        ScopedThreadPinning pinning(cpus_);
        process_->start(config_.cmd, config_.args);
    } catch (const std::exception& e) {
        throw std::runtime_error("engine '" + config_.name + "' did not start: " + e.what());
    }
    started_ = true;
    std::string error;
    std::vector<std::string> handshake;
    if (!process_->writeLine(protocol_->handshake()) ||
        !waitFor(protocol_->handshakeReply(), startupTimeoutMs_, stop, error, &handshake)) {
        shutdown();
        throw std::runtime_error("engine '" + config_.name + "' did not start: " +
                                 (error.empty() ? "it does not read its input" : error));
    }
    // An option the engine does not declare would be ignored (or only complained about in its output) and
    // the match played with settings nobody asked for.
    std::vector<std::string> declared;
    for (const std::string& line : handshake)
        if (std::string name = declaredOption(line, config_.protocol); !name.empty())
            declared.push_back(name);
    for (const auto& [name, value] : config_.options) {
        if (std::any_of(declared.begin(), declared.end(),
                        [&](const std::string& d) { return equalsIgnoringCase(d, name); }))
            continue;
        std::string offered;
        for (const std::string& d : declared) offered += (offered.empty() ? "" : ", ") + d;
        shutdown();
        throw std::runtime_error("engine '" + config_.name + "' has no option '" + name + "' (it declares " +
                                 (offered.empty() ? std::string("none") : offered) + ")");
    }
    for (const std::string& cmd : protocol_->setupCommands(config_.options)) process_->writeLine(cmd);
    if (!process_->writeLine("isready") || !waitFor("readyok", startupTimeoutMs_, stop, error)) {
        shutdown();
        throw std::runtime_error("engine '" + config_.name + "' did not get ready: " + error);
    }
}

bool EngineClient::newGame(const StopCheck& stop, std::string& error) {
    std::string cmd = protocol_->newGameCommand();
    if ((!cmd.empty() && !process_->writeLine(cmd)) || !process_->writeLine("isready")) {
        error = "the engine " + process_->exitDescription();
        return false;
    }
    return waitFor("readyok", startupTimeoutMs_, stop, error);
}

bool EngineClient::resync(const StopCheck& stop) {
    std::string error;
    if (!process_->writeLine("stop") || !process_->writeLine("isready")) return false;
    return waitFor("readyok", 1000, stop, error);
}

SearchOutcome EngineClient::go(const std::string& fen, const std::vector<std::string>& moves,
                               const GameClock* clocks, bool redToMove, const StopCheck& stop) {
    SearchOutcome out;
    std::int64_t deadline = clocks[redToMove ? 0 : 1].deadlineMs();
    // Without a clock only a stall ends the wait; with one, the flag falls first.
    std::int64_t limit = deadline >= 0 ? deadline : stallTimeoutMs_;
    // Both commands in one write: one wake-up of the engine per move instead of two.
    std::string commands = protocol_->positionCommand(fen, moves);
    commands += '\n';
    commands += protocol_->goCommand(config_.tc, clocks, redToMove);
    auto begin = Clock::now();
    if (!process_->writeLine(commands)) {
        out.status = SearchOutcome::Crash;
        out.detail = "the engine " + process_->exitDescription();
        return out;
    }
    while (true) {
        std::int64_t left = limit - millisSince(begin);
        if (left < 0) {
            out.elapsedMs = millisSince(begin);
            out.status = deadline >= 0 ? SearchOutcome::TimeLoss : SearchOutcome::Stall;
            out.detail = deadline >= 0
                             ? "no move within " + std::to_string(deadline) + " ms (margin included)"
                             : "no move within " + std::to_string(limit) + " ms";
            return out;
        }
        auto status = process_->readLine(line_, std::min(left + 1, StopPollMs));
        if (status == EngineProcess::ReadStatus::Closed) {
            out.elapsedMs = millisSince(begin);
            out.status = SearchOutcome::Crash;
            out.detail = "the engine " + process_->exitDescription();
            return out;
        }
        if (status == EngineProcess::ReadStatus::Timeout) {
            if (stop && stop()) {
                out.status = SearchOutcome::Stopped;
                return out;
            }
            continue;
        }
        if (startsWith(line_, "info")) {
            protocol_->parseInfo(line_, out.info);
        } else if (startsWith(line_, "bestmove")) {
            out.elapsedMs = millisSince(begin);
            std::string_view rest = std::string_view(line_).substr(8);
            while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
            std::string_view text = rest.substr(0, rest.find_first_of(" \t"));
            if (text.empty() || text == "(none)" || text == "0000") {
                out.status = SearchOutcome::NoMove;
                out.detail = "bestmove without a move";
                return out;
            }
            out.move = protocol_->fromEngine(text);
            out.status = out.move.empty() ? SearchOutcome::Garbage : SearchOutcome::Move;
            if (out.move.empty()) out.detail = "unreadable move '" + std::string(text) + "'";
            return out;
        } else if (startsWith(line_, "nobestmove")) {
            out.elapsedMs = millisSince(begin);
            out.status = SearchOutcome::NoMove;
            out.detail = "nobestmove";
            return out;
        }
    }
}

}  // namespace xq::match
