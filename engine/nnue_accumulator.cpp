#include "nnue_accumulator.h"

#include <cassert>

#include "nnue_features.h"

#if !defined(NDEBUG) || defined(XQ_NNUE_VERIFY)
#define XQ_NNUE_CHECK_INCREMENTAL 1
#include <atomic>
#include <cstdio>
#include <cstdlib>
#else
#define XQ_NNUE_CHECK_INCREMENTAL 0
#endif

namespace xq::nnue {

namespace {

#if XQ_NNUE_CHECK_INCREMENTAL
std::atomic<std::uint64_t> checkedEvaluations{0}, checkedCaptures{0};
#endif

template <Backend B>
void refreshWith(const Network& net, const Position& pos, std::int16_t* out) {
    const int h = net.hidden;
    for (Color p : {RED, BLACK}) {
        std::int16_t* acc = out + std::size_t(p) * std::size_t(h);
        Kernels<B>::copy(acc, net.b1.data(), h);
        forEachSquare(pos.occupied(), [&](Square s) {
            Kernels<B>::add(acc, net.row(Features.index[p][pos.pieceOn(s)][s]), h);
        });
    }
}

// Calls f with the backend as a template argument (an AVX2 request in a build without AVX2 runs scalar).
template <typename F>
auto dispatch(Backend backend, F&& f) {
    if (backend == Backend::AVX2 && HAS_AVX2) return f.template operator()<BEST_BACKEND>();
    return f.template operator()<Backend::SCALAR>();
}

}  // namespace

IncrementalChecks incrementalChecks() {
#if XQ_NNUE_CHECK_INCREMENTAL
    return {checkedEvaluations.load(std::memory_order_relaxed),
            checkedCaptures.load(std::memory_order_relaxed)};
#else
    return {};
#endif
}

void refresh(const Network& net, const Position& pos, std::int16_t* out, Backend backend) {
    dispatch(backend, [&]<Backend B>() { refreshWith<B>(net, pos, out); });
}

int evaluate(const Network& net, const Position& pos, Backend backend) {
    AlignedVector<std::int16_t> acc(2 * std::size_t(net.hidden));
    refresh(net, pos, acc.data(), backend);
    const std::size_t h = std::size_t(net.hidden);
    const Color stm = pos.sideToMove();
    const std::int32_t sum = dispatch(backend, [&]<Backend B>() {
        return Kernels<B>::output(acc.data() + stm * h, acc.data() + (~stm) * h, net.w2.data(), net.hidden);
    });
    return outputToCentipawns(net, sum);
}

void AccumulatorStack::reset(const Network& net, const Position& root, int plies) {
    const std::size_t need = std::size_t(plies) * 2 * std::size_t(net.hidden);
    if (acc_.size() != need) acc_.assign(need, 0);
    dirty_.assign(std::size_t(plies), DirtyPiece{});
    computed_.assign(std::size_t(plies), false);
    net_ = &net;
    hidden_ = net.hidden;
    refresh(net, root, entry(0, RED), backend_);
    computed_[0] = true;
}

int AccumulatorStack::evaluate(const Position& pos, int ply) {
    return dispatch(backend_, [&]<Backend B>() { return evaluateWith<B>(pos, ply); });
}

// The usual case, a ply whose parent is computed, updates and evaluates in one pass.
template <Backend B>
int AccumulatorStack::evaluateWith(const Position& pos, int ply) {
    const Color stm = pos.sideToMove();
    std::int32_t sum;
    if (!computed_[std::size_t(ply)] && computed_[std::size_t(ply - 1)] &&
        dirty_[std::size_t(ply)].moved != NO_PIECE) {
        const UpdateRows us = rowsOf(ply, stm), them = rowsOf(ply, ~stm);
        sum = us.sub2 ? Kernels<B>::template updateOutput<true>(us, them, net_->w2.data(), hidden_)
                      : Kernels<B>::template updateOutput<false>(us, them, net_->w2.data(), hidden_);
        computed_[std::size_t(ply)] = true;
    } else {
        if (!computed_[std::size_t(ply)]) computeWith<B>(pos, ply);
        sum = Kernels<B>::output(entry(ply, stm), entry(ply, ~stm), net_->w2.data(), hidden_);
    }
#if XQ_NNUE_CHECK_INCREMENTAL
    checkAgainstRefresh(pos, ply, sum);
#endif
    return outputToCentipawns(*net_, sum);
}

#if XQ_NNUE_CHECK_INCREMENTAL
// The scalar refresh, independent of the SIMD update kernels, against what the stack holds and summed.
void AccumulatorStack::checkAgainstRefresh(const Position& pos, int ply, std::int32_t sum) {
    const std::size_t h = std::size_t(hidden_);
    AlignedVector<std::int16_t> fresh(2 * h);
    refreshWith<Backend::SCALAR>(*net_, pos, fresh.data());
    const DirtyPiece& d = dirty_[std::size_t(ply)];
    auto fail = [&](const std::string& what) {
        std::fprintf(stderr,
                     "NNUE check failed: the incremental evaluation differs from a full refresh at ply %d of "
                     "position %s (the move to it: piece %d from %d to %d, captured %d): %s\n",
                     ply, pos.fen().c_str(), int(d.moved), int(d.from), int(d.to), int(d.captured),
                     what.c_str());
        std::abort();
    };
    for (Color p : {RED, BLACK}) {
        const std::int16_t* held = entry(ply, p);
        for (std::size_t i = 0; i < h; ++i)
            if (held[i] != fresh[std::size_t(p) * h + i])
                fail(std::string(p == RED ? "Red's" : "Black's") + " accumulator, hidden unit " +
                     std::to_string(i) + ", is " + std::to_string(held[i]) + ", refreshed " +
                     std::to_string(fresh[std::size_t(p) * h + i]));
    }
    const Color stm = pos.sideToMove();
    const std::int32_t expected =
        Kernels<Backend::SCALAR>::output(&fresh[stm * h], &fresh[(~stm) * h], net_->w2.data(), hidden_);
    if (sum != expected)
        fail("the output sum is " + std::to_string(sum) + ", refreshed " + std::to_string(expected));
    checkedEvaluations.fetch_add(1, std::memory_order_relaxed);
    if (ply > 0 && d.captured != NO_PIECE) checkedCaptures.fetch_add(1, std::memory_order_relaxed);
}
#endif

void AccumulatorStack::compute(const Position& pos, int ply) {
    dispatch(backend_, [&]<Backend B>() { computeWith<B>(pos, ply); });
}

template <Backend B>
void AccumulatorStack::computeWith(const Position& pos, int ply) {
    int from = ply - 1;
    while (from > 0 && !computed_[std::size_t(from)] && ply - from <= MAX_UPDATE_DISTANCE) --from;
    if (!computed_[std::size_t(from)]) {
        refreshWith<B>(*net_, pos, entry(ply, RED));
    } else {
        for (int p = from + 1; p <= ply; ++p) updateFrom<B>(p);
    }
    computed_[std::size_t(ply)] = true;
}

// The accumulator at ply from the one at ply - 1 and the move between them.
template <Backend B>
void AccumulatorStack::updateFrom(int ply) {
    const DirtyPiece& d = dirty_[std::size_t(ply)];
    const int h = hidden_;
    for (Color p : {RED, BLACK}) {
        if (d.moved == NO_PIECE) {
            Kernels<B>::copy(entry(ply, p), entry(ply - 1, p), h);
            continue;
        }
        const UpdateRows r = rowsOf(ply, p);
        if (r.sub2)
            Kernels<B>::addSubSub(r.out, r.in, r.add, r.sub, r.sub2, h);
        else
            Kernels<B>::addSub(r.out, r.in, r.add, r.sub, h);
    }
    computed_[std::size_t(ply)] = true;
}

}  // namespace xq::nnue
