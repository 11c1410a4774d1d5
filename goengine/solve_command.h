// The `xq-go solve` command line: reads the options, sets up the position (empty, crosscut, an SGF file
// or the position text form, both read by the rules library games/capturego), runs the Solver and prints
// the verdict (text or JSON) with nodes and time, and progress on stderr.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "goengine/small_board.h"
#include "goengine/types.h"

namespace xq::go {

// The starting position of a small board (Black to move).
SmallPos smallStart(const SmallGeometry& g, StartPosition start);

// Runs `xq-go solve` with the arguments after "solve"; returns the process exit code.
int runSolveCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace xq::go
