#include "engine_bench.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace engine_bench_test {

using xq::match::parseEngineBenchOutput;
using xq::match::runEngineBench;

TEST(EngineBench, ParsesNodesAndSpeed) {
    auto r = parseEngineBenchOutput("info x\nNodes searched: 1114397\nNodes/second: 987654\n");
    EXPECT_EQ(r.nodes, 1114397u);
    EXPECT_EQ(r.nps, 987654u);
}

TEST(EngineBench, MissingLinesGiveZero) {
    auto r = parseEngineBenchOutput("Total time (ms): 5\nnodes searched 12\n");
    EXPECT_EQ(r.nodes, 0u);
    EXPECT_EQ(r.nps, 0u);
}

TEST(EngineBench, AnEngineThatCannotRunIsAClearError) {
    try {
        runEngineBench("/nonexistent/engine");
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/engine"), std::string::npos) << e.what();
    }
}

TEST(EngineBench, AProgramWithoutBenchOutputIsRefused) {
    // /bin/true exits 0 and prints nothing: no node count is not a signature of 0.
    EXPECT_THROW(runEngineBench("/bin/true"), std::runtime_error);
    EXPECT_THROW(runEngineBench("/bin/false"), std::runtime_error);
}

TEST(EngineBench, ReadsStockfishsAlignedColons) {
    auto r = parseEngineBenchOutput(
        "Total time (ms) : 3300\nNodes searched  : 3467381\nNodes/second    : 1050721\n");
    EXPECT_EQ(r.nodes, 3467381u);
    EXPECT_EQ(r.nps, 1050721u);
    EXPECT_EQ(parseEngineBenchOutput("Nodes searched  x: 12\n").nodes, 0u);
}

TEST(EngineBench, StockfishsSignatureIsReadFromItsStderr) {
    // Debian's stockfish (scripts/install-deps.sh) prints its totals to stderr; the count is deterministic.
    const std::string stockfish = "/usr/games/stockfish";
    auto first = runEngineBench(stockfish);
    EXPECT_GT(first.nodes, 100000u);
    EXPECT_GT(first.nps, 0u);
    EXPECT_EQ(runEngineBench(stockfish).nodes, first.nodes);
}

}  // namespace engine_bench_test
