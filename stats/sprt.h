// The sequential probability ratio test that decides whether a change is an improvement: the API the
// match runner, the coordinator and the CLI share. Include this header; it brings the counts
// (results.h) and the Elo estimates (elo.h) with it.
//
// H0: the tested engine is elo0 stronger, H1: it is elo1 stronger (elo0 < elo1). After every game
// pair the generalized LLR is recomputed from all counts so far (see llr.h; it reproduces fishtest's
// LLR to the last bit on ~1000 cross-checked cases, and costs 2-4 microseconds); the test stops with H1
// (pass) once LLR > ln((1-beta)/alpha), with H0 (fail) once LLR < ln(beta/(1-alpha)). Bounds are in
// normalized Elo by default (fishtest's current practice), or in logistic Elo. Feed pentanomial counts
// whenever games are played in pairs; trinomial counts are for unpaired games only, since they overstate the
// variance of paired games.
//
// Typical use:
//   xq::stats::SprtConfig cfg{.elo0 = 0, .elo1 = 2};          // normalized, alpha = beta = 0.05
//   xq::stats::Penta counts;  counts.addPair(Outcome::Win, Outcome::Draw);  ...
//   xq::stats::SprtState s = xq::stats::sprt(counts, cfg);    // s.llr, s.decision
//   std::cout << xq::stats::summaryLine(counts, cfg) << "\n";
// For a decision with fishtest's overshoot correction, feed the running totals to an SprtTracker.
// Everything here is a pure function of its arguments (SprtTracker aside), safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "elo.h"
#include "results.h"

namespace xq::stats {

enum class EloModel { Normalized, Logistic };

struct SprtConfig {
    double elo0 = 0;
    double elo1 = 2;
    double alpha = 0.05;  // false positive rate (accepting H1 when elo = elo0)
    double beta = 0.05;   // false negative rate (accepting H0 when elo = elo1)
    EloModel model = EloModel::Normalized;

    double lowerBound() const;  // ln(beta / (1 - alpha))
    double upperBound() const;  // ln((1 - beta) / alpha)
};

// Throws std::invalid_argument with a readable message unless elo0 < elo1 (both finite and within
// the limits below), alpha and beta are in (0, 1), and alpha + beta < 1 (otherwise the bounds would not
// enclose 0). Within the limits the LLR exists for every possible result (checked on 400k random
// results); beyond them some results have no solution and sprt() would throw std::domain_error.
inline constexpr double kMaxNormalizedBound = 200;  // nElo; real tests use 0..10
inline constexpr double kMaxLogisticBound = 1000;   // Elo
void validate(const SprtConfig& cfg);

enum class Decision { Continue, AcceptH0, AcceptH1 };

// "continue", "H0" (the change failed), "H1" (it passed).
const char* toString(Decision d);
// "normalized" or "logistic"; parseEloModel accepts the same words and throws std::invalid_argument
// on anything else.
const char* toString(EloModel m);
EloModel parseEloModel(const std::string& name);

struct SprtState {
    double llr = 0;
    double lower = 0;  // the bounds the decision was taken against (overshoot-corrected for a tracker)
    double upper = 0;
    Decision decision = Decision::Continue;
};

// Stateless: the LLR of all counts so far and the decision against the nominal bounds. Throws
// std::invalid_argument on a bad config or negative counts.
SprtState sprt(const Penta& penta, const SprtConfig& cfg);
SprtState sprt(const Wdl& wdl, const SprtConfig& cfg);

// fishtest's update_SPRT with dynamic overshoot correction (Siegmund): when updates arrive one batch
// at a time, the LLR jumps past the bound by a random amount; the tracker estimates that overshoot
// from the LLR's past record lows/highs and moves the stop thresholds inwards by it, which keeps the
// real error rates at alpha and beta. Feed it the running totals after every batch of `batchSize`
// pairs (or games, for trinomial); totals that skip or repeat batches are handled as fishtest does
// (repeat: no change; skipped batches: restart the record; going backwards or a total that is not a
// multiple of the batch: overshoot correction off for good).
class SprtTracker {
  public:
    explicit SprtTracker(SprtConfig cfg, std::int64_t batchSize = 1);
    SprtState update(const Penta& totals);
    SprtState update(const Wdl& totals);
    const SprtConfig& config() const { return cfg_; }

  private:
    SprtState update(double llr, std::int64_t samples);

    SprtConfig cfg_;
    std::int64_t batchSize_;
    bool overshootOn_ = true;
    std::int64_t lastSamples_ = 0;
    double ref0_ = 0, sum0_ = 0, sumSq0_ = 0;  // record lows of the LLR and their drops
    double ref1_ = 0, sum1_ = 0, sumSq1_ = 0;  // record highs and their rises
};

// How much longer a test is likely to run. The LLR is treated as a Brownian motion whose drift and
// variance per sample (pair or game) are those of the LLR's per-sample increments under the given
// "true" result distribution; between the bounds it exits with a known probability and mean time.
struct SprtForecast {
    double expectedSamples = 0;  // pairs for pentanomial, games for trinomial
    double expectedGames = 0;    // the same in games
    double passProbability = 0;  // probability of ending with H1
};
// From the current state, assuming the observed distribution is the truth.
SprtForecast forecastRemaining(const Penta& penta, const SprtConfig& cfg);
SprtForecast forecastRemaining(const Wdl& wdl, const SprtConfig& cfg);
// For planning a test before it starts: the expected duration of an SPRT whose per-sample outcomes
// follow `ascendingProbabilities` (L,D,W or the five pair cells; they need not sum to 1 exactly, they
// are normalised), starting from LLR = startLlr.
SprtForecast forecast(std::span<const double> ascendingProbabilities, const SprtConfig& cfg,
                      double startLlr = 0);
// Result models for forecast(): a game with logistic Elo `elo` and draw probability `drawRatio`
// (ascending L,D,W), and a pair of two such independent games (ascending LL..WW).
std::array<double, 3> trinomialModel(double elo, double drawRatio);
std::array<double, 5> pentanomialModel(double elo, double drawRatio);

// One line for progress output, e.g.
// "Elo 12.30 +- 4.50, nElo 20.10 +- 7.40, LOS 99.1%, LLR 2.31 (-2.94, 2.94) [0.00, 2.00]".
std::string summaryLine(const EloEstimate& e, const SprtState& s, const SprtConfig& cfg);
std::string summaryLine(const Penta& penta, const SprtConfig& cfg);
std::string summaryLine(const Wdl& wdl, const SprtConfig& cfg);
// "[LL, LD, DD+WL, WD, WW]" counts, e.g. "Ptnml(0-2): 3, 40, 120, 45, 2".
std::string formatPenta(const Penta& penta);

}  // namespace xq::stats
