// The page of `xq play`: an SVG Xiangqi board and its controls, served as one HTML document and one
// script (no library, no CDN), talking to the JSON API of play_server.h.
#pragma once

#include <string>

namespace xq::play {

const std::string& pageHtml();
const std::string& pageScript();

}  // namespace xq::play
