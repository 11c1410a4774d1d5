#include "datagen_kind.h"

#include <cmath>

#include "auth.h"
#include "board.h"
#include "capturego_settings.h"
#include "coordinator_options.h"
#include "data_chunk.h"
#include "errors.h"
#include "xiangqi/rules.h"

namespace xq::coord {

namespace {

constexpr std::uint32_t DefaultSliceGames = 50;
constexpr std::uint32_t DefaultMaxPlies = 400;
constexpr std::uint32_t DefaultChunkPositions = 2048;

std::string gameRange(const SliceRow& s) {
    return "games " + std::to_string(s.firstGame) + ".." + std::to_string(s.firstGame + s.games - 1);
}

}  // namespace

std::int64_t DatagenKind::create(v1::TestSpec& spec, std::vector<std::string>&) {
    auto bad = [](const std::string& m) { kindFail(ErrorCode::InvalidArgument, m); };
    const auto& options = host_.options();
    auto* d = spec.mutable_datagen();
    const auto& e = d->engine();
    host_.checkArtifact(e.binary_sha256(), "datagen.engine.binary_sha256", false);
    host_.checkArtifact(e.weights_sha256(), "datagen.engine.weights_sha256", true);
    host_.checkArtifact(e.net_sha256(), "datagen.engine.net_sha256", true);
    const bool go = d->game() == "capturego";
    if (go) {
        if (e.protocol() != "gtp")
            bad("datagen.engine.protocol must be gtp for capturego, got '" + e.protocol().substr(0, 100) +
                "'");
        if (!e.weights_sha256().empty()) bad("datagen.engine.weights_sha256: a GTP engine takes no weights");
        if (!e.net_sha256().empty()) bad("datagen.engine.net_sha256: a GTP engine takes no network");
        if (e.options_size() > 0)
            bad("datagen.engine.options: GTP engines take no options; give them as args");
        if (!d->rules().empty())
            bad("datagen.rules are Xiangqi's (asian or chinese): a capturego test's rules are its board");
        try {
            d->set_board(
                games::captureGoSettingsText(games::parseCaptureGoSettings(d->board(), "datagen.board")));
        } catch (const std::invalid_argument& ex) {
            bad(std::string(ex.what()).substr(0, 300));
        }
    } else {
        if (!e.protocol().empty() && e.protocol() != "uci")
            bad("datagen.engine.protocol must be uci (self-play data speaks UCI), got '" + e.protocol() +
                "'");
        if (!d->board().empty())
            bad("datagen.board is Capture Go's; this test's game is " +
                (d->game().empty() ? std::string("xiangqi") : d->game().substr(0, 100)));
    }
    if (e.args_size() > 64) bad("datagen.engine.args: at most 64 arguments");
    if (d->nodes() < 1 || d->nodes() > (1ull << 40)) bad("datagen.nodes must be 1 .. 2^40");
    if (d->random_plies() > 40) bad("datagen.random_plies must be 0 .. 40");
    if (!std::isfinite(d->sample_rate()) || d->sample_rate() <= 0 || d->sample_rate() > 1)
        bad("datagen.sample_rate must be in (0, 1]");
    if (d->balanced_cp() > 100'000) bad("datagen.balanced_cp must be at most 100000");
    if (d->slice_games() > 10'000) bad("datagen.slice_games must be at most 10000");
    if (d->max_plies() > 100'000) bad("datagen.max_plies must be at most 100000");
    if (!d->rules().empty() && !parseRuleSet(d->rules()))
        bad("datagen.rules must be asian or chinese, got '" + d->rules().substr(0, 100) + "'");
    if (!d->game().empty() && !games::parseGame(d->game()))
        bad("datagen.game must be " + std::string(games::gameChoices()) + ", got '" +
            d->game().substr(0, 100) + "'");
    if (d->game() == "chess" && !d->rules().empty())
        bad("datagen.rules are Xiangqi's (asian or chinese): a chess datagen test has none");
    if (d->chunk_positions() > MaxChunkPositions)
        bad("datagen.chunk_positions must be at most " + std::to_string(MaxChunkPositions));
    if (spec.has_sprt()) bad("sprt: a datagen test has no SPRT; give games");
    if (spec.games() < 1) bad("games: a datagen test needs the number of games to play");
    std::int64_t sliceGames = d->slice_games() ? d->slice_games() : DefaultSliceGames;
    if ((std::int64_t(spec.games()) + sliceGames - 1) / sliceGames > options.maxDatagenSlices)
        bad("games / datagen.slice_games gives more than " + std::to_string(options.maxDatagenSlices) +
            " slices; raise slice_games");

    // Workers get the settings spelled out, so a later change of a default never splits a test.
    if (d->slice_games() == 0) d->set_slice_games(DefaultSliceGames);
    if (d->max_plies() == 0) d->set_max_plies(DefaultMaxPlies);
    if (d->chunk_positions() == 0) d->set_chunk_positions(DefaultChunkPositions);
    auto games = std::int64_t(spec.games());
    std::int64_t slices = (games + d->slice_games() - 1) / d->slice_games();
    std::int64_t id = host_.store().insertTest(name(), spec.SerializeAsString(), slices, host_.now());
    host_.data().insertSlices(id, games, d->slice_games());
    return id;
}

std::int64_t DatagenKind::available(const TestRow& t, const v1::TestSpec&) {
    return host_.data().waitingSlices(t.id);
}

void DatagenKind::lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask, v1::JobResponse& resp) {
    auto slice = host_.data().nextWaitingSlice(test.id);
    if (!slice) {  // the scheduler saw slices waiting; nothing changed since, under the lock
        resp.set_retry_after_seconds(std::uint32_t(std::max(1, host_.options().heartbeatSeconds)));
        return;
    }
    // A datagen lease names its slice where a match lease names its first pair.
    LeaseRow lease;
    lease.testId = test.id;
    lease.workerId = ask.workerId;
    lease.firstPair = slice->slice;
    lease.pairCount = slice->games;
    lease.concurrency = std::min(ask.concurrency, slice->games);
    lease.createdMs = host_.now();
    host_.startLease(lease);
    host_.data().markLeased(test.id, slice->slice, lease.id);

    auto* job = resp.mutable_job();
    job->set_lease_id(std::uint64_t(lease.id));
    job->set_test_id(std::uint64_t(test.id));
    auto* dj = job->mutable_datagen();
    *dj->mutable_spec() = spec.datagen();
    dj->set_slice(std::uint64_t(slice->slice));
    dj->set_first_game(std::uint64_t(slice->firstGame));
    dj->set_games(std::uint32_t(slice->games));
}

std::optional<std::string> DatagenKind::completion(const TestRow& t, const v1::TestSpec&) {
    DataProgress p = host_.data().progress(t.id);
    if (p.slicesDone < p.slices) return std::nullopt;
    return std::to_string(p.positions) + " positions in " + std::to_string(p.chunks) + " chunks";
}

bool DatagenKind::leaseEnded(const LeaseRow& lease, const char* how, const std::string& error) {
    auto slice = host_.data().leasedSliceOf(lease.id);
    if (!slice) return false;
    bool failed = !error.empty();
    int discarded = host_.data().returnSlice(*slice, failed);
    std::int64_t now = host_.now();
    host_.store().addEvent(lease.testId, now,
                           "slice " + std::to_string(slice->slice) + " (" + gameRange(*slice) +
                               ") of worker " + std::to_string(lease.workerId) + ": lease " +
                               std::to_string(lease.id) + " " + how + "; " + std::to_string(discarded) +
                               " chunks discarded, the slice waits again" +
                               (failed ? " (error: " + error.substr(0, 300) + ")" : ""));
    if (failed && slice->failures + 1 >= host_.options().maxSliceFailures) {
        auto test = host_.store().findTest(lease.testId);
        if (test && test->state == TestState::Running) {
            host_.finishTest(*test, TestState::Failed,
                             "slice " + std::to_string(slice->slice) + " failed " +
                                 std::to_string(slice->failures + 1) +
                                 " times; last: " + error.substr(0, 200));
            host_.store().saveTest(*test);
        }
    }
    return true;
}

void DatagenKind::summarize(const TestRow& t, const v1::TestSpec& spec, v1::TestSummary& s) {
    DataProgress p = host_.data().progress(t.id);
    auto* d = s.mutable_datagen();
    d->set_slices(std::uint64_t(p.slices));
    d->set_slices_done(std::uint64_t(p.slicesDone));
    d->set_positions(std::uint64_t(p.positions));
    d->set_chunks(std::uint64_t(p.chunks));
    d->set_bytes(std::uint64_t(p.bytes));
    d->set_games_played(std::uint64_t(p.gamesPlayed));
    // Games of done slices, failed and unbalanced ones included: the progress towards `games`.
    s.set_games(std::uint64_t(p.gamesDone));
    s.set_games_target(spec.games());
}

std::vector<std::pair<std::string, std::string>> DatagenKind::artifacts(const v1::TestSpec& spec) const {
    std::vector<std::pair<std::string, std::string>> out;
    engineArtifacts(spec.datagen().engine(), "datagen", out);
    return out;
}

}  // namespace xq::coord
