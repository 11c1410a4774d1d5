// The search's tunable constants (pruning margins, reductions, null-move and aspiration settings, a
// time-management factor): each is a UCI spin option of the same name, `xq-engine tune` lists them in
// fishtest's SPSA format (`name,value,min,max,c_end,r_end` a line), and an options file in that format
// loads them all at once (UCI option ParamsFile; `xq spsa export` writes one). The compiled-in values live
// in search_params_default.cpp, written by `xq-engine tune source`.
//
// The search reads them from one global struct of plain ints, set only between searches (setoption), so
// reading them costs a load from a hot cache line where a constant was folded in (bench/nps-ab.sh
// measured it: README, "Search constants").
#pragma once

#include <string>
#include <vector>

#include "xiangqi/movegen.h"

namespace xq::search {

struct SearchParams {
    int lmrBase;      // late move reductions: Reductions[i] = int(lmrBase / 10 * ln i)
    int rfpMargin;    // reverse futility pruning: eval - rfpMargin * depth >= beta
    int rfpMaxDepth;  // ... below this depth
    int nmpBase;      // null move: staticEval >= beta - nmpDepthMargin * depth + nmpBase
    int nmpDepthMargin;
    int nmpEvalDivisor;    // R grows by (eval - beta) / this, at most 3
    int seeCaptureMargin;  // captures losing more than this times depth by SEE are pruned
    int futilityBase;      // quiet moves: staticEval + futilityBase + futilityPerDepth * lmrDepth <= alpha
    int futilityPerDepth;
    int historyPruning;     // quiet moves with continuation history below -this * depth are pruned
    int lmrHistoryDivisor;  // the reduction shrinks by statScore / this
    int aspirationDelta;    // first window half-width, plus |score| / 50
    int timeNextIteration;  // percent of the optimum time past which a new iteration is not started
};

// The values the search uses now, and the reduction table they make.
extern SearchParams Params;
extern int Reductions[MAX_MOVES];

// What `xq-engine tune` lists of a parameter.
struct ParamInfo {
    const char* name;
    int SearchParams::*field;
    int min, max;
    double cEnd, rEnd;  // SPSA's perturbation and learning rate at the end of a run (fishtest's meaning)
};
const std::vector<ParamInfo>& paramInfos();
const ParamInfo* findParam(const std::string& name);
// The compiled-in values (search_params_default.cpp, constant-initialised), and one parameter's.
struct ParamDefault {
    const char* name;
    int value;
};
extern const ParamDefault DefaultValues[];
extern const int DefaultValueCount;
int defaultParam(const ParamInfo& p);

// Sets a parameter by name; false (and *why) for an unknown name or a value outside its range.
bool setParam(const std::string& name, const std::string& value, std::string* why);
// Loads `name,value[,...]` or `name=value` lines (blank lines and # comments skipped); false with the
// file's line number and what is wrong in *why, and nothing changed.
bool loadParamsFile(const std::string& path, std::string* why);
// Back to the compiled-in values.
void resetParams();

// fishtest's SPSA lines of every parameter with its current value.
std::string tuneListing();
// search_params_default.cpp with the current values as the compiled-in ones.
std::string paramsSource();

// Recomputes what derives from the parameters (the reduction table); called by every setter.
void paramsChanged();

}  // namespace xq::search
