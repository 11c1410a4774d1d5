// The network's arithmetic on int16 rows of H values: the accumulator's updates and the output layer
// (SCReLU, then the dot product with W2), in two versions that give the same integers: portable C++
// (scalar) and AVX2 (when the build targets it, __AVX2__). Inline, so that the accumulator code that uses
// them compiles to straight loops; nnue_accumulator.h picks one.
#pragma once

#include <cstdint>

#include "nnue_network.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace xq::nnue {

enum class Backend { SCALAR, AVX2 };

constexpr bool HAS_AVX2 =
#ifdef __AVX2__
    true;
#else
    false;
#endif

// The fastest backend this build has.
constexpr Backend BEST_BACKEND = HAS_AVX2 ? Backend::AVX2 : Backend::SCALAR;

template <Backend B>
struct Kernels;

// One perspective's rows for a move's update: out = in + add - sub (- sub2 for a capture).
struct UpdateRows {
    const std::int16_t* in;
    std::int16_t* out;
    const std::int16_t *add, *sub, *sub2;
};

// n is H: a multiple of 16. Rows are 64-byte aligned (AlignedVector, and H * 2 bytes is a multiple of 32).
template <>
struct Kernels<Backend::SCALAR> {
    static void copy(std::int16_t* out, const std::int16_t* in, int n) {
        for (int i = 0; i < n; ++i) out[i] = in[i];
    }
    static void add(std::int16_t* acc, const std::int16_t* row, int n) {
        for (int i = 0; i < n; ++i) acc[i] = std::int16_t(acc[i] + row[i]);
    }
    // out = in + add - sub (a quiet move's change in one perspective)
    static void addSub(std::int16_t* out, const std::int16_t* in, const std::int16_t* a,
                       const std::int16_t* s, int n) {
        for (int i = 0; i < n; ++i) out[i] = std::int16_t(in[i] + a[i] - s[i]);
    }
    // out = in + add - sub1 - sub2 (a capture)
    static void addSubSub(std::int16_t* out, const std::int16_t* in, const std::int16_t* a,
                          const std::int16_t* s1, const std::int16_t* s2, int n) {
        for (int i = 0; i < n; ++i) out[i] = std::int16_t(in[i] + a[i] - s1[i] - s2[i]);
    }
    // sum over i of (a_i * w_i) * a_i, a_i = clamp(acc_i, 0, QA), over both halves.
    static std::int32_t output(const std::int16_t* stm, const std::int16_t* other, const std::int16_t* w2,
                               int n) {
        std::int32_t sum = 0;
        auto half = [&](const std::int16_t* acc, const std::int16_t* w) {
            for (int i = 0; i < n; ++i) {
                const int a = acc[i] < 0 ? 0 : acc[i] > QA ? QA : acc[i];
                sum += std::int16_t(a * w[i]) * a;
            }
        };
        half(stm, w2);
        half(other, w2 + n);
        return sum;
    }
    // A move's update of both perspectives and the output layer of the result in one pass: out = in + add -
    // sub (- sub2 for a capture) for the side to move's rows (us) and the other's (them); returns output().
    template <bool Capture>
    static std::int32_t updateOutput(const UpdateRows& us, const UpdateRows& them, const std::int16_t* w2,
                                     int n) {
        for (const UpdateRows* r : {&us, &them})
            if (Capture)
                addSubSub(r->out, r->in, r->add, r->sub, r->sub2, n);
            else
                addSub(r->out, r->in, r->add, r->sub, n);
        return output(us.out, them.out, w2, n);
    }
};

