#include "auth.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "util/sha256.h"

namespace xq::coord {

const char* toString(Role r) {
    return r == Role::User ? "user" : r == Role::Worker ? "worker" : "approver";
}

Role parseRole(const std::string& name) {
    if (name == "user") return Role::User;
    if (name == "worker") return Role::Worker;
    if (name == "approver") return Role::Approver;
    throw std::invalid_argument("unknown role '" + name + "' (expected user, worker or approver)");
}

std::string generateToken() {
    std::random_device device;  // the kernel's entropy source on Linux
    static const char* hex = "0123456789abcdef";
    std::string token = "xq_";
    for (int i = 0; i < 8; ++i) {
        std::uint32_t word = device();
        for (int shift = 28; shift >= 0; shift -= 4) token += hex[(word >> shift) & 0xF];
    }
    return token;
}

std::string hashToken(const std::string& token) {
    return sha256Hex(token);
}

bool RateLimiter::allow(std::int64_t key, std::chrono::steady_clock::time_point now) {
    if (rate_ <= 0) return true;
    std::lock_guard lock(mutex_);
    auto [it, fresh] = buckets_.try_emplace(key, Bucket{burst_, now});
    Bucket& b = it->second;
    if (!fresh) {
        double elapsed = std::chrono::duration<double>(now - b.last).count();
        b.tokens = std::min(burst_, b.tokens + std::max(elapsed, 0.0) * rate_);
        b.last = now;
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
}

}  // namespace xq::coord
