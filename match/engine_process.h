// An engine as an operating-system process talking over pipes. The rest of the runner sees only this
// abstract class, so the POSIX details (spawn, poll, signals) stay in one file.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace xq::match {

// Milliseconds since t on the steady clock (the clock of every engine wait).
inline std::int64_t millisSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t)
        .count();
}

// How often a wait on an engine looks at the stop flag: short enough for a prompt Ctrl-C, long enough to
// cost nothing.
inline constexpr std::int64_t StopPollMs = 100;

class EngineProcess {
  public:
    enum class ReadStatus { Line, Timeout, Closed };

    virtual ~EngineProcess() = default;

    // Starts `cmd` (PATH is searched) with `args`; throws std::runtime_error when it cannot run.
    virtual void start(const std::string& cmd, const std::vector<std::string>& args) = 0;
    // Sends one line (a newline is added). False when the engine no longer reads its input.
    virtual bool writeLine(std::string_view line) = 0;
    // Sends two lines (a newline after each) in one write, neither copied: a move's position and go.
    virtual bool writeLines(std::string_view first, std::string_view second) = 0;
    // Waits up to timeoutMs (0: only what is already there) for one line of output, without its
    // newline. Closed once the engine has closed its output (exited or crashed).
    virtual ReadStatus readLine(std::string& line, std::int64_t timeoutMs) = 0;
    virtual bool isRunning() = 0;
    // Ends the process: closes its input, gives it graceMs to exit, then kills it. Idempotent.
    virtual void terminate(std::int64_t graceMs) = 0;
    // After the process ended: "exited with code 3", "killed by signal 11 (Segmentation fault)".
    virtual std::string exitDescription() = 0;
};

std::unique_ptr<EngineProcess> makeEngineProcess();

}  // namespace xq::match
