// Tokens and request rates. A token is 32 random bytes in hex; only its SHA-256 is stored, so a copy of
// the database does not let anyone act as a user or a worker.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace xq::coord {

// An approver is a user who may also release (or reject) the tests of users waiting for approval.
enum class Role { User, Worker, Approver };
const char* toString(Role r);
// Throws std::invalid_argument for anything but "user", "worker" or "approver".
Role parseRole(const std::string& name);

std::string generateToken();
std::string hashToken(const std::string& token);

// A token bucket per key: `ratePerSecond` sustained, bursts up to `burst`. Thread-safe.
class RateLimiter {
  public:
    RateLimiter(double ratePerSecond, double burst) : rate_(ratePerSecond), burst_(burst) {}
    // False when the key has no request left right now. A rate of 0 or less means unlimited.
    bool allow(std::int64_t key,
               std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

  private:
    struct Bucket {
        double tokens;
        std::chrono::steady_clock::time_point last;
    };
    double rate_, burst_;
    std::mutex mutex_;
    std::unordered_map<std::int64_t, Bucket> buckets_;
};

}  // namespace xq::coord
