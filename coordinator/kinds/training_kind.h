// Training tests (TrainingSpec in coordinator.proto): a network trained by one worker at a time on a run's
// data window. The test is one unit of work: available while no lease holds it and no network has arrived.
// A lease that ends without the network (expired, handed back) leaves the last checkpoint for the next
// worker, which resumes from it; `max_failures` leases handed back with an error fail the test. The
// checkpoints and the network themselves arrive by TrainingService (Coordinator::trainingFileUploaded).
#pragma once

#include <map>
#include <string>

#include "test_kind.h"

namespace xq::coord {

class TrainingKind final : public TestKind {
  public:
    using TestKind::TestKind;
    const char* name() const override { return "training"; }
    const char* workerKind() const override { return "training"; }
    std::int64_t create(v1::TestSpec& spec, std::vector<std::string>& events) override;
    std::int64_t available(const TestRow& test, const v1::TestSpec& spec) override;
    void lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask, v1::JobResponse& resp) override;
    std::optional<std::string> completion(const TestRow& test, const v1::TestSpec& spec) override;
    bool leaseEnded(const LeaseRow& lease, const char* how, const std::string& error) override;
    void summarize(const TestRow& test, const v1::TestSpec& spec, v1::TestSummary& summary) override;
    std::vector<std::pair<std::string, std::string>> artifacts(const v1::TestSpec& spec) const override;
};

// The xq-tuner nnue settings a recipe may name (without dashes), with "init" (best or scratch), which
// the run reads itself. Throws CoordError(InvalidArgument) naming an unknown setting or a value that is
// not what the setting takes, as "<what>.<name>: ...".
void checkRecipe(const google::protobuf::Map<std::string, std::string>& recipe, const std::string& what);
// The value of a numeric setting of a recipe, or `fallback` when it is not given.
double recipeNumber(const google::protobuf::Map<std::string, std::string>& recipe, const std::string& name,
                    double fallback);

}  // namespace xq::coord
