// Running a program on the submitter's machine to its end, without a shell, with its output captured: git
// for `xq submit --repo` (git_source.h), the engine's `nnue export` for `xq submit run --start shipped`
// (run_submission.h).
#pragma once

#include <string>
#include <vector>

namespace xq::coord {

struct ProgramResult {
    int code = -1;         // the exit status; -1: killed by a signal; 127: could not be started
    std::string out, err;  // trailing newlines removed
};

// Runs argv[0] (searched in PATH when it has no slash) with argv[1..], stdin from /dev/null. Throws
// std::runtime_error only when no pipe or process can be made.
ProgramResult runProgram(const std::vector<std::string>& argv);

}  // namespace xq::coord
