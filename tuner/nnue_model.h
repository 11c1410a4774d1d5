// The network in float, as the trainer fits it (docs/nnue.md): (1260 -> H) x 2 -> 1 with SCReLU, its
// forward pass, the loss against the training target and the gradient of that loss for one position.
//
// Loss of a position: (sigmoid(out * SCALE / K) - target)^2, with target = lambda * sigmoid(score_stm / K)
// + (1 - lambda) * result_stm (nnue_data.h); a mini-batch minimises the mean. The first layer is sparse:
// a position adds to the gradient rows of its (at most 2 x 32) active features only, and marks them.
#pragma once

#include <cstdint>
#include <new>
#include <vector>

#include "nnue_data.h"

namespace xq::tuner::nnue {

// Float arrays start on a cache line: with H a multiple of 16 every W1 row does too, so the vectorised
// loops take the same path for every row and every run. (Without it, g++'s alignment peeling made the
// result depend on where the heap put an array: two identical runs differed in the last bits.)
template <typename T>
struct CacheAligned {
    using value_type = T;
    CacheAligned() = default;
    template <typename U>
    CacheAligned(const CacheAligned<U>&) {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64)));
    }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(64)); }
    template <typename U>
    bool operator==(const CacheAligned<U>&) const {
        return true;
    }
};
using Floats = std::vector<float, CacheAligned<float>>;

constexpr double SCALE = 400;  // cp = out * SCALE
constexpr float CLIP = 1.98f;  // W1, b1 and W2 stay within +-CLIP (the quantisation's ranges)

// The most sum |W2| may be for H hidden units: the engine sums the output in int32 and refuses a network with
// QA * QA * sum |W2q| >= 2^31 (docs/nnue.md); rounding adds at most 0.5 to each of the 2H |W2q|, so
// (floor((2^31 - 1) / QA^2) - H - 1) / QB keeps the quantised sum within it (the 1: float rounding).
// 514.0 at H = 128, where +-CLIP alone keeps it (2H * CLIP = 506.9); 512.0 at H = 256, where it does not.
double outputWeightBound(int hidden);
// Clamps w2 (2H output weights) to +-CLIP and, when sum |w2| is over outputWeightBound(H), projects it onto
// that L1 ball (the nearest point: every |w| lowered by the same amount, down to 0 at most). Returns whether
// the projection changed anything beyond the clamp.
bool projectOutputWeights(Floats& w2, int hidden);

struct Model {
    int hidden = 0;
    Floats w1;  // [INPUTS][hidden], feature-major
    Floats b1;  // [hidden]
    Floats w2;  // [2 * hidden], the side to move's half first
    float b2 = 0;

    // Seeded random start: W1 normal with sd 0.5 / sqrt(32 active features), so a hidden unit starts
    // around the middle of SCReLU's range; W2 uniform within +-1 / sqrt(2H); biases 0.
    static Model initial(int hidden, std::uint64_t seed);
    std::int64_t parameterCount() const { return std::int64_t(w1.size() + b1.size() + w2.size()) + 1; }
    // Clamps W1, b1 and W2 to +-CLIP and keeps sum |W2| within outputWeightBound (projectOutputWeights).
    void clip();
};

// The hyper-parameters of the loss.
struct LossSpec {
    double lambda = 0.5;  // the score's weight in the target; 1 - lambda is the result's
    double wdlK = 400;    // K of sigmoid(cp / K)
};

// A gradient (or any per-parameter buffer) shaped like a model, with the W1 rows it touched. Each thread
// has one, in a vector: a cache line of its own, or b2's updates at every position make the threads'
// neighbouring objects share one (measured: 2 threads at half the speed of 1).
struct alignas(64) Gradient {
    Floats w1, b1, w2;
    double b2 = 0;
    std::vector<std::uint8_t> touched;  // [INPUTS]: 1 when the row may be non-zero

    void reset(int hidden);  // zeros everything
    void clearTouched();     // zeros the touched rows and the dense parts
};

// Per-thread work space of the forward and backward passes.
struct alignas(64) Scratch {
    Floats acc;  // [2H]: the side to move's accumulator, then the other's
    Floats dx;   // [2H]
    std::array<std::uint16_t, MAX_ACTIVE> stm{}, other{};
    void reset(int hidden) {
        acc.assign(std::size_t(2 * hidden), 0.f);
        dx.assign(std::size_t(2 * hidden), 0.f);
    }
};

// The network's output (cp / SCALE) for a position from the side to move's view.
float forward(const Model& m, const PackedPosition& p, Scratch& s);

// Adds weight * d loss / d parameters of position p into g and returns the position's loss.
double accumulateGradient(const Model& m, const PackedPosition& p, double target, const LossSpec& loss,
                          float weight, Scratch& s, Gradient& g);

// The mean loss over the positions data[indices[i]], on `threads` threads.
double meanLoss(const Model& m, const NnueData& data, const std::vector<std::uint32_t>& indices,
                const LossSpec& loss, int threads);

}  // namespace xq::tuner::nnue
