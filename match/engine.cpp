#include "engine.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "gtp_session.h"
#include "text.h"

namespace xq::match {

namespace {

using Clock = std::chrono::steady_clock;

// Whether s is the word `prefix` or starts with it and a space or tab.
bool startsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0 &&
           (s.size() == prefix.size() || s[prefix.size()] == ' ' || s[prefix.size()] == '\t');
}

// The same for a literal, at each line of a search: its length known, the comparison is a few
// instructions instead of a call to memcmp.
template <std::size_t N>
bool startsWith(std::string_view s, const char (&prefix)[N]) {
    constexpr std::size_t n = N - 1;
    return s.size() >= n && std::memcmp(s.data(), prefix, n) == 0 &&
           (s.size() == n || s[n] == ' ' || s[n] == '\t');
}

// Whether an info line carries a score (the word "score"). Each 's' is found with memchr, which looks at
// many bytes at once: std::string::find(" score ") compares at every space and memmem prepares its search
// for longer texts than a line.
bool hasScore(std::string_view line) {
    const char* p = line.data();
    const char* const end = p + line.size();
    while (p != end) {
        const char* s = static_cast<const char*>(std::memchr(p, 's', std::size_t(end - p)));
        if (!s) return false;
        if (s > line.data() && s[-1] == ' ' && end - s >= 6 && std::memcmp(s, "score ", 6) == 0) return true;
        p = s + 1;
    }
    return false;
}

// An option as the handshake declares it: "option name NAME type T [default D] [min A] [max B] [var V]..." in
// UCI, the same without "name" in UCCI.
struct DeclaredOption {
    std::string name, type;
    std::optional<long long> min, max;
};

std::optional<DeclaredOption> declaredOption(std::string_view line, Protocol protocol) {
    if (!startsWith(line, "option")) return std::nullopt;
    std::string_view rest = line.substr(6);
    if (protocol != Protocol::Ucci) {
        const auto name = rest.find(" name ");
        if (name == std::string_view::npos) return std::nullopt;
        rest = rest.substr(name + 6);
    }
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    const auto type = rest.find(" type ");
    std::string_view name = rest.substr(0, type);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty()) return std::nullopt;
    DeclaredOption option{std::string(name), "", std::nullopt, std::nullopt};
    if (type == std::string_view::npos) return option;
    std::istringstream words{std::string(rest.substr(type + 6))};
    words >> option.type;
    for (std::string word, value; words >> word;) {
        long long v = 0;
        if ((word == "min" || word == "max") && words >> value && toInt(value, v))
            (word == "min" ? option.min : option.max) = v;
    }
    return option;
}

// Why value does not suit the option (a spin's whole number within its bounds, a check's true or false),
// or empty.
std::string badValue(const DeclaredOption& option, const std::string& value) {
    if (option.type == "check" && value != "true" && value != "false")
        return "a check option takes true or false";
    if (option.type != "spin") return {};
    long long v = 0;
    if (!toInt(value, v)) return "a spin option takes a whole number";
    if ((option.min && v < *option.min) || (option.max && v > *option.max))
        return "outside its range " + (option.min ? std::to_string(*option.min) : std::string("...")) +
               " to " + (option.max ? std::to_string(*option.max) : std::string("..."));
    return {};
}

}  // namespace

EngineClient::EngineClient(EngineConfig config, int startupTimeoutMs, int stallTimeoutMs)
    : config_(std::move(config)),
      startupTimeoutMs_(startupTimeoutMs),
      stallTimeoutMs_(stallTimeoutMs),
      process_(makeEngineProcess()),
      protocol_(config_.protocol == Protocol::Gtp ? nullptr
                                                  : makeProtocolAdapter(config_.protocol, config_.game)) {
    if (config_.protocol == Protocol::Gtp) {
        if (config_.game != games::Game::CaptureGo)
            throw std::invalid_argument("engine '" + config_.name + "': GTP is a Go protocol; " +
                                        games::gameName(config_.game) + " engines speak uci, ucci or fairy");
        gtp_ = std::make_unique<GtpSession>(*process_, config_, startupTimeoutMs_, stallTimeoutMs_);
    }
}

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
        ScopedNormalPolicy normal;
        process_->start(config_.cmd, config_.args);
    } catch (const std::exception& e) {
        throw std::runtime_error("engine '" + config_.name + "' did not start: " + e.what());
    }
    started_ = true;
    if (gtp_) {
        try {
            gtp_->handshake(stop);
        } catch (...) {
            shutdown();
            throw;
        }
        return;
    }
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
    std::vector<DeclaredOption> declared;
    for (const std::string& line : handshake)
        if (auto option = declaredOption(line, config_.protocol)) declared.push_back(*option);
    for (const auto& [name, value] : config_.options) {
        auto match = std::find_if(declared.begin(), declared.end(), [&name = name](const DeclaredOption& d) {
            return equalsIgnoringCase(d.name, name);
        });
        std::string problem;
        if (match == declared.end()) {
            std::string offered;
            for (const DeclaredOption& d : declared) offered += (offered.empty() ? "" : ", ") + d.name;
            problem = "has no option '" + name + "' (it declares " +
                      (offered.empty() ? std::string("none") : offered) + ")";
        } else if (std::string why = badValue(*match, value); !why.empty()) {
            problem = "cannot take " + name + "=" + value + ": " + why;
        }
        if (problem.empty()) continue;
        shutdown();
        throw std::runtime_error("engine '" + config_.name + "' " + problem);
    }
    auto options = config_.options;
    const auto setsOption = [&](const std::string& name) {
        return std::any_of(options.begin(), options.end(),
                           [&](const auto& o) { return equalsIgnoringCase(o.first, name); });
    };
    const auto declares = [&](const std::string& name) {
        return std::any_of(declared.begin(), declared.end(),
                           [&](const DeclaredOption& d) { return equalsIgnoringCase(d.name, name); });
    };
    if (!config_.repetitionRule.empty() && declares("Repetition Rule") && !setsOption("Repetition Rule"))
        options.emplace_back("Repetition Rule", config_.repetitionRule);
    for (const std::string& cmd : protocol_->setupCommands(options)) process_->writeLine(cmd);
    std::vector<std::string> setup;
    if (!process_->writeLine("isready") || !waitFor("readyok", startupTimeoutMs_, stop, error, &setup)) {
        shutdown();
        throw std::runtime_error("engine '" + config_.name + "' did not get ready: " + error);
    }
    // An engine that refuses an option's value (a file it cannot read) says so and goes on with what it
    // had: the match would be played with settings nobody asked for.
    for (const std::string& line : setup)
        if (line.rfind("info string error: EvalFile", 0) == 0) {
            shutdown();
            throw std::runtime_error("engine '" + config_.name + "' refused a setting: " + line.substr(19));
        }
}

