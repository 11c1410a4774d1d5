#include "training_kind.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "errors.h"
#include "xq/v1/coordinator.pb.h"

namespace xq::coord {

namespace {

constexpr std::uint32_t DefaultMaxFailures = 3;

struct Setting {
    const char* name;
    double lo, hi;
    bool whole;
};

// xq-tuner nnue's options a run may set, and the ranges the tuner accepts (it checks them again).
constexpr Setting Settings[] = {
    {"hidden", 16, 2048, true},
    {"epochs", 1, 100000, true},
    {"lambda", 0, 1, false},
    {"lr", 1e-9, 10, false},
    {"lr-final-ratio", 0, 1, false},
    {"wd", 0, 1, false},
    {"wdl-k", 1e-6, 1e6, false},
    {"batch", 1, 1 << 24, true},
    {"validation", 0, 0.9, false},
    {"seed", 0, 4e18, true},
    {"max-positions", 0, 4294967295.0, true},
};

std::string number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

std::optional<double> parse(const std::string& s) {
    if (s.empty() || s.size() > 40) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
    return v;
}

}  // namespace

void checkRecipe(const google::protobuf::Map<std::string, std::string>& recipe, const std::string& what) {
    for (const auto& [name, value] : recipe) {
        if (name == "init") {
            if (value != "best" && value != "scratch")
                bad(what + ".init must be best (warm start from the run's best network) or scratch, got '" +
                    value.substr(0, 50) + "'");
            continue;
        }
        const Setting* setting = nullptr;
        for (const auto& s : Settings)
            if (name == s.name) setting = &s;
        if (!setting) {
            std::string known = "init";
            for (const auto& s : Settings) known += std::string(", ") + s.name;
            bad(what + ": unknown setting '" + name.substr(0, 50) + "' (known: " + known + ")");
        }
        auto v = parse(value);
        if (!v) bad(what + "." + name + ": '" + value.substr(0, 50) + "' is not a number");
        if (*v < setting->lo || *v > setting->hi || (setting->whole && std::floor(*v) != *v))
            bad(what + "." + name + ": " + value + " is not " + (setting->whole ? "a whole number " : "") +
                "in [" + number(setting->lo) + ", " + number(setting->hi) + "]");
        if (name == "hidden" && std::int64_t(*v) % 16 != 0)
            bad(what + ".hidden: " + value + " is not a multiple of 16");
    }
}

double recipeNumber(const google::protobuf::Map<std::string, std::string>& recipe, const std::string& name,
                    double fallback) {
    auto it = recipe.find(name);
    if (it == recipe.end()) return fallback;
    return parse(it->second).value_or(fallback);
}

std::int64_t TrainingKind::create(v1::TestSpec& spec, std::vector<std::string>& events) {
    auto* t = spec.mutable_training();
    if (t->chunks_size() == 0) bad("training.chunks: no data to train on");
    checkRecipe(t->recipe(), "training.recipe");
    if (t->recipe().count("init")) bad("training.recipe.init is the run's; give init_net_sha256");
    host_.checkArtifact(t->init_net_sha256(), "training.init_net_sha256", true);
    if (t->description().size() > 63) t->mutable_description()->resize(63);
    if (t->max_failures() == 0) t->set_max_failures(DefaultMaxFailures);
    if (spec.has_sprt()) bad("sprt: a training test has no SPRT");
    std::int64_t positions = 0;
    for (const auto& c : t->chunks()) positions += std::int64_t(c.positions());
    events.push_back("trains on " + std::to_string(positions) + " positions in " +
                     std::to_string(t->chunks_size()) + " chunks");
    std::int64_t id = host_.store().insertTest(name(), spec.SerializeAsString(), 1, host_.now());
    host_.runs().insertTraining(id);
    return id;
}

std::int64_t TrainingKind::available(const TestRow& t, const v1::TestSpec&) {
    if (t.outstandingPairs > 0) return 0;  // a worker holds it
    auto row = host_.runs().findTraining(t.id);
    return row && row->net.empty() ? 1 : 0;
}

void TrainingKind::lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask,
                         v1::JobResponse& resp) {
    auto row = host_.runs().findTraining(test.id);
    if (!row || !row->net.empty()) {
        resp.set_retry_after_seconds(std::uint32_t(std::max(1, host_.options().heartbeatSeconds)));
        return;
    }
    LeaseRow lease;
    lease.testId = test.id;
    lease.workerId = ask.workerId;
    lease.firstPair = 0;
    lease.pairCount = 1;
    lease.concurrency = std::max<std::int64_t>(1, ask.trainingThreads);
    lease.createdMs = host_.now();
    host_.startLease(lease);
    ++row->leases;
    host_.runs().saveTraining(*row);
    host_.store().addEvent(
        test.id, host_.now(),
        "lease " + std::to_string(lease.id) + ": worker " + std::to_string(ask.workerId) + " trains on " +
            std::to_string(lease.concurrency) + " thread" + (lease.concurrency == 1 ? "" : "s") +
            (row->checkpoint.empty()
                 ? ""
                 : ", resuming from the checkpoint after epoch " + std::to_string(row->checkpointEpochs)));
    auto* job = resp.mutable_job();
    job->set_lease_id(std::uint64_t(lease.id));
    job->set_test_id(std::uint64_t(test.id));
    auto* tj = job->mutable_training();
    *tj->mutable_spec() = spec.training();
    tj->set_checkpoint_sha256(row->checkpoint);
    tj->set_checkpoint_epochs(std::uint32_t(row->checkpointEpochs));
}

