#include "util/sha256.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace xq {

namespace {

constexpr std::uint32_t RoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline std::uint32_t rotr(std::uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

}  // namespace

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {
}

void Sha256::compress(const std::uint8_t* block) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i)
        w[i] = std::uint32_t(block[4 * i]) << 24 | std::uint32_t(block[4 * i + 1]) << 16 |
               std::uint32_t(block[4 * i + 2]) << 8 | std::uint32_t(block[4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
        std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    std::uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
    for (int i = 0; i < 64; ++i) {
        std::uint32_t t1 =
            h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + RoundConstants[i] + w[i];
        std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    state_[0] += a, state_[1] += b, state_[2] += c, state_[3] += d;
    state_[4] += e, state_[5] += f, state_[6] += g, state_[7] += h;
}

void Sha256::update(const void* data, std::size_t size) {
    auto* bytes = static_cast<const std::uint8_t*>(data);
    totalBytes_ += size;
    if (buffered_) {
        std::size_t take = std::min(size, 64 - buffered_);
        std::memcpy(buffer_.data() + buffered_, bytes, take);
        buffered_ += take, bytes += take, size -= take;
        if (buffered_ < 64) return;
        compress(buffer_.data());
        buffered_ = 0;
    }
    for (; size >= 64; bytes += 64, size -= 64) compress(bytes);
    std::memcpy(buffer_.data(), bytes, size);
    buffered_ = size;
}

std::array<std::uint8_t, 32> Sha256::finish() {
    std::uint64_t bits = totalBytes_ * 8;
    std::uint8_t pad[72] = {0x80};
    std::size_t padLen = (buffered_ < 56 ? 56 : 120) - buffered_;
    for (int i = 0; i < 8; ++i) pad[padLen + i] = std::uint8_t(bits >> (56 - 8 * i));
    update(pad, padLen + 8);
    std::array<std::uint8_t, 32> digest{};
    for (std::size_t w = 0; w < 8; ++w)
        for (std::size_t b = 0; b < 4; ++b) digest[4 * w + b] = std::uint8_t(state_[w] >> (24 - 8 * b));
    return digest;
}

std::string Sha256::finishHex() {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (std::uint8_t byte : finish()) {
        out += hex[byte >> 4];
        out += hex[byte & 0xF];
    }
    return out;
}

std::string sha256Hex(std::string_view data) {
    Sha256 h;
    h.update(data);
    return h.finishHex();
}

std::string hmacSha256Hex(std::string_view key, std::string_view message) {
    constexpr std::size_t Block = 64;
    std::array<std::uint8_t, Block> padded{};
    if (key.size() > Block) {
        Sha256 h;
        h.update(key);
        auto digest = h.finish();
        std::copy(digest.begin(), digest.end(), padded.begin());
    } else {
        std::copy(key.begin(), key.end(), padded.begin());
    }
    std::array<std::uint8_t, Block> inner{}, outer{};
    for (std::size_t i = 0; i < Block; ++i) {
        inner[i] = std::uint8_t(padded[i] ^ 0x36);
        outer[i] = std::uint8_t(padded[i] ^ 0x5c);
    }
    Sha256 in;
    in.update(inner.data(), inner.size());
    in.update(message);
    auto innerDigest = in.finish();
    Sha256 out;
    out.update(outer.data(), outer.size());
    out.update(innerDigest.data(), innerDigest.size());
    return out.finishHex();
}

std::string sha256File(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read file '" + path + "'");
    Sha256 h;
    std::vector<char> buf(1 << 16);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        h.update(buf.data(), std::size_t(in.gcount()));
    }
    if (in.bad()) throw std::runtime_error("error while reading '" + path + "'");
    return h.finishHex();
}

bool isSha256Hex(std::string_view s) {
    if (s.size() != 64) return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace xq
