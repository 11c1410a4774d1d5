// SHA-256: the content address of the coordinator's artifacts, the hash under which tokens are stored, and
// the name of an engine network (xq-<first 12 hex digits>.nnue, docs/nnue.md); and HMAC-SHA256, the
// signature of webhook deliveries. One implementation for all.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace xq {

class Sha256 {
  public:
    Sha256();
    void update(const void* data, std::size_t size);
    void update(std::string_view data) { update(data.data(), data.size()); }
    // The 32-byte digest; the object must not be updated afterwards.
    std::array<std::uint8_t, 32> finish();
    // Lowercase hex digest; the object must not be updated afterwards.
    std::string finishHex();

  private:
    void compress(const std::uint8_t* block);
    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t totalBytes_ = 0;
};

std::string sha256Hex(std::string_view data);
// HMAC-SHA256 (RFC 2104) of `message` under `key`, as lowercase hex: how the coordinator signs what it sends
// to a user's webhook, so that the receiver can check that it came from the coordinator unchanged.
std::string hmacSha256Hex(std::string_view key, std::string_view message);
// Hashes a file's bytes; throws std::runtime_error naming the file if it cannot be read.
std::string sha256File(const std::string& path);
// True for 64 lowercase hex digits: the only form artifact addresses take, so they are safe file names.
bool isSha256Hex(std::string_view s);

}  // namespace xq
