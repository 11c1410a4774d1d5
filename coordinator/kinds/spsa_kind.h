// SPSA tests: one engine's options tuned by simultaneous perturbation, as fishtest tunes search
// constants (the TestKind of a spec's `spsa`; the schedules are stats/spsa.h). A lease plays pairs of the
// engine with θ + c_k Δ against θ − c_k Δ, Δ drawn for the lease; each report of them moves θ. The pairs
// are played as an ordinary match job, so every worker plays SPSA tests.
#pragma once

#include "spsa.h"
#include "spsa_store.h"
#include "test_kind.h"

namespace xq::coord {

class SpsaKind final : public TestKind {
  public:
    explicit SpsaKind(KindHost& host) : TestKind(host), spsa_(host.store().db()) {}
    const char* name() const override { return "spsa"; }
    std::int64_t create(v1::TestSpec& spec, std::vector<std::string>& events) override;
    std::int64_t available(const TestRow& test, const v1::TestSpec& spec) override;
    void lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask, v1::JobResponse& resp) override;
    bool takesPairs() const override { return true; }
    void accept(TestRow& test, const v1::TestSpec& spec, const LeaseRow& lease,
                const PairTally& tally) override;
    std::optional<std::string> completion(const TestRow& test, const v1::TestSpec& spec) override;
    void summarize(const TestRow& test, const v1::TestSpec& spec, v1::TestSummary& summary) override;
    void detail(const TestRow& test, const v1::TestSpec& spec, v1::TestView& view) override;
    std::vector<std::pair<std::string, std::string>> artifacts(const v1::TestSpec& spec) const override;

    // The schedule of a stored spec (its defaults spelled out at creation) and one parameter's axis.
    static stats::SpsaSchedule schedule(const v1::SpsaSpec& spsa, std::int64_t iterations);
    static stats::SpsaAxis axis(const v1::SpsaParam& p);
    // The signs of a lease's perturbation: one '+' or '-' per parameter, from the test and lease ids (so
    // a lease's draw is reproducible).
    static std::string flipsFor(std::int64_t testId, std::int64_t leaseId, int params);

  private:
    SpsaStore spsa_;
};

}  // namespace xq::coord
