// The SQL side of runs (schema version 13; run.proto): each run's spec and where it is (state, generation,
// best network, gates failed in a row), one row per generation naming its three tests and its candidate,
// the run's events, and each training test's state (its last checkpoint, its network and report, its
// leases and failures). Works on the Coordinator's connection and opens no transactions: the caller's
// transaction makes a step and the test that ends the previous one commit together.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "database.h"

namespace xq::coord {

// Running, Finished (generations done, or too many failed gates), Stopped (by a user), Failed (a step's
// test failed; resumable).
enum class RunState : int { Running = 1, Finished = 2, Stopped = 3, Failed = 4 };
const char* toString(RunState s);

struct RunRow {
    std::int64_t id = 0;
    std::string spec;  // serialized xq.v1.RunSpec
    RunState state = RunState::Running;
    std::string result, submitter;
    std::int64_t createdMs = 0, finishedMs = 0;
    std::int64_t generation = 1;  // the generation now
    std::string bestNet;          // empty: the hand-written evaluation
    std::int64_t bestGeneration = 0;
    std::int64_t failedGates = 0;  // in a row
    std::int64_t priority = 0;
};

struct GenerationRow {
    std::int64_t runId = 0, generation = 0;
    std::string parentNet;  // the best network when the generation began
    std::string step;       // "selfplay", "training", "gate" or "done"
    std::int64_t selfplayTest = 0, trainingTest = 0, gateTest = 0;
    std::string candidateNet;
    bool promoted = false;
    std::int64_t startedMs = 0, finishedMs = 0;
};

struct TrainingRow {
    std::int64_t testId = 0;
    std::string checkpoint;  // artifact; empty: none yet
    std::int64_t checkpointEpochs = 0, checkpointMs = 0;
    std::string net, report;  // the network and xq-tuner's JSON report, once uploaded
    std::int64_t leases = 0, failures = 0;
};

class RunStore {
  public:
    explicit RunStore(Database& db) : db_(db) {}

    std::int64_t insertRun(const RunRow& r);
    std::optional<RunRow> findRun(std::int64_t id);
    // Running first, then newest first.
    std::vector<RunRow> listRuns(std::int64_t limit);
    // Writes state, result, finish time, generation, best network and generation, failed gates, priority.
    void saveRun(const RunRow& r);
    std::array<std::int64_t, 5> runsByState();  // indexed by RunState

    void insertGeneration(const GenerationRow& g);
    std::optional<GenerationRow> findGeneration(std::int64_t runId, std::int64_t generation);
    std::vector<GenerationRow> generations(std::int64_t runId);  // by generation
    void saveGeneration(const GenerationRow& g);

    void addEvent(std::int64_t runId, std::int64_t nowMs, const std::string& text);
    std::vector<std::string> events(std::int64_t runId,
                                    int limit = 200);  // oldest first (the newest `limit`)

    void insertTraining(std::int64_t testId);
    std::optional<TrainingRow> findTraining(std::int64_t testId);
    void saveTraining(const TrainingRow& t);

  private:
    Database& db_;
};

}  // namespace xq::coord
