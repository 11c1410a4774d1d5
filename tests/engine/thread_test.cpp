#include "thread.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <set>
#include <thread>

#include "test_positions.h"
#include "xiangqi/movegen.h"

using namespace xq;

namespace {

// OS threads of this process, as the kernel lists them. ThreadSanitizer starts a thread of its own at the
// first thread the process creates; one thread started and joined first makes it part of every count.
std::set<long> processThreads() {
    static const bool warmed = [] {
        std::thread([] {}).join();
        return true;
    }();
    (void)warmed;
    std::set<long> ids;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
        ids.insert(std::stol(entry.path().filename().string()));
    return ids;
}

SearchLimits depthLimit(int depth) {
    SearchLimits limits;
    limits.depth = depth;
    return limits;
}

// Waits (up to 10 s) until cond holds; false on timeout, so that a hang fails instead of blocking the run.
template <typename Cond>
bool eventually(Cond cond) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!cond()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

// The number of OS threads once it has held still for 50 ms (at most 5 s): a thread whose join has returned,
// or a detached one that has just signalled it is done (returnsInTime), can stay listed for a moment.
std::size_t settledThreadCount() {
    std::size_t count = processThreads().size();
    for (int still = 0, tries = 0; still < 5 && tries < 500; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        const std::size_t now = processThreads().size();
        still = now == count ? still + 1 : 0;
        count = now;
    }
    return count;
}

// Runs fn on a thread of its own; false if it has not returned within 10 s (the thread is then left behind,
// so that a hang fails the test instead of blocking the whole run).
template <typename Fn>
bool returnsInTime(Fn&& fn) {
    auto finished = std::make_shared<std::promise<void>>();
    std::future<void> done = finished->get_future();
    std::thread([fn = std::forward<Fn>(fn), finished]() mutable {
        fn();
        finished->set_value();
    }).detach();
    return done.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
}

}  // namespace

TEST(ThreadPool, ManySearchesOnOnePoolMatchAFreshPool) {
    const auto fens = xq::test::randomPositions(77, 8, 60);
    // What a fresh pool finds for each position.
    std::vector<SearchResult> fresh;
    for (const auto& fen : fens) {
        ThreadPool pool;
        pool.setHash(1);
        fresh.push_back(pool.think(Position(fen), depthLimit(4)));
        ASSERT_GT(fresh.back().nodes, 0u) << fen;
    }
    ThreadPool pool;
    pool.setHash(1);
    std::set<long> reportingThreads;
    for (int i = 0; i < 200; ++i) {
        const std::size_t k = std::size_t(i) % fens.size();
        Position pos(fens[k]);
        pool.clear();
        SearchResult r;
        long reporter = 0;
        pool.start(pos, depthLimit(4), {}, [&](const SearchResult& res) {
            r = res;
            reporter = long(gettid());
        });
        pool.wait();
        ASSERT_TRUE(legalMoves(pos).contains(r.best)) << fens[k] << " search " << i;
        ASSERT_EQ(r.nodes, fresh[k].nodes) << fens[k] << " search " << i;
        ASSERT_EQ(r.best, fresh[k].best) << fens[k] << " search " << i;
        reportingThreads.insert(reporter);
    }
    // Every search ran on the same parked thread, not on a new one each time, and not on the caller's.
    EXPECT_EQ(reportingThreads.size(), 1u);
    EXPECT_EQ(reportingThreads.count(long(gettid())), 0u);
    EXPECT_EQ(processThreads().count(*reportingThreads.begin()), 1u);
}

TEST(ThreadPool, SearchesWithoutClearGiveLegalMoves) {
    // A game's worth of consecutive searches, keeping table and histories, with two threads.
    ThreadPool pool;
    pool.setThreads(2);
    pool.setHash(1);
    Position pos;
    for (int ply = 0; ply < 60 && legalMoves(pos).size > 0; ++ply) {
        SearchLimits limits;
        limits.nodes = 1000;
        SearchResult r = pool.think(pos, limits);
        ASSERT_TRUE(legalMoves(pos).contains(r.best)) << pos.fen();
        pos.doMove(r.best);
    }
}

TEST(ThreadPool, OsThreadsDoNotGrowOverManySearches) {
    const std::size_t before = processThreads().size();
    {
        ThreadPool pool;
        pool.setThreads(2);
        pool.setHash(1);
        // The pool holds its threads between searches: exactly one per search thread.
        EXPECT_EQ(processThreads().size(), before + 2);
        pool.think(Position(), depthLimit(3));
        const auto afterFirst = processThreads();
        EXPECT_EQ(afterFirst.size(), before + 2);
        for (int i = 0; i < 100; ++i) {
            SearchLimits limits;
            limits.nodes = 500;
            pool.think(Position(), limits);
        }
        // The very same threads, not just as many.
        EXPECT_EQ(processThreads(), afterFirst);
    }
    EXPECT_EQ(processThreads().size(), before);
}

