#include "net_file.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace xq::coord {

namespace {

constexpr char Magic[8] = {'X', 'Q', 'N', 'N', 'U', 'E', '\r', '\n'};
constexpr std::size_t HeaderBytes = 112;
constexpr std::uint32_t Inputs = 1260;

std::uint64_t readLe(const std::string& b, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | std::uint8_t(b[at + std::size_t(i)]);
    return v;
}

std::uint64_t fnv1a64(const char* p, std::size_t n) {
    std::uint64_t h = 14695981039346656037ull;
    for (std::size_t i = 0; i < n; ++i) {
        h ^= std::uint8_t(p[i]);
        h *= 1099511628211ull;
    }
    return h;
}

}  // namespace

std::string networkFileProblem(const std::string& path, NetHeader* header) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot be read";
    const std::string b{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (b.size() < 6 || std::memcmp(b.data(), Magic, 6) != 0)
        return "not a network file (it does not begin with the magic XQNNUE)";
    if (b.size() < HeaderBytes)
        return "too short for a network (" + std::to_string(b.size()) + " bytes; the header alone is 112)";
    if (std::memcmp(b.data(), Magic, 8) != 0) return "bad magic (mangled line ends?)";
    const auto u32 = [&](std::size_t at) { return std::uint32_t(readLe(b, at, 4)); };
    if (u32(8) != 1) return "unknown network version " + std::to_string(u32(8)) + " (expected 1)";
    if (u32(12) != 1) return "unknown feature set " + std::to_string(u32(12)) + " (expected 1, PS-1260)";
    if (u32(16) != Inputs) return "input count " + std::to_string(u32(16)) + " is not 1260";
    const std::uint32_t hidden = u32(20);
    if (hidden == 0 || hidden % 16 != 0 || hidden > 2048)
        return "hidden size " + std::to_string(hidden) + " is not a multiple of 16 in 16..2048";
    if (u32(24) != 1) return "output bucket count " + std::to_string(u32(24)) + " is not 1";
    const std::size_t payload = 2 * (std::size_t(Inputs) * hidden + hidden + 2 * std::size_t(hidden)) + 4;
    if (b.size() != HeaderBytes + payload)
        return "size " + std::to_string(b.size()) + " bytes is not " + std::to_string(HeaderBytes + payload) +
               " (header and payload for H = " + std::to_string(hidden) + ")";
    if (readLe(b, 40, 8) != fnv1a64(b.data() + HeaderBytes, payload))
        return "payload hash mismatch (the file is damaged)";
    if (header) {
        header->hidden = hidden;
        std::string d = b.substr(48, 64);
        header->description = d.substr(0, d.find('\0'));
    }
    return {};
}

}  // namespace xq::coord
