// The search threads (Lazy SMP): every worker searches the same root with its own histories, sharing the
// transposition table; the main worker manages time and the result.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "search.h"

namespace xq {

struct SearchResult {
    Move best = MOVE_NONE;  // MOVE_NONE only when the side to move has no legal move
    Move ponder = MOVE_NONE;
    int score = 0;  // side to move's view, internal units
    int depth = 0;
    std::uint64_t nodes = 0;
};

class ThreadPool {
  public:
    ThreadPool();
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // These wait for a running search to end first.
    void setThreads(int count);
    void setHash(std::size_t megabytes);  // throws std::bad_alloc, keeping the old table
    void clear();                         // new game: table and histories

    int threads() const { return int(workers_.size()); }
    std::size_t hashMegabytes() const { return shared_.tt.megabytes(); }

    // Settings read at the start of each search.
    int multiPV = 1;
    int skillLevel = 20;  // 20 is full strength
    int moveOverhead = 10;
    search::Features features;

    // Starts searching pos in the background; onInfo reports progress, onDone the result (from the search
    // thread). `go infinite` waits for stop() before reporting.
    void start(const Position& pos, const SearchLimits& limits,
               std::function<void(const search::InfoLine&)> onInfo,
               std::function<void(const SearchResult&)> onDone);
    void stop();
    void wait();  // until the running search, if any, has reported
    bool searching() const { return searchThread_.joinable(); }
    std::uint64_t nodesSearched() const;

    // Searches to the end in the calling thread's time (bench, tests): start + wait.
    SearchResult think(const Position& pos, const SearchLimits& limits,
                       std::function<void(const search::InfoLine&)> onInfo = {});

  private:
    void run(Position pos, std::function<void(const SearchResult&)> onDone);
    SearchResult pickResult();

    search::SearchShared shared_;
    std::vector<std::unique_ptr<search::Worker>> workers_;
    std::thread searchThread_;
    std::mutex mutex_;
    std::condition_variable stopSignal_;
};

}  // namespace xq
