// `xq-go match`: two engine settings play each other in-process at equal time (or nodes), alternating
// colours, from the empty or crosscut start; prints wins, draws and losses of the first. This is how the
// engines were compared (see search.h); the project's match runner does the same over GTP.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace xq::go {

int runMatchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace xq::go
