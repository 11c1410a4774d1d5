// Match tests: two engines play game pairs from an opening book until an SPRT decides or a number of
// games is played (the TestKind of a spec's `match`). Leasing pairs, checking engines and time controls
// are shared with SPSA tests, which are matches of one engine against itself (spsa_kind.h).
#pragma once

#include "test_kind.h"

namespace xq::coord {

class MatchKind final : public TestKind {
  public:
    using TestKind::TestKind;
    const char* name() const override { return "match"; }
    std::int64_t create(v1::TestSpec& spec, std::vector<std::string>& events) override;
    std::int64_t available(const TestRow& test, const v1::TestSpec& spec) override;
    void lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask, v1::JobResponse& resp) override;
    bool takesPairs() const override { return true; }
    void accept(TestRow& test, const v1::TestSpec& spec, const LeaseRow& lease,
                const PairTally& tally) override;
    std::optional<std::string> completion(const TestRow& test, const v1::TestSpec& spec) override;
    void summarize(const TestRow& test, const v1::TestSpec& spec, v1::TestSummary& summary) override;
    std::vector<std::pair<std::string, std::string>> artifacts(const v1::TestSpec& spec) const override;
};

// Checks a match's engines, time controls, openings, rules and limits (CoordError InvalidArgument naming
// what is wrong); returns the number of openings its book holds (0: the start position only).
std::size_t checkMatchSpec(KindHost& host, const v1::MatchSpec& match);
// The pairs a test of `games` games (0 for an SPRT: the default cap) plays: fewer when a node- or
// depth-limited match of single-threaded engines would replay its book's pairs; the event says so.
std::int64_t pairsToPlay(const KindHost& host, const v1::MatchSpec& match, std::size_t openings,
                         std::int64_t games, std::vector<std::string>& events);
// The artifacts a match names: both engines and the book.
std::vector<std::pair<std::string, std::string>> matchArtifacts(const v1::MatchSpec& match);
// Leases the next pairs of a pair test (match or SPSA) to a worker and fills a match job that plays
// `jobSpec`: the lease's row (with its id) is returned.
LeaseRow leasePairs(KindHost& host, TestRow& test, const v1::MatchSpec& jobSpec, const LeaseAsk& ask,
                    v1::JobResponse& resp);

}  // namespace xq::coord
