#include "run_store.h"

namespace xq::coord {

namespace {

constexpr const char* RunColumns =
    "id, spec, state, result, submitter, created_ms, finished_ms, generation, best_net, best_generation, "
    "failed_gates, priority";

RunRow runOf(Statement& s) {
    RunRow r;
    r.id = s.int64(0);
    r.spec = s.blob(1);
    r.state = RunState(s.int64(2));
    r.result = s.text(3);
    r.submitter = s.text(4);
    r.createdMs = s.int64(5);
    r.finishedMs = s.int64(6);
    r.generation = s.int64(7);
    r.bestNet = s.text(8);
    r.bestGeneration = s.int64(9);
    r.failedGates = s.int64(10);
    r.priority = s.int64(11);
    return r;
}

constexpr const char* GenerationColumns =
    "run_id, generation, parent_net, step, selfplay_test, training_test, gate_test, candidate_net, promoted, "
    "started_ms, finished_ms";

GenerationRow generationOf(Statement& s) {
    GenerationRow g;
    g.runId = s.int64(0);
    g.generation = s.int64(1);
    g.parentNet = s.text(2);
    g.step = s.text(3);
    g.selfplayTest = s.int64(4);
    g.trainingTest = s.int64(5);
    g.gateTest = s.int64(6);
    g.candidateNet = s.text(7);
    g.promoted = s.int64(8) != 0;
    g.startedMs = s.int64(9);
    g.finishedMs = s.int64(10);
    return g;
}

}  // namespace

const char* toString(RunState s) {
    switch (s) {
        case RunState::Running:
            return "running";
        case RunState::Finished:
            return "finished";
        case RunState::Stopped:
            return "stopped";
        case RunState::Failed:
            return "failed";
    }
    return "unknown";
}

std::int64_t RunStore::insertRun(const RunRow& r) {
    db_.prepare(
           "INSERT INTO runs (spec, state, result, submitter, created_ms, finished_ms, generation, best_net, "
           "best_generation, failed_gates, priority) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bindBlob(1, r.spec)
        .bind(2, std::int64_t(r.state))
        .bind(3, r.result)
        .bind(4, r.submitter)
        .bind(5, r.createdMs)
        .bind(6, r.finishedMs)
        .bind(7, r.generation)
        .bind(8, r.bestNet)
        .bind(9, r.bestGeneration)
        .bind(10, r.failedGates)
        .bind(11, r.priority)
        .run();
    return db_.lastInsertId();
}

std::optional<RunRow> RunStore::findRun(std::int64_t id) {
    auto s = db_.prepare(std::string("SELECT ") + RunColumns + " FROM runs WHERE id = ?");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return runOf(s);
}

std::vector<RunRow> RunStore::listRuns(std::int64_t limit) {
    auto s = db_.prepare(std::string("SELECT ") + RunColumns +
                         " FROM runs ORDER BY CASE WHEN state = 1 THEN 0 ELSE 1 END, id DESC LIMIT ?");
    s.bind(1, limit);
    std::vector<RunRow> out;
    while (s.step()) out.push_back(runOf(s));
    return out;
}

void RunStore::saveRun(const RunRow& r) {
    db_.prepare(
           "UPDATE runs SET state = ?, result = ?, finished_ms = ?, generation = ?, best_net = ?, "
           "best_generation = ?, failed_gates = ?, priority = ? WHERE id = ?")
        .bind(1, std::int64_t(r.state))
        .bind(2, r.result)
        .bind(3, r.finishedMs)
        .bind(4, r.generation)
        .bind(5, r.bestNet)
        .bind(6, r.bestGeneration)
        .bind(7, r.failedGates)
        .bind(8, r.priority)
        .bind(9, r.id)
        .run();
}

std::array<std::int64_t, 5> RunStore::runsByState() {
    auto s = db_.prepare("SELECT state, COUNT(*) FROM runs GROUP BY state");
    std::array<std::int64_t, 5> out{};
    while (s.step())
        if (s.int64(0) >= 1 && s.int64(0) <= 4) out[std::size_t(s.int64(0))] = s.int64(1);
    return out;
}

void RunStore::insertGeneration(const GenerationRow& g) {
    db_.prepare(
           "INSERT INTO run_generations (run_id, generation, parent_net, step, selfplay_test, training_test, "
           "gate_test, candidate_net, promoted, started_ms, finished_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
           "?, "
           "?)")
        .bind(1, g.runId)
        .bind(2, g.generation)
        .bind(3, g.parentNet)
        .bind(4, g.step)
        .bind(5, g.selfplayTest)
        .bind(6, g.trainingTest)
        .bind(7, g.gateTest)
        .bind(8, g.candidateNet)
        .bind(9, std::int64_t(g.promoted))
        .bind(10, g.startedMs)
        .bind(11, g.finishedMs)
        .run();
}

std::optional<GenerationRow> RunStore::findGeneration(std::int64_t runId, std::int64_t generation) {
    auto s = db_.prepare(std::string("SELECT ") + GenerationColumns +
                         " FROM run_generations WHERE run_id = ? AND generation = ?");
    s.bind(1, runId).bind(2, generation);
    if (!s.step()) return std::nullopt;
    return generationOf(s);
}

std::vector<GenerationRow> RunStore::generations(std::int64_t runId) {
    auto s = db_.prepare(std::string("SELECT ") + GenerationColumns +
                         " FROM run_generations WHERE run_id = ? ORDER BY generation");
    s.bind(1, runId);
    std::vector<GenerationRow> out;
    while (s.step()) out.push_back(generationOf(s));
    return out;
}

void RunStore::saveGeneration(const GenerationRow& g) {
    db_.prepare(
           "UPDATE run_generations SET step = ?, selfplay_test = ?, training_test = ?, gate_test = ?, "
           "candidate_net = ?, promoted = ?, finished_ms = ? WHERE run_id = ? AND generation = ?")
        .bind(1, g.step)
        .bind(2, g.selfplayTest)
        .bind(3, g.trainingTest)
        .bind(4, g.gateTest)
        .bind(5, g.candidateNet)
        .bind(6, std::int64_t(g.promoted))
        .bind(7, g.finishedMs)
        .bind(8, g.runId)
        .bind(9, g.generation)
        .run();
}

void RunStore::addEvent(std::int64_t runId, std::int64_t nowMs, const std::string& text) {
    db_.prepare("INSERT INTO run_events (run_id, time_ms, text) VALUES (?, ?, ?)")
        .bind(1, runId)
        .bind(2, nowMs)
        .bind(3, text)
        .run();
}

std::vector<std::string> RunStore::events(std::int64_t runId, int limit) {
    auto s = db_.prepare("SELECT text FROM run_events WHERE run_id = ? ORDER BY id DESC LIMIT ?");
    s.bind(1, runId).bind(2, std::int64_t(limit));
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.text(0));
    return {out.rbegin(), out.rend()};
}

void RunStore::insertTraining(std::int64_t testId) {
    db_.prepare("INSERT INTO training_state (test_id) VALUES (?)").bind(1, testId).run();
}

std::optional<TrainingRow> RunStore::findTraining(std::int64_t testId) {
    auto s = db_.prepare(
        "SELECT test_id, checkpoint, checkpoint_epochs, checkpoint_ms, net, report, leases, failures FROM "
        "training_state WHERE test_id = ?");
    s.bind(1, testId);
    if (!s.step()) return std::nullopt;
    TrainingRow t;
    t.testId = s.int64(0);
    t.checkpoint = s.text(1);
    t.checkpointEpochs = s.int64(2);
    t.checkpointMs = s.int64(3);
    t.net = s.text(4);
    t.report = s.text(5);
    t.leases = s.int64(6);
    t.failures = s.int64(7);
    return t;
}

void RunStore::saveTraining(const TrainingRow& t) {
    db_.prepare(
           "UPDATE training_state SET checkpoint = ?, checkpoint_epochs = ?, checkpoint_ms = ?, net = ?, "
           "report = ?, leases = ?, failures = ? WHERE test_id = ?")
        .bind(1, t.checkpoint)
        .bind(2, t.checkpointEpochs)
        .bind(3, t.checkpointMs)
        .bind(4, t.net)
        .bind(5, t.report)
        .bind(6, t.leases)
        .bind(7, t.failures)
        .bind(8, t.testId)
        .run();
}

}  // namespace xq::coord
