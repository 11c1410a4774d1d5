// The Elo estimate fishtest shows for an SPRT test (stat_util.SPRT_elo, sprt.py, brownian.py).
//
// A test that stops as soon as the LLR crosses a bound is biased: tests that passed were, on average,
// lucky. fishtest corrects for it by modelling the LLR as a Brownian motion stopped at the bounds and
// reporting the Elo (logistic, whatever the test's model) for which the observed outcome is the median
// outcome, with the interval from the 2.5% and 97.5% outcomes and LOS as the probability of a
// worse outcome at Elo 0. Use it for the result of a finished SPRT ("Elo 1.23 [-0.5, 2.9]");
// elo.h's plain estimate is the one for a fixed-length match.
#pragma once

#include "sprt.h"

namespace xq::stats {

struct SprtEloEstimate {
    double elo = 0;      // logistic Elo, median-unbiased under the stopping rule
    double ciLower = 0;  // confidence interval (95% by default)
    double ciUpper = 0;
    double los = 0.5;      // likelihood of superiority
    double llr = 0;        // the exact LLR (as in sprt.h), which fishtest reports alongside
    bool clamped = false;  // the LLR was more than 3% past a bound, so the model is stretched
};

// `confidence` is the two-sided level of the interval. Throws as sprt() does on bad input.
SprtEloEstimate sprtElo(const Penta& penta, const SprtConfig& cfg, double confidence = 0.95);
SprtEloEstimate sprtElo(const Wdl& wdl, const SprtConfig& cfg, double confidence = 0.95);

}  // namespace xq::stats
