// An SPSA test as a user describes it (`xq submit spsa`, `xq spsa`): one engine, a parameters file in
// fishtest's format (`name,start,min,max,c_end,r_end` a line, as `xq-engine tune` prints them), the
// match settings both sides share, and the schedule; and the tuned values written back in that format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client.h"
#include "submission.h"

namespace xq::coord {

struct SpsaSubmission {
    EngineChoice engine;            // the engine tuned (path, weights, its own settings)
    std::vector<std::string> each;  // settings of both sides: tc=10+0.1, nodes=5000, option.Hash=16, ...
    std::string paramsFile;
    std::uint64_t pairs = 0;      // iterations
    double alpha = 0, gamma = 0;  // 0: fishtest's 0.602 and 0.101
    std::optional<double> A;      // unset: a tenth of the pairs
    std::string openings;         // empty: no book (then every pair starts from the start position)
    std::string rules = "asian";
    std::string game = "xiangqi";  // xiangqi or chess
    int maxMoves = 0, concurrencyPerWorker = 0, priority = 0;
    double throughput = 1;
    std::string description;
    std::vector<std::string> webhooks;  // as SubmissionOptions::webhooks
};

// Reads a parameters file: `name,start,min,max,c_end,r_end` lines (blank lines and # comments skipped).
// Throws std::invalid_argument naming the file, the line and what is wrong.
std::vector<xq::v1::SpsaParam> readSpsaParams(const std::string& path);
// The spec, with the engine's hash computed here. Throws std::invalid_argument naming the bad setting.
xq::v1::TestSpec buildSpsaSpec(const SpsaSubmission& submission);
// Uploads the engine (and weights, book) and submits; returns the test id.
SubmittedTest submitSpsa(Client& client, const SpsaSubmission& submission);
// The parameters' current values in the same format (rounded to whole numbers, as the engines were given
// them), which `xq-engine` loads with its ParamsFile option and `xq submit spsa --params` reads again.
std::string spsaOptionsFile(const xq::v1::TestView& view);

}  // namespace xq::coord
