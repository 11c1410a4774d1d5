// How `xq runs` and `xq show run` print what the coordinator tells them of runs (run.proto): a table of
// runs, a run's summary with its generations table and events, or JSON for scripts.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "xq/v1/run.pb.h"

namespace xq::coord {

const char* runStateName(xq::v1::RunState s);  // "running", "finished", "stopped", "failed"
// "xq-<12 hex digits>.nnue", or "hand-written" for the empty hash.
std::string runNetName(const std::string& sha256);

// The table of `xq runs`: id, state, generation and step, best network, Elo +- error, description.
std::string runListText(const xq::v1::ListRunsResponse& list);
nlohmann::json runSummaryJson(const xq::v1::RunSummary& s);
std::string runListJson(const xq::v1::ListRunsResponse& list);

// `xq show run`: the summary and settings, the generations table (generation, positions, window, train
// and validation loss, training time, gate W/D/L, Elo +-, LLR, promoted), then `stepLine` (the current
// step's progress, may be empty) and the events.
std::string runViewText(const xq::v1::RunView& view, const std::string& stepLine);
// The summary's keys, with "spec", "generations" (each with "gate" as `xq show --json` has a test) and
// "events".
std::string runViewJson(const xq::v1::RunView& view);

}  // namespace xq::coord
