#include "goengine/small_board.h"

#include <memory>
#include <mutex>
#include <stdexcept>

#include "capturego/notation.h"
#include "goengine/zobrist.h"

namespace xq::go {

const SmallGeometry& SmallGeometry::of(int n) {
    static std::unique_ptr<SmallGeometry> cache[kSmallMaxSize + 1];
    static std::mutex lock;
    if (n < 2 || n > kSmallMaxSize) throw std::invalid_argument("the solver's board takes sizes 2 to 7");
    std::lock_guard guard(lock);
    if (cache[n]) return *cache[n];
    auto g = std::make_unique<SmallGeometry>();
    g->n = n;
    g->s = n + 1;
    g->points = n * n;
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) g->mask |= bit(g->index(c, r));
    for (int t = 0; t < 8; ++t)
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) {
                int x = c, y = r;
                if (t & 4) std::swap(x, y);
                if (t & 1) x = n - 1 - x;
                if (t & 2) y = n - 1 - y;
                int from = g->index(c, r), to = g->index(x, y);
                g->sym[t][from] = std::uint8_t(to);
                g->symInv[t][to] = std::uint8_t(from);
            }
    std::uint64_t seed = 0xA7A21600ULL + std::uint64_t(n) * 1000;
    std::array<std::array<std::uint64_t, 64>, 2> base{};
    for (auto& colour : base)
        for (auto& k : colour) k = splitMix64(seed++);
    for (int t = 0; t < 8; ++t)
        for (int colour = 0; colour < 2; ++colour)
            for (int i = 0; i < 64; ++i)
                g->key[t][colour][i] = (g->mask >> i & 1) ? base[colour][g->sym[t][i]] : 0;
    g->whiteToMove = splitMix64(seed++);
    g->passPending = splitMix64(seed++);
    cache[n] = std::move(g);
    return *cache[n];
}

std::string SmallGeometry::name(int i) const {
    if (i < 0) return "pass";
    return capturego::pointName({col(i), row(i)});
}

int SmallGeometry::parse(const std::string& text) const {
    try {
        capturego::Point p = capturego::parsePoint(text, n);
        return index(p.col, p.row);
    } catch (const capturego::ParseError&) {
        return -1;
    }
}

bool SmallPos::play(const SmallGeometry& g, int i, int* capturedCount) {
    Bits b = bit(i);
    int me = toMove, op = toMove ^ 1;
    if ((occupied() & b) || !(g.mask & b)) return false;
    Bits mine = stones[me] | b;
    Bits empty = g.mask & ~(mine | stones[op]);
    Bits adj = g.neighbours(b) & stones[op];
    Bits captured = 0;
    while (adj) {
        Bits grp = g.group(adj & -adj, stones[op]);
        adj &= ~grp;
        if (!(g.neighbours(grp) & empty)) captured |= grp;
    }
    if (!captured && !(g.neighbours(g.group(b, mine)) & empty)) return false;
    addStone(g, me, i);
    if (captured) {
        removeStones(g, op, captured);
        captures[me] = std::uint8_t(captures[me] + popcount(captured));
    }
    if (capturedCount) *capturedCount = popcount(captured);
    toMove ^= 1;
    passed = 0;
    return true;
}

std::uint64_t SmallPos::key(const SmallGeometry& g, int symmetry) const {
    std::uint64_t k = hash[symmetry] ^ captureKey(captures[0], captures[1]);
    if (toMove) k ^= g.whiteToMove;
    if (passed) k ^= g.passPending;
    return k;
}

std::uint64_t SmallPos::canonicalKey(const SmallGeometry& g, bool useSymmetry, int* symmetry) const {
    int best = 0;
    if (useSymmetry)
        for (int t = 1; t < 8; ++t)
            if (hash[t] < hash[best]) best = t;
    if (symmetry) *symmetry = best;
    return key(g, best);
}

int SmallPos::area(const SmallGeometry& g, int colour) const {
    Bits mine = stones[colour], theirs = stones[colour ^ 1];
    Bits empty = g.mask & ~(mine | theirs);
    int total = popcount(mine);
    while (empty) {
        Bits region = g.group(empty & -empty, empty);
        empty &= ~region;
        Bits border = g.neighbours(region);
        if ((border & mine) && !(border & theirs)) total += popcount(region);
    }
    return total;
}

std::string SmallPos::toString(const SmallGeometry& g) const {
    std::string s;
    for (int r = g.n - 1; r >= 0; --r) {
        for (int c = 0; c < g.n; ++c) {
            Bits b = bit(g.index(c, r));
            s += (stones[0] & b) ? 'X' : (stones[1] & b) ? 'O' : '.';
        }
        s += '\n';
    }
    return s;
}

}  // namespace xq::go
