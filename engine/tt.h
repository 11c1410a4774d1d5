// The transposition table: clusters of three entries shared by all search threads (races are tolerated:
// a torn entry only costs a wrong hint, and moves from the table are checked before use).
#pragma once

#include <cstddef>
#include <cstdint>

#include "xiangqi/types.h"

namespace xq {

enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

// Depths stored are offset so qsearch depths (0, -1) fit in a byte.
constexpr int DEPTH_ENTRY_OFFSET = -3;

struct TTEntry {
    Move move() const { return Move(move16); }
    int value() const { return value16; }
    int eval() const { return eval16; }
    int depth() const { return int(depth8) + DEPTH_ENTRY_OFFSET; }
    Bound bound() const { return Bound(genBound8 & 0x3); }
    bool isPv() const { return genBound8 & 0x4; }

    void save(std::uint64_t key, int value, bool pv, Bound b, int depth, Move m, int ev,
              std::uint8_t generation);

  private:
    friend class TranspositionTable;
    std::uint16_t key16;
    std::uint16_t move16;
    std::int16_t value16;
    std::int16_t eval16;
    std::uint8_t depth8;
    std::uint8_t genBound8;  // generation in the high 5 bits, pv flag, bound
};

class TranspositionTable {
  public:
    static constexpr int CLUSTER_SIZE = 3;

    TranspositionTable() = default;
    ~TranspositionTable();
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // Throws std::bad_alloc if the memory is not there (the old table is kept then).
    void resize(std::size_t megabytes);
    void clear();
    void newSearch() { generation8_ += 8; }
    std::uint8_t generation() const { return generation8_; }

    // The entry for key if present (found = true), else the entry to replace.
    TTEntry* probe(std::uint64_t key, bool& found) const;
    void prefetch(std::uint64_t key) const { __builtin_prefetch(clusterFor(key)); }
    int hashfull() const;  // per mille of sampled entries written in this search
    std::size_t megabytes() const { return megabytes_; }

  private:
    struct Cluster {
        TTEntry entry[CLUSTER_SIZE];
        char padding[2];
    };
    static_assert(sizeof(Cluster) == 32, "clusters must be half a cache line");

    Cluster* clusterFor(std::uint64_t key) const {
        return &table_[(unsigned __int128)key * clusterCount_ >> 64];
    }

    Cluster* table_ = nullptr;
    std::size_t clusterCount_ = 0;
    std::size_t megabytes_ = 0;
    std::uint8_t generation8_ = 0;
};

}  // namespace xq
