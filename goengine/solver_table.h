// The solver's transposition table: proven bounds on the game-theoretic value of positions (-1 loss, 0
// draw, 1 win for the side to move), the move that proved them (in the canonical symmetry frame) and,
// for iterative deepening, the depth to which a position was searched without a verdict. Buckets of
// four 16-byte entries in one cache line; a new entry replaces the one with the least work behind it.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace xq::go {

struct SolverEntry {
    std::uint64_t key = 0;
    std::int8_t lo = -1, hi = 1;            // the value lies in [lo, hi]
    std::uint8_t move = kNone;              // best move, canonical frame
    std::uint8_t unknownDepth[2] = {0, 0};  // searched to this depth without a verdict, per beta (0, 1)
    std::uint8_t work = 0;                  // log2 of the nodes below, for replacement
    std::uint8_t pad[2] = {0, 0};
    static constexpr std::uint8_t kNone = 255, kPass = 254;
};
static_assert(sizeof(SolverEntry) == 16, "four entries to a cache line");

class SolverTable {
  public:
    static constexpr int kWays = 4;
    explicit SolverTable(std::size_t megabytes) {
        std::size_t bytes = megabytes << 20;
        std::size_t buckets = 1;
        while (buckets * 2 * sizeof(Bucket) <= bytes) buckets *= 2;
        mask_ = buckets - 1;
        count_ = buckets;
        // Huge pages where the kernel offers them on request: a multi-gigabyte table probed at random
        // otherwise spends much of its time in TLB misses.
        const std::size_t size = buckets * sizeof(Bucket);
        const std::size_t align = size >= (2u << 20) ? (2u << 20) : alignof(Bucket);
        void* mem = std::aligned_alloc(align, (size + align - 1) / align * align);
        if (!mem) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        madvise(mem, size, MADV_HUGEPAGE);
#endif
        buckets_.reset(std::uninitialized_value_construct_n(static_cast<Bucket*>(mem), buckets) - buckets);
    }
    // The entry of `key`, or null.
    SolverEntry* find(std::uint64_t key) {
        Bucket& b = buckets_.get()[key & mask_];
        for (auto& e : b.e)
            if (e.key == key) return &e;
        return nullptr;
    }
    // The entry of `key`, made if missing (evicting the entry with the least work).
    SolverEntry* acquire(std::uint64_t key) {
        Bucket& b = buckets_.get()[key & mask_];
        SolverEntry* victim = &b.e[0];
        for (auto& e : b.e) {
            if (e.key == key) return &e;
            if (e.work < victim->work) victim = &e;
        }
        if (victim->key == 0) ++used_;
        *victim = SolverEntry{};
        victim->key = key;
        return victim;
    }
    void prefetch(std::uint64_t key) const {
        __builtin_prefetch(&buckets_.get()[key & mask_]);
    }
    std::size_t capacity() const {
        return count_ * kWays;
    }
    std::size_t used() const {
        return used_;
    }

  private:
    struct alignas(64) Bucket {
        SolverEntry e[kWays];
    };
    struct Free {
        void operator()(Bucket* b) const { std::free(b); }
    };
    std::unique_ptr<Bucket, Free> buckets_;
    std::size_t mask_ = 0, count_ = 0, used_ = 0;
};

}  // namespace xq::go
