// Reading a user's input file whole, gzip or not (games.pgn.gz), for the commands that take files.
#pragma once

#include <string>

namespace xq::cli {

// The file's text, inflated when it starts with the gzip magic. Throws std::invalid_argument naming a
// file that cannot be read.
std::string readInputFile(const std::string& path);

}  // namespace xq::cli
