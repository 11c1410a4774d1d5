// The user's side of datagen tests: building and submitting one (`xq submit datagen`), listing the
// chunks a coordinator stores (`xq data list`) and exporting them as one deduplicated `FEN ; result`
// file (`xq data export --test`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client.h"
#include "xq/v1/datagen.grpc.pb.h"

namespace xq::coord {

struct DatagenSubmission {
    std::string engine;                // executable, uploaded as an artifact
    std::string weights;               // optional weights file, passed as EvalFile
    std::vector<std::string> options;  // engine options NAME=VALUE
    std::vector<std::string> args;
    std::uint64_t games = 0, nodes = 0;
    int randomPlies = 8;
    double sampleRate = 0.25;
    int balancedCp = 150;
    std::uint64_t seed = 1;
    int sliceGames = 0;  // 0: the coordinator's default
    int maxPlies = 0;    // 0: the default (400)
    bool keepMateScores = false;
    int chunkPositions = 0;        // 0: the default (2048)
    std::string rules = "asian";   // asian or chinese (Xiangqi only)
    std::string game = "xiangqi";  // xiangqi, chess or capturego (a GTP engine: args, no options or weights)
    std::string board;             // capturego only: as `xq match --board` reads it; empty: 9x9, capture:1
    int priority = 0;
    double throughput = 1;
    std::string description;
};

// The spec with artifact hashes computed locally; throws std::invalid_argument naming a bad setting.
xq::v1::TestSpec buildDatagenSpec(const DatagenSubmission& s);
// Uploads the engine (and weights) and submits; returns the test id. Throws RpcError or
// std::invalid_argument.
SubmittedTest submitDatagen(Client& client, const DatagenSubmission& s);

// Every stored chunk of the test (all pages), with the progress of the last page.
xq::v1::ListChunksResponse listDataChunks(Client& client, std::uint64_t testId);
// One chunk's gzip bytes, checked against its size and hash; throws std::runtime_error otherwise.
std::string downloadDataChunk(Client& client, std::uint64_t testId, const xq::v1::DataChunkInfo& chunk);
// The same by id and hash (a training lease's window): `bytes` 0 takes the size the coordinator announces,
// up to MaxChunkBytes.
std::string downloadDataChunk(Client& client, std::uint64_t testId, std::uint64_t chunkId,
                              const std::string& sha256, std::uint64_t bytes = 0);

struct ExportCounts {
    std::int64_t chunks = 0, listedPositions = 0;  // what the coordinator lists
    std::int64_t positions = 0, duplicates = 0;    // written, and dropped as repeats
    std::int64_t redWins = 0, draws = 0, blackWins = 0;
};
// Downloads every stored chunk of the test, drops repeated positions (across slices and workers) unless
// keepDuplicates, and writes one file (gzip when it ends in .gz). Throws on a bad chunk or a failed call,
// leaving no file behind.
ExportCounts exportTestData(Client& client, std::uint64_t testId, const std::string& outPath,
                            bool keepDuplicates = false);

}  // namespace xq::coord
