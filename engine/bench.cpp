#include "bench.h"

#include <ostream>

#include "thread.h"

namespace xq {

const std::vector<std::string>& benchPositions() {
    // The start, positions from self-play (move 8 to 66, half of them colour-flipped so both sides are to
    // move) and hand-set endgames.
    static const std::vector<std::string> positions = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2baka1nr/9/2n1b2c1/prNPp1p1p/9/9/P3P1c1P/1C5C1/9/1RBAKABNR b - - 8 8",
        "r1bakabR1/9/1cn4r1/p1p3p1p/4p4/9/P1P1P1P1P/2N6/9/2BAKABNR w - - 1 8",
        "2bakabnr/9/R6c1/p1p3p1p/1c2p4/6P2/P1P1P3P/1CN4C1/4N4/R1BAKAB2 b - - 0 8",
        "2baka1nr/r8/1c2b2c1/pR4p2/3np3p/2pC5/P1P1P1P1P/N6C1/9/2BAKABNR w - - 15 8",
        "r1baka2r/4n4/2n4cb/p1p1p1P1p/1c7/7C1/P1P1P3P/1C4N2/4N4/R1BAKAB1R b - - 6 8",
        "2baka2r/3rn4/4b2cn/p1p1p1p2/1c5Cp/C1P6/P3P1P1P/2N6/4N4/R1BAKAB1R w - - 15 8",
        "r1bakab1r/9/1cn6/p1p1p3p/6p2/2P6/P3P1n1P/2N2R1C1/9/2BAKABNR b - - 1 8",
        "2bakab1r/4n4/1c4nc1/p1p1p1pCp/1r7/9/P1P1P1P1P/2N6/4NR3/R1BAKAB2 w - - 4 8",
        "r1bakabnr/9/1c1n5/p1p3p1p/4N4/4c4/P1P3P1P/4C2C1/4A4/R1BAK1BNR b - - 4 8",
        "r1bakab2/9/1c2n1ncr/p1p3p1p/4pC3/6P2/P1P1P3P/4C1N2/9/RNBAKABR1 w - - 15 8",
        "2b1ka2r/4a4/2r3P1b/p1p1p3p/c8/P3C4/2c1P3P/9/4N4/1RBAKABR1 b - - 1 21",
        "3a1a3/4k4/4bNn2/p1p2Rp1p/2c6/9/P1P1P3P/4B4/1r7/2BAKA1N1 w - - 7 21",
        "2baka3/n8/4br1c1/p1r5p/4p2C1/6p2/R3P3P/9/4N1R2/2BAKAB2 b - - 8 21",
        "2bak4/r3n4/4c4/p6r1/5Rp1p/9/P1P3P1P/N3C1n1N/9/2BAKAB1R w - - 2 21",
        "2bakab2/7r1/4cNn2/p1p5p/P5p2/2P6/4P4/1C2N1C2/4A4/R1B1KAB1c b - - 5 21",
        "2bakab2/8r/6n2/p3p1r1p/2p6/9/P1P5P/3R5/8R/2BAKAB2 w - - 0 21",
        "3ak1b2/2N1ar3/4b3n/p1p3p1p/3r5/8P/P1P3P2/4C4/2c1A4/1RBAK1BR1 b - - 13 21",
        "2baka2r/9/4b1n2/pRp1p3p/6p2/3r5/P1c1P1n1P/B2C1R3/4N4/3AK1B2 w - - 0 21",
        "r1bak1b2/4a4/2n1c1n2/p1pR4p/6p2/9/PCP2NP1P/7R1/5r3/2BAKAB2 b - - 0 21",
        "2baka2r/9/9/4pnp2/pcb2r1np/cC7/4P1P1P/2N4R1/6NC1/R1BAKAB2 w - - 4 21",
        "1rbakaR2/9/4c4/p1pR5/6p2/9/P1P3P1P/Bn7/4K4/5rB2 b - - 7 36",
        "2ba5/4ak3/1c7/9/6R2/P8/2P1Pr3/4B4/4A4/2B1KA3 w - - 10 36",
        "2b1ka3/4a4/4b4/p1p2R2p/6r2/P1P5r/9/9/2R5N/2BK1AB2 b - - 5 36",
        "4k1bR1/9/6r2/9/p8/2R1p4/P1P5r/6p1c/4A4/2B1KA3 w - - 6 36",
        "2baka3/9/4b4/R8/4p3p/6B2/4P3p/9/9/2BAKA1r1 b - - 2 36",
        "2baka3/4n4/9/4p1p2/2R6/4r4/8p/4N1N2/9/2BAKA3 w - - 0 36",
        "N1Rak1b2/r3a4/4b3n/p1p3p1p/9/8P/P1P2rP2/4C4/2c1A4/2BAK1BR1 b - - 43 36",
        "4ka3/4aN3/9/4p4/2p3b2/9/2Pc1n2P/5C3/4A4/r1B1K4 w - - 4 36",
        "1Rb6/4k4/b8/2p1p4/p8/8r/9/9/4AK3/2BA5 b - - 24 51",
        "2b1ka3/9/9/9/2p2n3/8P/2p6/4B4/4A4/2B1KA3 w - - 0 51",
        "2bR5/4k4/6P2/p1p6/9/P8/9/5K3/6r2/9 b - - 0 51",
        "3ak4/4aP3/b3b4/5R3/4r4/9/9/4B4/4A4/2BAK4 w - - 2 51",
        "2bak4/4a4/9/8n/3N5/4P1P2/9/6n2/4AK3/2BA5 b - - 11 51",
        "4ka3/4a4/9/9/6b2/5C3/2Pr4c/9/9/4K4 w - - 2 51",
        "NR1a1kb2/r3a4/4b3n/p1p3p1p/9/8P/P1P2rP2/4C4/2c1A4/2BAK1BR1 b - - 73 51",
        "2ba5/5k3/5a3/9/5R3/P8/2P1P4/B8/4K4/1rB6 w - - 54 66",
        "2b1k4/4a4/9/4P3N/2b6/9/9/9/4A1p2/2B2K3 b - - 10 66",
        "2b1ka3/9/4b4/3r5/9/8R/9/4B4/4A4/2BAK4 w - - 26 66",
        "3ak4/4a4/9/3N5/9/9/5n3/9/2n1A4/2BA1K3 b - - 21 66",
        "9/4k4/9/9/9/9/P8/3R1p3/9/3Kr4 w - - 14 66",
        "5k3/9/8R/5C3/9/9/8c/9/4A4/4KAB2 b - - 22 66",
        "3ak4/4a4/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
        "4k4/4a4/9/9/4P4/9/9/4N4/9/3K5 w - - 0 1",
        "3k5/4a4/3a5/9/2P6/9/9/4C4/4A4/4KA3 w - - 0 1",
        "3ak4/9/4b4/9/9/2r6/9/4N4/4R4/4K4 w - - 0 1",
        "4k4/9/9/2p1p4/9/9/4P1P2/9/9/3K5 b - - 0 1",
        "2bak4/4a4/9/9/9/9/9/9/4r4/3K1R3 w - - 0 1",
    };
    return positions;
}

BenchResult runBench(int depth, int threads, int hashMegabytes, std::ostream* log,
                     std::shared_ptr<const nnue::Network> network) {
    ThreadPool pool;
    pool.network = std::move(network);
    pool.setThreads(threads);
    pool.setHash(std::size_t(hashMegabytes));
    BenchResult total;
    const auto& fens = benchPositions();
    // One new game for the whole run, as a GUI would start it; the table carries over between positions,
    // which keeps the count deterministic with one thread and spends the time searching, not clearing.
    pool.clear();
    TimePoint start = now();
    for (std::size_t i = 0; i < fens.size(); ++i) {
        Position pos(fens[i]);
        SearchLimits limits;
        limits.depth = depth;
        SearchResult r = pool.think(pos, limits);
        total.nodes += r.nodes;
        if (log)
            *log << "Position " << (i + 1) << "/" << fens.size() << ": " << fens[i] << "\n  bestmove "
                 << moveToString(r.best) << " score " << r.score << " nodes " << r.nodes << "\n";
    }
    total.milliseconds = now() - start;
    return total;
}

}  // namespace xq
