// The search threads (Lazy SMP): every worker searches the same root with its own histories, sharing the
// transposition table; the main worker manages time and the result. The OS threads live as long as the pool
// (until setThreads) and sleep between searches: at 1000 nodes a move, creating and joining a thread per
// search was a visible share of each move.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "nnue_default.h"
#include "search.h"

namespace xq {

struct SearchResult {
    Move best = MOVE_NONE;  // MOVE_NONE only when the side to move has no legal move
    Move ponder = MOVE_NONE;
    int score = 0;  // side to move's view, internal units
    int depth = 0;
    std::uint64_t nodes = 0;
};

// One OS thread that runs the jobs handed to it, one at a time, and sleeps on a condition variable between
// them.
class ParkedThread {
  public:
    ParkedThread();
    ~ParkedThread();  // lets a running job finish, then ends the thread
    ParkedThread(const ParkedThread&) = delete;
    ParkedThread& operator=(const ParkedThread&) = delete;

    // Hands job over and returns at once (after a previous job, if any, has ended).
    void run(std::function<void()> job);
    void waitIdle();
    bool busy() const;

  private:
    void loop();

    mutable std::mutex mutex_;
    std::condition_variable wake_;  // a job or the end for the thread; the end of a job for waiters
    std::function<void()> job_;
    bool busy_ = false;
    bool exit_ = false;
    std::thread thread_;  // declared last: it starts once the members above exist
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
    RuleSet ruleSet = RuleSet::ASIAN;  // UCI option Repetition Rule
    // The network to evaluate with (UCI options EvalFile and Use NNUE); null for the hand-written evaluation.
    // The embedded default network if the build has one.
    std::shared_ptr<const nnue::Network> network = nnue::defaultNetwork();

    // Starts searching pos in the background; onInfo reports progress, onDone the result (from the search
    // thread). `go infinite` waits for stop() before reporting.
    void start(const Position& pos, const SearchLimits& limits,
               std::function<void(const search::InfoLine&)> onInfo,
               std::function<void(const SearchResult&)> onDone);
    void stop();
    void wait();  // until the running search, if any, has reported
    bool searching() const { return threads_[0]->busy(); }
    std::uint64_t nodesSearched() const;

    // Searches to the end in the calling thread's time (bench, tests): start + wait.
    SearchResult think(const Position& pos, const SearchLimits& limits,
                       std::function<void(const search::InfoLine&)> onInfo = {});

  private:
    void run();  // the whole search, on the main search thread (threads_[0])
    SearchResult pickResult();

    search::SearchShared shared_;
    std::vector<std::unique_ptr<search::Worker>> workers_;
    std::vector<std::unique_ptr<ParkedThread>> threads_;  // threads_[i] runs workers_[i]
    // The search that start() hands to the main search thread.
    Position rootPos_;
    std::function<void(const SearchResult&)> onDone_;
    std::mutex mutex_;
    std::condition_variable stopSignal_;
};

}  // namespace xq
