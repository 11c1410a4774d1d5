// What a kind of test is to the coordinator: one interface (check and store a spec, say what work is
// available, lease it, take a report, say when the test is over, summarise it, name its artifacts) with one
// implementation per kind: MatchKind (match_kind.h), DatagenKind (datagen_kind.h), SpsaKind (spsa_kind.h).
// The kind of a test is taken from its spec's `kind` oneof alone. The Coordinator keeps what every kind
// shares: authentication, workers, leases and their expiry, reports' bookkeeping, and the write lock; a
// kind runs inside the caller's transaction and reaches the coordinator only through KindHost.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data_store.h"
#include "errors.h"
#include "run_store.h"
#include "sprt.h"
#include "store.h"
#include "xq/v1/coordinator.pb.h"

namespace xq::coord {

namespace v1 = ::xq::v1;
struct CoordinatorOptions;
enum class ErrorCode;

// What a kind may use of the coordinator that holds it.
class KindHost {
  public:
    virtual ~KindHost() = default;
    virtual Store& store() = 0;
    virtual DataStore& data() = 0;
    virtual RunStore& runs() = 0;
    virtual const CoordinatorOptions& options() const = 0;
    virtual std::int64_t now() const = 0;
    // Throws CoordError(InvalidArgument) "<what> must be an artifact hash" or "<what> <sha> has not been
    // uploaded", unless `sha` names a stored artifact (or is empty and `optional`).
    virtual void checkArtifact(const std::string& sha, const std::string& what, bool optional) = 0;
    virtual std::string artifactFile(const std::string& sha) = 0;
    // Inserts the lease (its id filled in) and starts its clock: in memory, or in the shared store.
    virtual void startLease(LeaseRow& lease) = 0;
    // Ends a running test with a state and a result, cancelling its active leases (saveTest is the
    // caller's).
    virtual void finishTest(TestRow& test, TestState state, const std::string& result) = 0;
};

// Throws CoordError(code, message): for kinds, which do not see Coordinator's own helpers.
[[noreturn]] void kindFail(ErrorCode code, const std::string& message);
// kindFail(InvalidArgument, message): a spec the kind refuses.
[[noreturn]] inline void bad(const std::string& message) {
    kindFail(ErrorCode::InvalidArgument, message);
}

// The worker a lease is for.
struct LeaseAsk {
    std::int64_t workerId = 0;
    std::int64_t concurrency = 1;      // games it plays at once
    std::int64_t engineNps = 0;        // its measured speed (0: unknown)
    std::int64_t trainingThreads = 1;  // what it gives a training job
};

// A report's game pairs, from the dev side (for SPSA the θ+ side), as the coordinator counted them.
struct PairTally {
    std::int64_t pairs = 0;
    std::array<std::int64_t, 5> penta{};
    std::array<std::int64_t, 3> wdl{};  // wins, draws, losses
    std::int64_t sequence = 0;          // the report's sequence number within its lease
};

class TestKind {
  public:
    explicit TestKind(KindHost& host) : host_(host) {}
    virtual ~TestKind() = default;
    TestKind(const TestKind&) = delete;
    TestKind& operator=(const TestKind&) = delete;

    // Stored with the test and shown: "match", "datagen", "spsa".
    virtual const char* name() const = 0;
    // The job kind a worker must list in JobRequest.kinds to be given this kind's work; "" for work every
    // worker plays (match jobs).
    virtual const char* workerKind() const { return ""; }

    // Checks the spec (CoordError InvalidArgument naming what is wrong), spells out its defaults and stores
    // the test in the caller's transaction; returns its id. `events` gets lines for the test's events.
    virtual std::int64_t create(v1::TestSpec& spec, std::vector<std::string>& events) = 0;
    // Units of work a worker could lease now (pairs, slices); 0 when none.
    virtual std::int64_t available(const TestRow& test, const v1::TestSpec& spec) = 0;
    // Leases work to the worker: the lease in the store and the job in `resp` (no job: nothing left).
    virtual void lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask,
                       v1::JobResponse& resp) = 0;

    // Whether the test takes game-pair reports (ReportResults); other kinds' work arrives by their RPCs.
    virtual bool takesPairs() const { return false; }
    // A report's pairs, already added to the test's counts and its lease: the kind's own state (an SPRT's
    // LLR, SPSA's parameters), in the report's transaction.
    virtual void accept(TestRow& /*test*/, const v1::TestSpec& /*spec*/, const LeaseRow& /*lease*/,
                        const PairTally& /*tally*/) {}
    // The result text when the test is over now (after a report or a finished unit of work), else empty.
    virtual std::optional<std::string> completion(const TestRow& test, const v1::TestSpec& spec) = 0;
    // A lease ended without finishing its work (expired, handed back, abandoned, cancelled; `error` is the
    // worker's reason). True when the kind recorded the event itself.
    virtual bool leaseEnded(const LeaseRow& /*lease*/, const char* /*how*/, const std::string& /*error*/) {
        return false;
    }

    // The kind's fields of a summary; the coordinator filled the common ones (counts, Elo, state).
    virtual void summarize(const TestRow& test, const v1::TestSpec& spec, v1::TestSummary& summary) = 0;
    // What a test's full view shows beyond the summary (SPSA's parameters over iterations).
    virtual void detail(const TestRow& /*test*/, const v1::TestSpec& /*spec*/, v1::TestView& /*view*/) {}
    // The artifacts the spec names, each with what it is ("dev engine binary"); empty hashes left out.
    virtual std::vector<std::pair<std::string, std::string>> artifacts(const v1::TestSpec& spec) const = 0;

  protected:
    KindHost& host_;
};

// The SPRT a test spec asks for (alpha and beta default to 0.05, the model to normalized).
stats::SprtConfig sprtConfigOf(const v1::SprtSpec& s);
// A test's pentanomial counts.
stats::Penta pentaOf(const TestRow& t);
// The artifacts of one engine: binary or source, weights and network ("<who> network").
void engineArtifacts(const v1::EngineSpec& e, const std::string& who,
                     std::vector<std::pair<std::string, std::string>>& out);

}  // namespace xq::coord
