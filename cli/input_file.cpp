#include "input_file.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "data_chunk.h"

namespace xq::cli {

std::string readInputFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument("cannot read '" + path + "'");
    std::ostringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    if (text.size() >= 2 && std::uint8_t(text[0]) == 0x1f && std::uint8_t(text[1]) == 0x8b)
        text = xq::coord::gunzipText(text, std::size_t(1) << 31, true);
    return text;
}

}  // namespace xq::cli
