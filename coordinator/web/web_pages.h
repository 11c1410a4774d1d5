// The web view's HTML pages, rendered from the coordinator's views: the tests list, one test, workers,
// benchmarks, login and the submit form. Pure functions from data to HTML (no I/O), so they are tested
// without a server. Every user-written text is escaped (html.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "charts.h"
#include "coordinator.h"
#include "rating.h"
#include "xq/v1/bench.pb.h"
#include "xq/v1/datagen.pb.h"
#include "xq/v1/run.pb.h"

namespace xq::coord::web {

struct PageContext {
    std::string user;  // logged-in user's name; empty: a reader
    std::string csrf;  // the session's form token
    std::int64_t nowUnix = 0;
    bool approver = false;  // the logged-in user may release pending tests
};

// Pieces of pages: a hash shortened (its whole in the title), a test's state, its LLR between its bounds
// as a bar, its W/D/L, pentanomial counts and Elo with its error ("-" without games), the form token's
// hidden field, and a network's download link (/nets/HASH, web_nets.cpp).
std::string shortSha(const std::string& sha);
std::string stateBadge(const v1::TestSummary& s);
std::string llrBar(const v1::TestSummary& s, bool showBounds = true);
std::string wdlText(const v1::TestSummary& s);
std::string pentaText(const v1::TestSummary& s);
std::string eloText(const v1::TestSummary& s);
std::string csrfField(const PageContext& ctx);
// A cell of a list (tests, runs) that names its column (data-label): on a phone the rows become cards of
// labelled figures. `attrs` are the cell's other attributes, with a leading space.
std::string listCell(const char* label, const std::string& attrs, const std::string& content);
std::string netLink(const std::string& sha256);

// A whole page: head, navigation, `body`, and the live-refresh script.
std::string layout(const PageContext& ctx, const std::string& title, const std::string& body);

struct TestsPageQuery {
    std::string state, submitter;
    std::int64_t page = 1, perPage = 50;
};
std::string testsPage(const PageContext& ctx, const TestsPageQuery& q, const Coordinator::TestPage& tests);

// A network one of a test's engines used (web_nets.cpp).
struct NetUse {
    std::string role;  // "dev", "base"
    std::string sha256;
    bool found = false;  // info is the stored artifact's
    Coordinator::ArtifactInfo info;
};

struct TestPageData {
    v1::TestView view;
    std::vector<NetUse> nets;
    std::vector<Coordinator::HistoryPoint> history;
    GameTotals games;
    v1::ListChunksResponse chunks;  // datagen tests
};
std::string testPage(const PageContext& ctx, const TestPageData& data);
// An SPSA test's parameters now and a chart of each over iterations (web_spsa.cpp), and their values in a
// line of the tests list.
std::string spsaSection(const v1::TestView& view);
std::string spsaValuesText(const v1::SpsaProgress& progress);
// The two charts of a test page, alone (the live script swaps them in).
std::string llrChart(const TestPageData& data);
std::string eloChart(const TestPageData& data);

// The networks of a test (empty when it has none), and the page of every network with its tests.
std::string netsSection(const std::vector<NetUse>& nets);
std::string netsPage(const PageContext& ctx, const std::vector<Coordinator::ArtifactInfo>& nets);

std::string workersPage(const PageContext& ctx, const v1::ListWorkersResponse& workers);
std::string benchPage(const PageContext& ctx, const v1::ListBenchesResponse& runs);
std::string loginPage(const PageContext& ctx, const std::string& error);
// The fields of `xq submit`, by the names the form posts.
using FormValues = std::map<std::string, std::string>;
// The openings choice of the submit form that asks for no book (its empty choice is the game's book, as
// `xq submit` without --openings).
inline constexpr char FormNoOpenings[] = "none";
// The form of `xq submit`'s fields; `values` (by field name) refills them after a refused submission, so
// that the user corrects what the error names instead of typing everything again.
std::string submitPage(const PageContext& ctx, const std::vector<Coordinator::ArtifactInfo>& artifacts,
                       const std::string& error, const FormValues& values = {});
// A ladder (`xq ladder add`): its versions' ratings in the order they joined, charted with their 95%
// intervals, and every player's rating in a table.
struct LadderPageData {
    std::string name;
    std::vector<std::string> versions;  // in the order they joined
    stats::RatingFit fit;               // all players (versions and references)
    std::int64_t tests = 0;
};
std::string ladderPage(const PageContext& ctx, const LadderPageData& data);
// Every ladder by name with its number of tests, each linking to its page (/ladder).
std::string laddersPage(const PageContext& ctx,
                        const std::vector<std::pair<std::string, std::int64_t>>& ladders);
// Runs (run.proto; web_runs.cpp): every run, one run's page (its summary and current step, a table of its
// generations, the charts, its settings and events, and Stop / Resume for a logged-in user), and the run form
// (`xq submit run`'s fields).
std::string runsPage(const PageContext& ctx, const v1::ListRunsResponse& runs);
std::string runPage(const PageContext& ctx, const v1::RunView& run);
std::string runSubmitPage(const PageContext& ctx, const std::vector<Coordinator::ArtifactInfo>& artifacts,
                          const std::string& error, const FormValues& values = {});
// The best network's Elo over the start after each ended generation (generation 0: the start at 0): the
// promoted gates' estimates chained, the band their 95% half-widths combined (root of the sum of squares).
Chart runEloChart(const v1::RunView& run);
// The quantised network's validation loss of each trained generation, with the start's as a line.
Chart runLossChart(const v1::RunView& run);
// Where the current step is: games of the target (self-play), epochs of the epochs (training), games and
// LLR (gate), and when it should end at the pace so far.
struct RunStepProgress {
    std::string text;
    double fraction = 0;           // of the step, 0..1
    std::int64_t etaSeconds = -1;  // -1: no estimate yet
};
RunStepProgress runStepProgress(const v1::RunSummary& s, std::int64_t nowUnix);

std::string errorPage(const PageContext& ctx, int status, const std::string& message);

}  // namespace xq::coord::web
