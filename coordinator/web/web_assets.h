// The web view's static files, compiled in so the coordinator serves them itself (no CDN: the pages
// work on a network without internet): the style sheet and the live-refresh script.
#pragma once

namespace xq::coord::web {

extern const char* const StyleCss;
// Every few seconds, fetches the page again and swaps in the elements marked data-live (by id), so the
// figures of a running test move without a reload; stops while the tab is hidden.
extern const char* const LiveJs;
constexpr int LiveRefreshMs = 2500;

}  // namespace xq::coord::web