TEST(ThreadPool, InfiniteSearchReportsOnlyAfterStop) {
    ThreadPool pool;
    pool.setHash(1);
    std::atomic<bool> done{false};
    SearchResult result;
    SearchLimits limits;
    limits.infinite = true;
    limits.depth = 2;  // the search itself ends at once; the answer must still wait for stop
    Position pos;
    pool.start(pos, limits, {}, [&](const SearchResult& r) {
        result = r;
        done = true;
    });
    EXPECT_TRUE(pool.searching());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(done);
    EXPECT_TRUE(pool.searching());
    pool.stop();
    ASSERT_TRUE(eventually([&] { return done.load(); }));
    pool.wait();
    EXPECT_FALSE(pool.searching());
    EXPECT_TRUE(legalMoves(pos).contains(result.best));
}

TEST(ThreadPool, StartReturnsAtOnceAndStopEndsAnUnlimitedSearch) {
    ThreadPool pool;
    pool.setThreads(2);
    pool.setHash(1);
    std::atomic<bool> done{false};
    SearchLimits limits;
    limits.infinite = true;
    pool.start(Position(), limits, {}, [&](const SearchResult&) { done = true; });
    EXPECT_TRUE(pool.searching());
    ASSERT_TRUE(eventually([&] { return pool.nodesSearched() > 1000; }));
    EXPECT_FALSE(done);
    pool.stop();
    ASSERT_TRUE(eventually([&] { return done.load(); }));
    pool.wait();
    // The pool is usable again afterwards.
    SearchResult r = pool.think(Position(), depthLimit(3));
    EXPECT_TRUE(legalMoves(Position()).contains(r.best));
}

TEST(ThreadPool, SetThreadsBetweenSearches) {
    const std::size_t before = settledThreadCount();
    ThreadPool pool;
    pool.setHash(1);
    Position pos;
    for (int threads : {1, 3, 1, 3}) {
        pool.setThreads(threads);
        EXPECT_EQ(pool.threads(), threads);
        // Threads the pool just ended may linger in the kernel's list for a moment after their join.
        EXPECT_TRUE(eventually([&] { return processThreads().size() == before + std::size_t(threads); }))
            << threads << " threads wanted: " << processThreads().size() << " running, " << before
            << " before";
        SearchLimits limits;
        limits.nodes = 3000;
        SearchResult r = pool.think(pos, limits);
        EXPECT_TRUE(legalMoves(pos).contains(r.best)) << threads << " threads";
        EXPECT_GE(r.nodes, 3000u) << threads << " threads";
    }
    // Single-threaded again, the search is the deterministic one a fresh pool does.
    pool.setThreads(1);
    pool.clear();
    const SearchResult again = pool.think(pos, depthLimit(5));
    ThreadPool fresh;
    fresh.setHash(1);
    EXPECT_EQ(again.nodes, fresh.think(pos, depthLimit(5)).nodes);
}

TEST(ThreadPool, SettingsWaitForARunningSearch) {
    ThreadPool pool;
    pool.setHash(1);
    std::atomic<bool> done{false};
    SearchLimits limits;
    limits.infinite = true;
    pool.start(Position(), limits, {}, [&](const SearchResult&) { done = true; });
    // clear() waits for the search, which only ends on stop: stop it from another thread shortly.
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        pool.stop();
    });
    pool.clear();
    EXPECT_TRUE(done);  // the search had reported before clear went on
    stopper.join();
    pool.setHash(2);
    EXPECT_EQ(pool.hashMegabytes(), 2u);
}

TEST(ThreadPool, DestroyedWhileSearchingInfinitely) {
    const std::size_t before = processThreads().size();
    for (int threads : {1, 3}) {
        auto done = std::make_shared<std::atomic<bool>>(false);
        auto pool = std::make_shared<ThreadPool>();
        pool->setThreads(threads);
        pool->setHash(1);
        SearchLimits limits;
        limits.infinite = true;
        pool->start(Position(), limits, {}, [done](const SearchResult&) { *done = true; });
        ASSERT_TRUE(eventually([&] { return pool->nodesSearched() > 0; }));
        ASSERT_TRUE(returnsInTime([pool = std::move(pool)]() mutable { pool.reset(); }))
            << "destroying a searching pool hangs (" << threads << " threads)";
        // The destructor stopped the search, which reported, and ended every thread.
        EXPECT_TRUE(*done) << threads << " threads";
        EXPECT_TRUE(eventually([&] { return processThreads().size() == before; })) << threads << " threads";
    }
}
