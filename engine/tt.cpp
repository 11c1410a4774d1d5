#include "tt.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace xq {

void TTEntry::save(std::uint64_t key, int value, bool pv, Bound b, int depth, Move m, int ev,
                   std::uint8_t generation) {
    auto k = std::uint16_t(key);
    // Keep the old move when this search found none for the same position.
    if (m != MOVE_NONE || k != key16) move16 = m;
    // Overwrite unless the entry holds a deeper result for the same position from this search.
    if (b == BOUND_EXACT || k != key16 || depth - DEPTH_ENTRY_OFFSET + 2 * pv > depth8 - 4 ||
        (genBound8 & 0xF8) != generation) {
        key16 = k;
        value16 = std::int16_t(value);
        eval16 = std::int16_t(ev);
        depth8 = std::uint8_t(depth - DEPTH_ENTRY_OFFSET);
        genBound8 = std::uint8_t(generation | (pv << 2) | b);
    }
}

TranspositionTable::~TranspositionTable() {
    std::free(table_);
}

void TranspositionTable::resize(std::size_t megabytes) {
    std::size_t count = megabytes * 1024 * 1024 / sizeof(Cluster);
    if (count == 0) count = 1;
    // Aligned to 2 MB and marked for transparent huge pages: every probe is a random access, and with 4 KB
    // pages most of them also miss the TLB (a page walk per node).
    constexpr std::size_t HugePage = 2 * 1024 * 1024;
    const std::size_t bytes = (count * sizeof(Cluster) + HugePage - 1) / HugePage * HugePage;
    void* mem = std::aligned_alloc(HugePage, bytes);
    if (!mem) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    std::free(table_);
    table_ = static_cast<Cluster*>(mem);
    clusterCount_ = count;
    megabytes_ = megabytes;
    clear();
}

void TranspositionTable::clear() {
    if (table_) std::memset(static_cast<void*>(table_), 0, clusterCount_ * sizeof(Cluster));
    generation8_ = 0;
}

TTEntry* TranspositionTable::probe(std::uint64_t key, bool& found) const {
    Cluster* cluster = clusterFor(key);
    TTEntry* entries = cluster->entry;
    auto k = std::uint16_t(key);
    for (int i = 0; i < CLUSTER_SIZE; ++i) {
        if (entries[i].key16 == k && entries[i].depth8) {
            // Refresh the age so a hit survives the next searches.
            entries[i].genBound8 = std::uint8_t(generation8_ | (entries[i].genBound8 & 0x7));
            found = true;
            return &entries[i];
        }
    }
    found = false;
    // Replace the shallowest entry, counting older generations as shallower.
    TTEntry* replace = &entries[0];
    auto worth = [&](const TTEntry& e) {
        return int(e.depth8) - 2 * ((256 + generation8_ - e.genBound8) & 0xF8) / 8;
    };
    for (int i = 1; i < CLUSTER_SIZE; ++i)
        if (worth(entries[i]) < worth(*replace)) replace = &entries[i];
    return replace;
}

int TranspositionTable::hashfull() const {
    int used = 0, sample = 0;
    for (std::size_t i = 0; i < 1000 && i < clusterCount_; ++i)
        for (int j = 0; j < CLUSTER_SIZE; ++j) {
            const TTEntry& e = table_[i].entry[j];
            used += e.depth8 && (e.genBound8 & 0xF8) == generation8_;
            ++sample;
        }
    return sample ? used * 1000 / sample : 0;
}

}  // namespace xq