#ifdef __AVX2__
template <>
struct Kernels<Backend::AVX2> {
    static __m256i load(const std::int16_t* p) {
        return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
    }
    static void store(std::int16_t* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

    static void copy(std::int16_t* out, const std::int16_t* in, int n) {
        for (int i = 0; i < n; i += 16) store(out + i, load(in + i));
    }
    static void add(std::int16_t* acc, const std::int16_t* row, int n) {
        for (int i = 0; i < n; i += 16) store(acc + i, _mm256_add_epi16(load(acc + i), load(row + i)));
    }
    static void addSub(std::int16_t* out, const std::int16_t* in, const std::int16_t* a,
                       const std::int16_t* s, int n) {
        for (int i = 0; i < n; i += 16)
            store(out + i, _mm256_sub_epi16(_mm256_add_epi16(load(in + i), load(a + i)), load(s + i)));
    }
    static void addSubSub(std::int16_t* out, const std::int16_t* in, const std::int16_t* a,
                          const std::int16_t* s1, const std::int16_t* s2, int n) {
        for (int i = 0; i < n; i += 16) {
            __m256i v = _mm256_add_epi16(load(in + i), load(a + i));
            store(out + i, _mm256_sub_epi16(v, _mm256_add_epi16(load(s1 + i), load(s2 + i))));
        }
    }
    // The clamped activation times the weight fits int16 (|W2q| <= 127, a <= 255): one mullo, then madd
    // multiplies by the activation again and adds pairs into int32 lanes.
    static std::int32_t output(const std::int16_t* stm, const std::int16_t* other, const std::int16_t* w2,
                               int n) {
        const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(QA);
        __m256i sumStm = _mm256_setzero_si256(), sumOther = _mm256_setzero_si256();
        for (int i = 0; i < n; i += 16) {
            const __m256i a = _mm256_min_epi16(_mm256_max_epi16(load(stm + i), zero), qa);
            const __m256i b = _mm256_min_epi16(_mm256_max_epi16(load(other + i), zero), qa);
            sumStm = _mm256_add_epi32(sumStm, _mm256_madd_epi16(_mm256_mullo_epi16(a, load(w2 + i)), a));
            sumOther =
                _mm256_add_epi32(sumOther, _mm256_madd_epi16(_mm256_mullo_epi16(b, load(w2 + n + i)), b));
        }
        return horizontalSum(_mm256_add_epi32(sumStm, sumOther));
    }
    template <bool Capture>
    static __m256i updated(const UpdateRows& r, int i) {
        const __m256i v = _mm256_add_epi16(load(r.in + i), load(r.add + i));
        return Capture ? _mm256_sub_epi16(v, _mm256_add_epi16(load(r.sub + i), load(r.sub2 + i)))
                       : _mm256_sub_epi16(v, load(r.sub + i));
    }
    template <bool Capture>
    static std::int32_t updateOutput(const UpdateRows& us, const UpdateRows& them, const std::int16_t* w2,
                                     int n) {
        const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(QA);
        __m256i sumUs = _mm256_setzero_si256(), sumThem = _mm256_setzero_si256();
        for (int i = 0; i < n; i += 16) {
            const __m256i u = updated<Capture>(us, i), t = updated<Capture>(them, i);
            store(us.out + i, u);
            store(them.out + i, t);
            const __m256i a = _mm256_min_epi16(_mm256_max_epi16(u, zero), qa);
            const __m256i b = _mm256_min_epi16(_mm256_max_epi16(t, zero), qa);
            sumUs = _mm256_add_epi32(sumUs, _mm256_madd_epi16(_mm256_mullo_epi16(a, load(w2 + i)), a));
            sumThem =
                _mm256_add_epi32(sumThem, _mm256_madd_epi16(_mm256_mullo_epi16(b, load(w2 + n + i)), b));
        }
        return horizontalSum(_mm256_add_epi32(sumUs, sumThem));
    }
    static std::int32_t horizontalSum(__m256i v) {
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
        return _mm_cvtsi128_si32(s);
    }
};
#endif

// The output sum turned into centipawns from the side to move's view: (sum / QA + b2) * SCALE / (QA * QB),
// C++ integer division (docs/nnue.md).
inline int outputToCentipawns(const Network& net, std::int32_t sum) {
    return int((std::int64_t(sum / QA) + net.b2) * net.scale / (std::int64_t(QA) * QB));
}

}  // namespace xq::nnue
