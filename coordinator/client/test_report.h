// How `xq show`, `xq tests`, `xq workers` and `xq regress` print what the coordinator tells them:
// human-readable text, or JSON for scripts.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "xq/v1/coordinator.pb.h"

namespace xq::coord {

const char* stateName(xq::v1::TestState s);  // "running", "finished", "stopped"
// "base..dev" (12-digit commits) when both engines are built from source, else empty.
std::string compareText(const xq::v1::MatchSpec& m);

// JSON object with at least kind, state, games, wdl, penta, llr (and bounds, Elo, per-worker games,
// failures, events); a datagen test adds "datagen" (progress and settings) and "engine".
std::string testViewJson(const xq::v1::TestView& view);
nlohmann::json testViewObject(const xq::v1::TestView& view);
nlohmann::json summaryJson(const xq::v1::TestSummary& s);
std::string testViewText(const xq::v1::TestView& view);
// One line: "12 running  320 games  W 100 D 150 L 70  Elo 32.6 +- 21.0  LLR 1.20 [-2.94, 2.94]  desc"
std::string testSummaryLine(const xq::v1::TestSummary& s);
std::string testListJson(const xq::v1::ListTestsResponse& list);
std::string workersText(const xq::v1::ListWorkersResponse& list);
std::string workersJson(const xq::v1::ListWorkersResponse& list);
nlohmann::json workersObject(const xq::v1::ListWorkersResponse& list);

}  // namespace xq::coord
