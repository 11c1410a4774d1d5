// Following a test to its end from a terminal or a CI job: the live progress line that `xq regress`,
// `xq wait` and `xq submit --wait` show (games, W/D/L, Elo, LLR, ETA), and the wait itself, which ends in
// the test's verdict as an exit status (coordinator/client/test_verdict.h).
#pragma once

#include <functional>
#include <string>

#include "xq/v1/coordinator.pb.h"

namespace xq::coord {
class Client;
}
namespace CLI {
class App;
}

namespace xq::cli {

// "95s", "2m10s", "1.5h"; "?" when not finite.
std::string duration(double seconds);

// "games 120  W 40 D 50 L 30  Elo 12.3 +- 20.1  LLR 1.23 [-2.94, 2.94]  ETA 2m10s" after `elapsed` seconds.
std::string progressLine(const xq::v1::TestView& view, double elapsed);

struct WaitOptions {
    double timeoutSeconds = 0;        // 0: no limit
    double pollSeconds = 2;           // between two looks at the test
    bool json = false;                // the final report as JSON on stdout, progress on stderr
    std::string command = "xq wait";  // names the command in messages
    std::string webUrl;  // the coordinator's web view (--web or XQ_WEB): the test's link is shown
};

// "URL/tests/ID" for the web view at `webUrl` (a trailing slash allowed), or "" without one.
std::string testLink(const std::string& webUrl, std::uint64_t id);
// Adds --web (default: XQ_WEB) to a command that follows a test.
void addWebOption(CLI::App* sub, std::string& webUrl);

// Follows test `id` until it ends (or the timeout), printing progress to stdout (stderr with --json): on a
// terminal one line rewritten in place, otherwise a line for each change. Then prints the report and the
// verdict and returns the exit status: 0 passed, 1 failed, 2 no verdict (stopped, unable to run, timed out,
// or the test cannot be read: no such test, no permission). A coordinator that cannot be reached for a
// while (a restart) is retried until the timeout.
int waitForTest(xq::coord::Client& client, std::uint64_t id, const WaitOptions& options);

}  // namespace xq::cli
