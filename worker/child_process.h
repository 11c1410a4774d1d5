// A program the worker runs to its end (a build, the network trainer): started in a process group of its
// own with its output in files, killed whole at a timeout, when the caller says stop, and at the end, so
// nothing it started outlives it; the program itself is killed when the thread that started it dies (a
// worker killed with SIGKILL leaves no trainer behind). Engines, which talk over pipes, are
// match/engine_process.h's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace xq::worker {

struct ChildSpec {
    std::vector<std::string> argv;         // argv[0]: the program's path
    std::string dir;                       // working directory; empty: the worker's
    std::string stdoutPath, stderrPath;    // appended to; the same path for one log
    std::vector<std::string> environment;  // NAME=VALUE set over the worker's own
    std::uint64_t memoryBytes = 0;         // RLIMIT_AS of each process (where AddressSpaceLimited); 0: none
    int niceness = 0;                      // > 0: the program's nice value (a lower priority)
    int timeoutSeconds = 0;                // 0: none
};

struct ChildResult {
    int exitCode = -1;  // 128 + the signal when killed by one
    bool timedOut = false;
    bool stopped = false;  // keepGoing returned false
};

// Runs the program and waits for it, calling keepGoing (when given) every 50 ms meanwhile: false kills it.
// Throws std::runtime_error when the output files cannot be opened or the fork fails; a program that cannot
// be executed exits with 127.
ChildResult runChild(const ChildSpec& spec, const std::function<bool()>& keepGoing = {});

// The last `count` lines of a text file (each cut at 300 characters), for an error message.
std::string lastLines(const std::string& path, std::size_t count);

}  // namespace xq::worker
