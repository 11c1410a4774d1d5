#include "thread.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "xiangqi/movegen.h"

namespace xq {

ParkedThread::ParkedThread() : thread_(&ParkedThread::loop, this) {}

ParkedThread::~ParkedThread() {
    {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return !busy_; });
        exit_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void ParkedThread::run(std::function<void()> job) {
    {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return !busy_; });  // one job at a time
        job_ = std::move(job);
        busy_ = true;
    }
    wake_.notify_all();
}

void ParkedThread::waitIdle() {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return !busy_; });
}

bool ParkedThread::busy() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return busy_;
}

void ParkedThread::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return busy_ || exit_; });
        if (!busy_) return;  // told to end, with no job left
        std::function<void()> job = std::move(job_);
        job_ = nullptr;
        lock.unlock();
        job();
        job = nullptr;  // what the job holds goes before waiters are told it has ended
        lock.lock();
        busy_ = false;
        wake_.notify_all();
    }
}

ThreadPool::ThreadPool() {
    shared_.tt.resize(16);
    shared_.totalNodes = [this] { return nodesSearched(); };
    setThreads(1);
}

ThreadPool::~ThreadPool() {
    stop();
    wait();
    threads_.clear();  // before the workers and shared state their jobs use
}

void ThreadPool::setThreads(int count) {
    wait();
    count = std::max(1, count);
    workers_.clear();
    for (int i = 0; i < count; ++i) workers_.push_back(std::make_unique<search::Worker>(i, shared_));
    threads_.resize(std::size_t(count));  // ends the threads no longer needed
    for (auto& t : threads_)
        if (!t) t = std::make_unique<ParkedThread>();
}

void ThreadPool::setHash(std::size_t megabytes) {
    wait();
    shared_.tt.resize(megabytes);
}

void ThreadPool::clear() {
    wait();
    shared_.tt.clear();
    for (auto& w : workers_) w->clearHistory();
}

std::uint64_t ThreadPool::nodesSearched() const {
    std::uint64_t n = 0;
    for (const auto& w : workers_) n += w->nodes();
    return n;
}

void ThreadPool::start(const Position& pos, const SearchLimits& limits,
                       std::function<void(const search::InfoLine&)> onInfo,
                       std::function<void(const SearchResult&)> onDone) {
    wait();
    shared_.stop = false;
    shared_.rootSearched = false;
    shared_.limits = limits;
    if (!shared_.limits.startTime) shared_.limits.startTime = now();
    shared_.time.init(shared_.limits, pos.sideToMove(), moveOverhead);
    shared_.multiPV = std::max(1, multiPV);
    shared_.features = features;
    shared_.ruleSet = ruleSet;
    shared_.network = network;
    shared_.maxDepth = search::MAX_PLY - 1;
    if (skillLevel < 20) {
        // Weaker play: a shallow search over several lines, then a deliberately imperfect choice.
        shared_.multiPV = std::max(shared_.multiPV, 4);
        shared_.maxDepth = 1 + skillLevel / 2;
    }
    shared_.onInfo = std::move(onInfo);
    shared_.tt.newSearch();
    rootPos_ = pos;
    onDone_ = std::move(onDone);
    threads_[0]->run([this] { run(); });
}

void ThreadPool::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    shared_.stop = true;
    stopSignal_.notify_all();
}

void ThreadPool::wait() {
    if (!threads_.empty()) threads_[0]->waitIdle();  // empty only while the constructor runs
}

SearchResult ThreadPool::think(const Position& pos, const SearchLimits& limits,
                               std::function<void(const search::InfoLine&)> onInfo) {
    SearchResult result;
    start(pos, limits, std::move(onInfo), [&](const SearchResult& r) { result = r; });
    wait();
    return result;
}

void ThreadPool::run() {
    // Taken out, so that what the callback holds goes with this search.
    const std::function<void(const SearchResult&)> onDone = std::move(onDone_);
    onDone_ = nullptr;
    const Position& pos = rootPos_;
    MoveList legal;
    generate<LEGAL>(pos, legal);
    std::vector<Move> rootMoves(legal.begin(), legal.end());
    SearchResult result;
    if (rootMoves.empty()) {
        if (shared_.onInfo) {
            search::InfoLine line;
            line.score = search::matedIn(0);
            shared_.onInfo(line);
        }
    } else {
        for (auto& w : workers_) w->prepare(pos, rootMoves);
        for (std::size_t i = 1; i < workers_.size(); ++i)
            threads_[i]->run([w = workers_[i].get()] { w->iterativeDeepening(); });
        workers_[0]->iterativeDeepening();
    }
    // `go infinite` must not answer before `stop`, even when the search itself has ended or, with no legal
    // move, never began.
    {
        std::unique_lock<std::mutex> lock(mutex_);
        stopSignal_.wait(lock, [&] { return !shared_.limits.infinite || shared_.stop.load(); });
        shared_.stop = true;
    }
    if (!rootMoves.empty()) {
        for (std::size_t i = 1; i < threads_.size(); ++i) threads_[i]->waitIdle();
        result = pickResult();
    }
    result.nodes = nodesSearched();
    if (onDone) onDone(result);
}

SearchResult ThreadPool::pickResult() {
    // The main thread's choice, unless a helper completed a deeper iteration with a better score.
    const search::Worker* best = workers_[0].get();
    for (const auto& w : workers_) {
        if (w->rootMoves().empty() || w->completedDepth() == 0) continue;
        if (w->completedDepth() > best->completedDepth() &&
            w->rootMoves()[0].score > best->rootMoves()[0].score &&
            w->rootMoves()[0].score != -search::VALUE_INFINITE)
            best = w.get();
    }
    const auto& rms = best->rootMoves();
    SearchResult r;
    std::size_t choice = 0;
    if (skillLevel < 20 && rms.size() > 1) {
        // Pick among the top lines, giving weaker levels a larger random push towards worse moves.
        std::size_t lines = std::min<std::size_t>(rms.size(), std::size_t(shared_.multiPV));
        int top = rms[0].score, spread = std::min(top - rms[lines - 1].score, 100);
        int weakness = 120 - 2 * skillLevel;
        static std::mt19937 rng(unsigned(std::chrono::steady_clock::now().time_since_epoch().count()));
        int bestPushed = -search::VALUE_INFINITE * 2;
        for (std::size_t i = 0; i < lines; ++i) {
            if (rms[i].score == -search::VALUE_INFINITE) continue;
            int push = (weakness * (top - rms[i].score) + spread * int(rng() % unsigned(weakness))) / 128;
            if (rms[i].score + push > bestPushed) {
                bestPushed = rms[i].score + push;
                choice = i;
            }
        }
    }
    r.best = rms[choice].pv[0];
    r.ponder = rms[choice].pv.size() > 1 ? rms[choice].pv[1] : MOVE_NONE;
    r.score = rms[choice].score == -search::VALUE_INFINITE ? rms[choice].previousScore : rms[choice].score;
    r.depth = best->completedDepth();
    return r;
}

}  // namespace xq
