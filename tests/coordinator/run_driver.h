// Plays the workers' part of a run in-process, through the coordinator's worker API, so that tests can see
// a run's pages with generations without engines or training: a self-play step's slices get chunks of
// positions and are reported complete, a training step gets a real network file (from `xq-engine nnue
// random`) and a report in xq-tuner's JSON shape, and a gate gets game pairs reported until its SPRT or its
// cap ends it. The figures are the test's, not played ones.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "coordinator.h"
#include "data_chunk.h"
#include "process.h"
#include "test_util.h"
#include "util/sha256.h"

namespace xq::coord::testing {

class RunDriver {
  public:
    // Gate pairs (pentanomial indices, for gate()) of a candidate about 90 Elo stronger than the best (it
    // passes an SPRT of elo0 0, elo1 10 within 400 games), and of one as strong as the best.
    static inline const std::vector<int> Won = {3, 2, 3, 2, 4, 1, 3, 2}, Even = {2, 3, 1, 2, 2, 1, 3, 2};

    RunDriver(Coordinator& coord, const Caller& worker, std::string scratchDir)
        : coord_(coord), worker_(worker), dir_(std::move(scratchDir)) {
        v1::RegisterRequest reg;
        reg.set_name("run-driver");
        id_ = coord_.registerWorker(worker_, reg).worker_id();
    }

    // The next job of `kind` ("datagen", "training" or "" for a match), or none.
    v1::Job job(const std::string& kind) {
        v1::JobRequest jr;
        jr.set_worker_id(id_);
        jr.set_concurrency(1);
        if (!kind.empty()) jr.add_kinds(kind);
        return coord_.requestJob(worker_, jr).job();
    }

    // Every slice of the self-play test: `positions` positions each, all its games played.
    void selfplay(int positions = 30) {
        for (auto j = job("datagen"); j.has_datagen(); j = job("datagen")) {
            std::vector<tuner::LabeledPosition> labeled;
            const std::string fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
            for (int i = 0; i < positions; ++i) labeled.push_back({fen, float(i % 3) / 2});
            auto encoded = encodeChunks(labeled);
            v1::DataChunkUpload u;
            u.set_worker_id(id_);
            u.set_lease_id(j.lease_id());
            u.set_slice(j.datagen().slice());
            u.set_sequence(1);
            u.set_positions(encoded[0].positions);
            u.set_sha256(sha256Hex(encoded[0].data));
            u.set_data(encoded[0].data);
            coord_.uploadChunk(worker_, u);
            v1::CompleteSliceRequest done;
            done.set_worker_id(id_);
            done.set_lease_id(j.lease_id());
            done.set_slice(j.datagen().slice());
            done.set_chunks(1);
            done.set_positions(encoded[0].positions);
            done.set_games_played(j.datagen().games());
            coord_.completeSlice(worker_, done);
        }
    }

    // The training lease uploads a random network of 16 hidden units (seed `seed`) with a report whose
    // validation loss is `loss` (the start's `startLoss`); returns the network's hash.
    std::string train(int seed, double loss, double startLoss) {
        auto j = job("training");
        EXPECT_TRUE(j.has_training()) << "no training job";
        const std::string path = dir_ + "/net-" + std::to_string(seed) + ".nnue";
        auto made = runCommand(
            {std::string(XQ_BIN_DIR) + "/xq-engine", "nnue", "random", path, "16", std::to_string(seed)},
            dir_);
        EXPECT_EQ(made.code, 0) << made.err;
        const std::string net = readFileOrEmpty(path);
        v1::TrainingFileChunk header;
        header.set_worker_id(id_);
        header.set_lease_id(j.lease_id());
        header.set_kind("network");
        header.set_sha256(sha256Hex(net));
        header.set_total_size(net.size());
        header.set_report_json(
            "{\"seconds\": 2.5, \"start_validation_loss\": " + std::to_string(startLoss) +
            ", \"final_validation_loss_quantised\": " + std::to_string(loss) +
            ", \"loss_curve\": [{\"epoch\": 1, \"train_loss\": " + std::to_string(loss * 0.9) + "}]}");
        auto up = coord_.beginTrainingUpload(worker_, header);
        up->write(net);
        up->finish();
        coord_.trainingFileUploaded(worker_, header);
        return header.sha256();
    }

    // Game pairs until the gate ends, their pentanomial indices (0: both lost by the candidate .. 4: both
    // won) taken from `pentas` in turn.
    void gate(const std::vector<int>& pentas) {
        std::uint64_t seq = 0;
        std::size_t next = 0;
        for (auto j = job(""); j.has_match(); j = job("")) {
            v1::ReportRequest r;
            r.set_worker_id(id_);
            r.set_lease_id(j.lease_id());
            r.set_sequence(++seq);
            for (std::uint32_t i = 0; i < j.match().pair_count(); ++i) {
                const int penta = pentas[next++ % pentas.size()];
                auto* p = r.add_pairs();
                p->set_pair_index(j.match().first_pair() + i);
                p->set_penta_index(std::uint32_t(penta));
                p->set_wins(std::uint32_t(penta / 2));
                p->set_draws(std::uint32_t(penta % 2));
                p->set_losses(2 - p->wins() - p->draws());
            }
            coord_.report(worker_, r);
        }
    }

  private:
    Coordinator& coord_;
    Caller worker_;
    std::string dir_;
    std::uint64_t id_ = 0;
};

}  // namespace xq::coord::testing
