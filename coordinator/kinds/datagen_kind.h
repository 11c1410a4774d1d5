// Datagen tests: one engine plays itself to make training data; the test's games are cut into slices
// that workers lease, play and upload as chunks of positions (the TestKind of a spec's `datagen`). The
// chunk and slice RPCs themselves are Coordinator's (datagen_jobs.cpp); this is the test's lifecycle.
#pragma once

#include "test_kind.h"

namespace xq::coord {

class DatagenKind final : public TestKind {
  public:
    using TestKind::TestKind;
    const char* name() const override { return "datagen"; }
    const char* workerKind() const override { return "datagen"; }
    std::int64_t create(v1::TestSpec& spec, std::vector<std::string>& events) override;
    std::int64_t available(const TestRow& test, const v1::TestSpec& spec) override;
    void lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask, v1::JobResponse& resp) override;
    std::optional<std::string> completion(const TestRow& test, const v1::TestSpec& spec) override;
    // The slice goes back to waiting and loses the lease's chunks; a slice that failed too often stops
    // its test.
    bool leaseEnded(const LeaseRow& lease, const char* how, const std::string& error) override;
    void summarize(const TestRow& test, const v1::TestSpec& spec, v1::TestSummary& summary) override;
    std::vector<std::pair<std::string, std::string>> artifacts(const v1::TestSpec& spec) const override;
};

}  // namespace xq::coord
