#include "goengine/types.h"

#include <cmath>
#include <cstdio>

namespace xq::go {

const char* colorName(Color c) {
    switch (c) {
        case Black:
            return "black";
        case White:
            return "white";
        case Empty:
            return "empty";
        default:
            return "border";
    }
}

std::string GameResult::toString() const {
    if (winner == Winner::None) return "?";
    if (winner == Winner::Draw) return "0";
    std::string s = winner == Winner::Black ? "B+" : "W+";
    switch (reason) {
        case EndReason::Capture:
            return s + "C";
        case EndReason::Resignation:
            return s + "R";
        default:
            break;
    }
    // After two passes: more captures ("B+C", as the reference rules spell it) or area ("W+3.5").
    if (captureMargin > 0) return s + "C";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", std::fabs(margin));
    return s + buf;
}

}  // namespace xq::go
