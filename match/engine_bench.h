// Runs `<engine> bench [DEPTH [THREADS [HASH_MB]]]` as a child process and reads its `Nodes searched:` and
// `Nodes/second:` lines from stdout or stderr (Stockfish writes `Nodes searched  : N` to stderr). The node
// count at the default depth is the engine's bench signature: workers compare it with the submitted one
// before playing a test (a build that differs from what was submitted must not play), and the speed scales
// clocks stated for a reference speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace xq::match {

struct EngineBenchRequest {
    // 0: no arguments, the engine's default (the depth its signature is quoted at). Arguments are
    // positional, so when threads or hash are given and depth is 0, depth 10 (xq-engine's default) is passed.
    int depth = 0;
    int threads = 0;  // 0: the engine's default
    int hashMb = 0;   // 0: the engine's default
    int timeoutSeconds = 300;
    // Non-empty: the command line is launcher + [engine, bench, ...] (a sandbox, worker/sandbox.h).
    std::vector<std::string> launcher;
};

struct EngineBenchResult {
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    std::int64_t wallMs = 0;  // measured around the process
};

// Throws std::runtime_error naming the engine when it cannot run, times out, exits non-zero or prints
// no node count.
EngineBenchResult runEngineBench(const std::string& enginePath, const EngineBenchRequest& request = {});

// Parses the engine's bench output; nodes == 0 when the `Nodes searched:` line is missing.
EngineBenchResult parseEngineBenchOutput(const std::string& text);

}  // namespace xq::match
