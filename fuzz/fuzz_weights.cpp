// Weights files: read, or WeightsError names the line; what is read writes out as a file that reads
// back to the same weights.
#include <cstdint>
#include <sstream>
#include <string>

#include "weights.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    xq::eval::Weights w;
    try {
        w = xq::eval::readWeights(in);
    } catch (const xq::eval::WeightsError&) {
        return 0;
    }
    std::ostringstream out;
    xq::eval::writeWeights(out, w);
    std::istringstream back(out.str());
    const xq::eval::Weights again = xq::eval::readWeights(back);  // must not throw
    std::ostringstream out2;
    xq::eval::writeWeights(out2, again);
    if (out2.str() != out.str()) __builtin_trap();
    return 0;
}
