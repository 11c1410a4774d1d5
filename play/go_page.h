// The page of `xq play --game capturego`: an SVG Go board of the chosen size (5..19) and its controls
// (board size, capture target, colour, level; pass, undo, resign, SGF), served as one HTML document and
// one script (no library, no CDN), talking to the JSON API of play_server_go.cpp.
#pragma once

#include <string>

namespace xq::play {

const std::string& goPageHtml();
const std::string& goPageScript();

}  // namespace xq::play