bool EngineClient::newGame(const StopCheck& stop, std::string& error) {
    if (gtp_) return gtp_->newGame(stop, error);
    // The game's first position is written out whole (go's movesOnlyGrew holds from here).
    positionFen_.clear();
    positionMoves_.clear();
    std::string cmd = protocol_->newGameCommand();
    if ((!cmd.empty() && !process_->writeLine(cmd)) || !process_->writeLine("isready")) {
        error = "the engine " + process_->exitDescription();
        return false;
    }
    return waitFor("readyok", startupTimeoutMs_, stop, error);
}

bool EngineClient::resync(const StopCheck& stop) {
    if (gtp_) return false;  // GTP cannot interrupt a genmove: the engine is restarted
    std::string error;
    if (!process_->writeLine("stop") || !process_->writeLine("isready")) return false;
    return waitFor("readyok", 1000, stop, error);
}

SearchOutcome EngineClient::go(const std::string& fen, const std::vector<std::string>& moves,
                               const GameClock* clocks, bool redToMove, const StopCheck& stop,
                               bool movesOnlyGrew) {
    if (gtp_) return gtp_->go(fen, moves, clocks, redToMove, stop);
    SearchOutcome out;
    std::int64_t deadline = clocks[redToMove ? 0 : 1].deadlineMs();
    // Without a clock only a stall ends the wait; with one, the flag falls first.
    std::int64_t limit = deadline >= 0 ? deadline : stallTimeoutMs_;
    const std::size_t sent = positionMoves_.size();
    const bool extends =
        fen == positionFen_ && moves.size() >= sent &&
        (movesOnlyGrew ? sent == 0 || moves[sent - 1] == positionMoves_.back()
                       : std::equal(positionMoves_.begin(), positionMoves_.end(), moves.begin()));
    if (!extends) {
        positionFen_ = fen;
        positionMoves_.clear();
        positionCommand_ = protocol_->positionCommand(fen, {});
    }
    protocol_->appendMoves(positionCommand_, moves, positionMoves_.size());
    positionMoves_.insert(positionMoves_.end(), moves.begin() + std::ptrdiff_t(positionMoves_.size()),
                          moves.end());
    // Without a clock the go command is the same at every move: made once.
    if (config_.tc.hasClock())
        goCommand_ = protocol_->goCommand(config_.tc, clocks, redToMove);
    else if (goCommand_.empty())
        goCommand_ = protocol_->goCommand(config_.tc, clocks, redToMove);
    scoreLine_.clear();
    tailLine_.clear();
    const auto readInfo = [&] {
        if (!scoreLine_.empty()) protocol_->parseInfo(scoreLine_, out.info);
        if (!tailLine_.empty()) protocol_->parseInfo(tailLine_, out.info);
    };
    auto begin = Clock::now();
    // Both commands in one write: one wake-up of the engine per move instead of two.
    if (!process_->writeLines(positionCommand_, goCommand_)) {
        out.status = SearchOutcome::Crash;
        out.detail = "the engine " + process_->exitDescription();
        return out;
    }
    // On a clock the time left is read before each line. Without one the limit is a stall's, seconds away:
    // it is read after a wait that timed out and at every 16th line, not at each of a move's info lines.
    std::int64_t left = limit;
    int linesUnchecked = deadline >= 0 ? 0 : 1;  // without a clock, none of the limit has gone yet
    while (true) {
        if (deadline >= 0 || linesUnchecked == 0) left = limit - millisSince(begin);
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
            linesUnchecked = 0;
            continue;
        }
        linesUnchecked = (linesUnchecked + 1) % 16;
        if (startsWith(line_, "info")) {
            std::string_view rest = std::string_view(line_).substr(4);
            while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
            if (startsWith(rest, "string")) continue;  // free text, whatever words it holds
            if (hasScore(line_)) {
                scoreLine_.swap(line_);
                tailLine_.clear();
            } else {
                tailLine_.swap(line_);
            }
        } else if (startsWith(line_, "bestmove")) {
            out.elapsedMs = millisSince(begin);
            readInfo();
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
            readInfo();
            out.status = SearchOutcome::NoMove;
            out.detail = "nobestmove";
            return out;
        }
    }
}

}  // namespace xq::match
