// xq-bench: speed of move generation, make/unmake, perft, evaluation, exchange evaluation and one fixed
// search. Items per second are positions, moves or nodes, whichever the benchmark names.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench.h"
#include "evaluate.h"
#include "movepick.h"
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
