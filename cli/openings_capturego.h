// `xq openings --game capturego`: Capture Go (or Go) start positions for `xq match --game capturego
// --openings file=...`, one position text per line (capturego/position_text.h): `stones` black and as many
// white stones on distinct random points of the centre area x area square, Black to move. A position is
// kept when it is legal (every group has a liberty), not decided (the rules' verdict is open, and no group
// stands in atari, where the side to move would capture at once or must save it), and unlike every
// position kept before it and their mirror images and rotations. No engine scores them (GTP engines
// report no scores): every pair plays each opening with both colours, which cancels an imbalance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace xq::cli {

struct CaptureGoOpeningsOptions {
    int size = 9;
    int stones = 2;  // of each colour
    int area = 0;    // the side of the centre square the stones go on; 0: size - 4 (size - 2 below 9x9)
    int count = 100;
    std::uint64_t seed = 1;
    std::string rules = "capture";  // capture or go
    int target = 1;                 // capture: stones to capture to win
    std::string komi;               // empty: the rule set's (capture 0, go 7.5)
};

// The header comment (the command that makes the set again) and the positions, in the order drawn.
// Throws std::invalid_argument naming a bad option, or when fewer than `count` distinct positions turn up.
std::vector<std::string> captureGoOpenings(const CaptureGoOpeningsOptions& o, std::string* header);

}  // namespace xq::cli
