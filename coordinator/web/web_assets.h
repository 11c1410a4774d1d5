// The web view's static files, compiled in so the coordinator serves them itself (no CDN: the pages
// work on a network without internet): the style sheet and the live-refresh script.
#pragma once

namespace xq::coord::web {

extern const char* const StyleCss;
// Every few seconds, fetches the page again and swaps in the elements marked data-live (by id), so the
// figures of a running test move without a reload; stops while the tab is hidden. It also asks before a
// form marked data-confirm (stopping a test) is sent: the page's policy allows no inline script.
extern const char* const LiveJs;
// The pages' icon (served as /favicon.ico and /static/favicon.svg): a red Xiangqi piece, drawn, no font.
extern const char* const FaviconSvg;
constexpr int LiveRefreshMs = 2500;

}  // namespace xq::coord::web
