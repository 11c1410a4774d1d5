#include "data_client.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <unordered_set>

#include "artifact_check.h"
#include "board.h"
#include "capturego_settings.h"
#include "data_chunk.h"
#include "dataset.h"
#include "util/sha256.h"
#include "xiangqi/position.h"
#include "xiangqi/rules.h"

namespace xq::coord {

namespace v1 = xq::v1;

v1::TestSpec buildDatagenSpec(const DatagenSubmission& s) {
    auto bad = [](const std::string& m) { throw std::invalid_argument(m); };
    if (s.engine.empty()) bad("no engine given (--engine)");
    if (!std::filesystem::is_regular_file(s.engine)) bad("engine '" + s.engine + "' is not a file");
    if (access(s.engine.c_str(), X_OK) != 0) bad("engine '" + s.engine + "' is not executable");
    if (s.games < 1) bad("--games must be at least 1");
    const bool go = s.game == "capturego";
    if (s.nodes < 1 && !go) bad("--nodes must be at least 1");
    if (s.randomPlies < 0 || s.randomPlies > 40) bad("--random-plies must be 0..40");
    if (!(s.sampleRate > 0 && s.sampleRate <= 1)) bad("--sample-rate must be in (0, 1]");
    if (s.balancedCp < 0) bad("--balanced-cp must be >= 0");
    if (s.sliceGames < 0 || s.maxPlies < 0 || s.chunkPositions < 0)
        bad("--slice-games, --max-plies and --chunk-positions must be >= 0");
    v1::TestSpec spec;
    auto* d = spec.mutable_datagen();
    auto* e = d->mutable_engine();
    e->set_name(std::filesystem::path(s.engine).filename().string());
    e->set_binary_sha256(sha256File(s.engine));
    if (!s.weights.empty()) e->set_weights_sha256(sha256File(s.weights));
    for (const auto& a : s.args) e->add_args(a);
    for (const auto& kv : s.options) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) bad("--option wants NAME=VALUE, got '" + kv + "'");
        (*e->mutable_options())[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    d->set_nodes(go && s.nodes == 0 ? 1 : s.nodes);  // a GTP engine is not told it
    d->set_random_plies(std::uint32_t(s.randomPlies));
    d->set_sample_rate(s.sampleRate);
    d->set_balanced_cp(std::uint32_t(s.balancedCp));
    d->set_seed(s.seed);
    d->set_slice_games(std::uint32_t(s.sliceGames));
    d->set_max_plies(std::uint32_t(s.maxPlies));
    if (!parseRuleSet(s.rules))
        throw std::invalid_argument("--rules: unknown rule set '" + s.rules + "' (asian or chinese)");
    const auto game = games::parseGame(s.game);
    if (!game)
        throw std::invalid_argument("--game: unknown game '" + s.game + "' (" + games::gameChoices() + ")");
    if (*game != games::Game::CaptureGo && !s.board.empty())
        bad("--board is Capture Go's (--game capturego)");
    if (*game == games::Game::CaptureGo) {
        if (*parseRuleSet(s.rules) != RuleSet::ASIAN)
            bad("--rules: '" + s.rules + "' is a Xiangqi rule set; Capture Go's rules are given by --board");
        if (!s.options.empty()) bad("--option: GTP engines take no options; give them as --args");
        if (!s.weights.empty()) bad("--weights: a GTP engine takes no weights");
        e->set_protocol("gtp");
        d->set_game(games::gameName(*game));
        d->set_board(games::captureGoSettingsText(games::parseCaptureGoSettings(s.board, "--board")));
    } else if (*game == games::Game::Chess) {
        if (*parseRuleSet(s.rules) != RuleSet::ASIAN)
            throw std::invalid_argument("--rules: '" + s.rules +
                                        "' is a Xiangqi rule set; chess has FIDE's rules only");
        d->set_game(games::gameName(*game));
    } else {
        d->set_rules(ruleSetName(*parseRuleSet(s.rules)));
    }
    d->set_keep_mate_scores(s.keepMateScores);
    d->set_chunk_positions(std::uint32_t(s.chunkPositions));
    spec.set_games(s.games);
    spec.set_priority(s.priority);
    spec.set_throughput(s.throughput);
    spec.set_description(s.description.empty() ? "datagen " + std::to_string(s.games) + " games at " +
                                                     std::to_string(s.nodes) + " nodes"
                                               : s.description);
    return spec;
}

SubmittedTest submitDatagen(Client& client, const DatagenSubmission& s) {
    v1::SubmitRequest req;
    *req.mutable_spec() = buildDatagenSpec(s);
    client.upload(s.engine, ArtifactKindEngine);
    if (!s.weights.empty()) client.upload(s.weights, ArtifactKindWeights);
    v1::SubmitResponse resp;
    auto ctx = client.context();
    check(client.user().SubmitTest(ctx.get(), req, &resp), "submit datagen test");
    return submitted(resp);
}

v1::ListChunksResponse listDataChunks(Client& client, std::uint64_t testId) {
    auto stub = v1::DataService::NewStub(client.channel());
    v1::ListChunksRequest req;
    req.set_test_id(testId);
    v1::ListChunksResponse all;
    while (true) {
        v1::ListChunksResponse page;
        auto ctx = client.context();
        check(stub->ListChunks(ctx.get(), req, &page), "list data of test " + std::to_string(testId));
        all.set_test_id(page.test_id());
        *all.mutable_progress() = page.progress();
        for (auto& c : *page.mutable_chunks()) *all.add_chunks() = std::move(c);
        if (!page.more() || page.chunks_size() == 0) return all;
        req.set_after_id(page.chunks(page.chunks_size() - 1).id());
    }
}

std::string downloadDataChunk(Client& client, std::uint64_t testId, std::uint64_t chunkId,
                              const std::string& sha256, std::uint64_t bytes) {
    auto stub = v1::DataService::NewStub(client.channel());
    v1::DownloadChunkRequest req;
    req.set_test_id(testId);
    req.set_chunk_id(chunkId);
    auto ctx = client.context(300);
    auto reader = stub->DownloadChunk(ctx.get(), req);
    std::string data;
    v1::DataBytes piece;
    std::uint64_t expected = bytes;
    for (bool first = true; reader->Read(&piece); first = false) {
        if (first && bytes == 0) expected = std::min<std::uint64_t>(piece.total_size(), MaxChunkBytes);
        data += piece.data();
        if (data.size() > expected) break;
    }
    check(reader->Finish(), "download chunk " + std::to_string(chunkId));
    if (data.size() != expected || sha256Hex(data) != sha256)
        throw std::runtime_error("chunk " + std::to_string(chunkId) + " arrived damaged (" +
                                 std::to_string(data.size()) + " of " + std::to_string(expected) +
                                 " bytes, hash mismatch)");
    return data;
}

std::string downloadDataChunk(Client& client, std::uint64_t testId, const v1::DataChunkInfo& chunk) {
    return downloadDataChunk(client, testId, chunk.id(), chunk.sha256(), chunk.bytes());
}

ExportCounts exportTestData(Client& client, std::uint64_t testId, const std::string& outPath,
                            bool keepDuplicates) {
    v1::ListChunksResponse list = listDataChunks(client, testId);
    ExportCounts c;
    std::unordered_set<std::uint64_t> seen;
    // Written beside the destination and renamed at the end, so a failed export leaves no half file.
    std::filesystem::path dest(outPath);
    std::string partial = (dest.parent_path() / ("." + dest.filename().string() + ".partial")).string() +
                          (tuner::endsWith(outPath, ".gz") ? ".gz" : "");
    struct RemoveUnlessDone {
        std::string path;
        bool done = false;
        ~RemoveUnlessDone() {
            std::error_code ec;
            if (!done) std::filesystem::remove(path, ec);
        }
    } cleanup{partial};
    tuner::DataWriter writer(partial);
    for (const auto& chunk : list.chunks()) {
        ++c.chunks;
        c.listedPositions += std::int64_t(chunk.positions());
        std::vector<tuner::LabeledPosition> positions;
        try {
            positions = decodeChunk(downloadDataChunk(client, testId, chunk));
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error("chunk " + std::to_string(chunk.id()) + ": " + e.what());
        }
        for (const auto& p : positions) {
            if (!keepDuplicates && !seen.insert(tuner::positionKey(p.fen)).second) {
                ++c.duplicates;
                continue;
            }
            writer.write(p);
            ++c.positions;
            (p.result > 0.5f ? c.redWins : p.result < 0.5f ? c.blackWins : c.draws)++;
        }
    }
    writer.close();
    std::filesystem::rename(partial, outPath);
    cleanup.done = true;
    return c;
}

}  // namespace xq::coord
