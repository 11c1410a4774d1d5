// Turning a user's description of a test (engine paths, settings) into a submitted test: uploads the
// engines, weights and openings as artifacts and builds the TestSpec. Shared by `xq submit` and
// `xq regress`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client.h"

namespace xq::coord {

struct EngineChoice {
    std::string path;     // executable
    std::string weights;  // optional weights file (passed as EvalFile)
    std::string net;      // optional network file (docs/nnue.md): EvalFile after the weights, Use NNUE=true
    std::string name;
    std::vector<std::string> args;
    std::vector<std::string> settings;  // `tc=10+0.1`, `nodes=1000`, `option.Hash=16`, `proto=uci`, ...
    std::uint64_t benchSignature = 0;   // `Nodes searched` of `<path> bench`; 0: not checked by workers
    // An engine given as source (prepareSources fills these from a ref): the commit's tree as tar.gz,
    // built by each worker. `path` is then unused.
    std::string ref, sourceArchive, commit, subject, author;
    std::string repository;  // the repository's URL as a test shows it (SourceBuild.repository)
    bool fromSource() const { return !sourceArchive.empty(); }
};

struct SubmissionOptions {
    EngineChoice base, dev;
    std::vector<std::string> each;  // settings for both engines, like `xq match --each`
    std::string openings;           // EPD/FEN file; empty: findDefaultOpenings()
    std::uint64_t games = 0;        // fixed games, or the SPRT's cap
    std::string sprt;               // "elo0=A,elo1=B[,alpha=..,beta=..,model=..]"; empty: fixed games
    int concurrencyPerWorker = 0;
    int priority = 0;
    double throughput = 1;
    std::string description;
    int resignScore = 0, resignMoves = 0, drawScore = 0, drawMoves = 0, drawMoveNumber = 0, maxMoves = 0;
    std::string rules = "asian";   // the rule set judging the games: asian or chinese (Xiangqi only)
    std::string game = "xiangqi";  // xiangqi, chess or capturego
    // capturego only: the board settings as `--board` reads them (games/capturego_settings.h), e.g.
    // "size=5,rules=go,komi=0.5"; empty: 9x9, capture rules, target 1.
    std::string board;
    std::string boardName = "--board";  // how an error names the board: the CLI's flag, the web form's field
    std::uint64_t referenceNps = 0;     // non-zero: clocks are for this speed; workers scale them to theirs
    // Non-empty: base.ref and dev.ref name commits of this repository (a path or a URL), which every
    // worker builds with buildCommand and runs as binaryPath (empty: this repository's engine).
    std::string repo, buildCommand, binaryPath;
    // Receivers told when the test starts, finishes or fails: "URL" or "URL,format=json|content|text".
    std::vector<std::string> webhooks;
};

// Adds `--webhook` values to a spec; throws std::invalid_argument naming a malformed one.
void addWebhooks(xq::v1::TestSpec& spec, const std::vector<std::string>& webhooks);
// For a submission from a repository: resolves both refs, reads each commit's subject and `Bench: N`
// (the signature workers check, unless one was given), and packs each commit's tree into `scratchDir`.
// Throws std::invalid_argument naming a ref git cannot resolve.
void prepareSources(SubmissionOptions& options, const std::string& scratchDir);

// Builds the spec without uploading (artifact hashes are computed locally). Throws
// std::invalid_argument naming the bad setting (or a network file that fails networkFileProblem).
xq::v1::TestSpec buildTestSpec(const SubmissionOptions& options);

// The artifacts of a test already on the coordinator, by hash (empty: none for the optional ones).
struct ArtifactHashes {
    std::string base, dev, baseWeights, devWeights, openings, baseNet, devNet;
};
// The same spec from artifacts the coordinator already holds (the web form's path): the paths in
// `options` are not read.
xq::v1::TestSpec buildTestSpec(const SubmissionOptions& options, const ArtifactHashes& hashes);
// Uploads every artifact the spec needs and submits it; returns the test id.
SubmittedTest submitTest(Client& client, const SubmissionOptions& options);

// Parses "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized" (or a preset: gainer, non-regression);
// throws std::invalid_argument naming `flag`.
xq::v1::SprtSpec parseSprt(const std::string& text, const std::string& flag = "--sprt");

// The project's opening book of a game ("xiangqi" or "chess"): $XQ_OPENINGS (Xiangqi) or
// $XQ_CHESS_OPENINGS (chess), else data/openings/xq-*.epd or chess-*.epd next to the source tree the
// binary was built from or installed with. Empty if none is found, and for capturego (its books are made
// for one board size: give one with --openings).
std::string findDefaultOpenings(const std::string& game = "xiangqi");

}  // namespace xq::coord
