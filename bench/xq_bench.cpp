// xq-bench: speed of move generation, make/unmake, perft, evaluation, exchange evaluation and one fixed
// search. Items per second are positions, moves or nodes, whichever the benchmark names.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench.h"
#include "evaluate.h"
#include "movepick.h"
#include "nnue_accumulator.h"
#include "nnue_tool.h"
#include "thread.h"
#include "xiangqi/movegen.h"
#include "xiangqi/position.h"

namespace {

std::vector<xq::Position> benchBoards() {
    std::vector<xq::Position> boards;
    for (const auto& fen : xq::benchPositions()) boards.emplace_back(fen);
    return boards;
}

template <xq::GenType T>
void BM_Generate(benchmark::State& state) {
    auto boards = benchBoards();
    std::int64_t moves = 0;
    for (auto _ : state)
        for (const auto& pos : boards) {
            xq::MoveList list;
            xq::generate<T>(pos, list);
            moves += list.size;
            benchmark::DoNotOptimize(list.moves);
        }
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(boards.size()));
    state.counters["moves"] = double(moves) / double(state.iterations());
}
BENCHMARK(BM_Generate<xq::LEGAL>)->Name("movegen/legal");
BENCHMARK(BM_Generate<xq::PSEUDO_LEGAL>)->Name("movegen/pseudo_legal");
BENCHMARK(BM_Generate<xq::CAPTURES>)->Name("movegen/captures");

void BM_MakeUnmake(benchmark::State& state) {
    auto boards = benchBoards();
    std::vector<xq::MoveList> lists;
    for (const auto& pos : boards) lists.push_back(xq::legalMoves(pos));
    std::int64_t moves = 0;
    for (auto _ : state)
        for (std::size_t i = 0; i < boards.size(); ++i)
            for (xq::Move m : lists[i]) {
                boards[i].doMove(m);
                boards[i].undoMove();
                ++moves;
            }
    state.SetItemsProcessed(moves);
}
BENCHMARK(BM_MakeUnmake)->Name("make_unmake");

void BM_Perft(benchmark::State& state) {
    xq::Position pos;
    std::uint64_t leaves = 0;
    for (auto _ : state) leaves += xq::perft(pos, int(state.range(0)));
    state.SetItemsProcessed(std::int64_t(leaves));
}
BENCHMARK(BM_Perft)->Name("perft/startpos")->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Perft)->Name("perft/startpos")->Arg(5)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_Evaluate(benchmark::State& state) {
    auto boards = benchBoards();
    for (auto _ : state)
        for (const auto& pos : boards) benchmark::DoNotOptimize(xq::eval::evaluate(pos));
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(boards.size()));
}
BENCHMARK(BM_Evaluate)->Name("evaluate");

void BM_Trace(benchmark::State& state) {
    auto boards = benchBoards();
    for (auto _ : state)
        for (const auto& pos : boards) benchmark::DoNotOptimize(xq::eval::trace(pos));
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(boards.size()));
}
BENCHMARK(BM_Trace)->Name("evaluate/trace");

// The network (H = 256, random weights: the speed does not depend on them) on the bench positions.
const xq::nnue::Network& benchNetwork() {
    static const xq::nnue::Network net = xq::nnue::randomNetwork(256, 1);
    return net;
}

// A full refresh and the output layer, per position.
void BM_NnueRefresh(benchmark::State& state) {
    auto boards = benchBoards();
    for (auto _ : state)
        for (const auto& pos : boards) benchmark::DoNotOptimize(xq::nnue::evaluate(benchNetwork(), pos));
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(boards.size()));
}
BENCHMARK(BM_NnueRefresh)->Name("nnue/refresh");

// What the search pays per evaluated node: each legal move of each position made, the child evaluated (one
// incremental update of both perspectives and the output layer), unmade. Items are evaluations.
void BM_NnueUpdate(benchmark::State& state) {
    auto boards = benchBoards();
    std::vector<xq::MoveList> lists;
    for (const auto& pos : boards) lists.push_back(xq::legalMoves(pos));
    xq::nnue::AccumulatorStack stack;
    std::int64_t evaluations = 0;
    for (auto _ : state)
        for (std::size_t i = 0; i < boards.size(); ++i) {
            xq::Position& pos = boards[i];
            stack.reset(benchNetwork(), pos, 2);
            for (xq::Move m : lists[i]) {
                stack.push(1, pos.movedPiece(m), xq::fromSq(m), xq::toSq(m), pos.pieceOn(xq::toSq(m)));
                pos.doMove(m);
                benchmark::DoNotOptimize(stack.evaluate(pos, 1));
                pos.undoMove();
                ++evaluations;
            }
        }
    state.SetItemsProcessed(evaluations);
}
BENCHMARK(BM_NnueUpdate)->Name("nnue/update_evaluate");

void BM_See(benchmark::State& state) {
    auto boards = benchBoards();
    std::vector<std::pair<std::size_t, xq::Move>> captures;
    for (std::size_t i = 0; i < boards.size(); ++i) {
        xq::MoveList list;
        xq::generate<xq::CAPTURES>(boards[i], list);
        for (xq::Move m : list) captures.emplace_back(i, m);
    }
    for (auto _ : state)
        for (auto [i, m] : captures) benchmark::DoNotOptimize(xq::see(boards[i], m));
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(captures.size()));
}
BENCHMARK(BM_See)->Name("see");

// One fixed search: the start position to depth 10 from an empty table, one thread. Items are nodes.
void BM_Search(benchmark::State& state) {
    xq::ThreadPool pool;
    xq::Position pos;
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        state.PauseTiming();
        pool.clear();
        state.ResumeTiming();
        xq::SearchLimits limits;
        limits.depth = int(state.range(0));
        nodes += pool.think(pos, limits).nodes;
    }
    state.SetItemsProcessed(std::int64_t(nodes));
    state.counters["nodes"] = double(nodes) / double(state.iterations());
}
BENCHMARK(BM_Search)->Name("search/startpos_depth")->Arg(10)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