std::optional<std::string> TrainingKind::completion(const TestRow& t, const v1::TestSpec&) {
    auto row = host_.runs().findTraining(t.id);
    if (!row || row->net.empty()) return std::nullopt;
    return "network xq-" + row->net.substr(0, 12) + ".nnue";
}

bool TrainingKind::leaseEnded(const LeaseRow& lease, const char* how, const std::string& error) {
    auto row = host_.runs().findTraining(lease.testId);
    if (!row) return false;
    const bool failed = !error.empty();
    if (failed) ++row->failures;
    host_.runs().saveTraining(*row);
    host_.store().addEvent(
        lease.testId, host_.now(),
        "training lease " + std::to_string(lease.id) + " of worker " + std::to_string(lease.workerId) + " " +
            how + (failed ? " (error: " + error.substr(0, 300) + ")" : "") +
            (row->checkpoint.empty()
                 ? "; the next worker starts afresh"
                 : "; the next worker resumes after epoch " + std::to_string(row->checkpointEpochs)));
    auto test = host_.store().findTest(lease.testId);
    if (!failed || !test || test->state != TestState::Running) return true;
    v1::TestSpec spec;
    std::uint32_t maxFailures = DefaultMaxFailures;
    if (spec.ParseFromString(test->spec) && spec.training().max_failures() > 0)
        maxFailures = spec.training().max_failures();
    if (row->failures >= std::int64_t(maxFailures)) {
        host_.finishTest(*test, TestState::Failed,
                         "training failed " + std::to_string(row->failures) + " times; last: worker " +
                             std::to_string(lease.workerId) + ": " + error.substr(0, 200));
        host_.store().saveTest(*test);
    }
    return true;
}

void TrainingKind::summarize(const TestRow& t, const v1::TestSpec& spec, v1::TestSummary& s) {
    auto row = host_.runs().findTraining(t.id);
    auto* p = s.mutable_training();
    const auto epochs = std::uint32_t(recipeNumber(spec.training().recipe(), "epochs", 4));
    p->set_epochs(epochs);
    std::uint64_t positions = 0;
    for (const auto& c : spec.training().chunks()) positions += c.positions();
    p->set_positions(positions);
    if (row) {
        p->set_epochs_done(std::uint32_t(row->net.empty() ? row->checkpointEpochs : epochs));
        p->set_checkpoint_sha256(row->checkpoint);
        p->set_net_sha256(row->net);
        p->set_report_json(row->report);
        p->set_leases(std::uint32_t(row->leases));
        p->set_failures(std::uint32_t(row->failures));
        p->set_checkpoint_unix(row->checkpointMs / 1000);
    }
    s.set_games(p->epochs_done());
    s.set_games_target(epochs);
}

std::vector<std::pair<std::string, std::string>> TrainingKind::artifacts(const v1::TestSpec& spec) const {
    std::vector<std::pair<std::string, std::string>> out;
    if (!spec.training().init_net_sha256().empty())
        out.emplace_back("training start network", spec.training().init_net_sha256());
    return out;
}

}  // namespace xq::coord
