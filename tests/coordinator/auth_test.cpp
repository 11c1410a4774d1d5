#include "auth.h"

#include <gtest/gtest.h>

#include <set>

using namespace xq::coord;

TEST(Auth, TokensAreRandomAndLong) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        std::string t = generateToken();
        EXPECT_EQ(t.size(), 3u + 64u);
        EXPECT_TRUE(seen.insert(t).second);
    }
}

TEST(Auth, TokensAreStoredAsTheirHash) {
    std::string t = generateToken();
    EXPECT_EQ(hashToken(t), hashToken(t));
    EXPECT_NE(hashToken(t), t);
    EXPECT_EQ(hashToken(t).size(), 64u);
}

TEST(Auth, Roles) {
    EXPECT_EQ(parseRole("user"), Role::User);
    EXPECT_EQ(parseRole("worker"), Role::Worker);
    EXPECT_THROW(parseRole("admin"), std::invalid_argument);
}

TEST(RateLimiter, BurstThenRefill) {
    RateLimiter limiter(10, 3);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_TRUE(limiter.allow(1, t0));
    EXPECT_TRUE(limiter.allow(1, t0));
    EXPECT_TRUE(limiter.allow(1, t0));
    EXPECT_FALSE(limiter.allow(1, t0));
    EXPECT_TRUE(limiter.allow(2, t0));  // buckets are per key
    EXPECT_FALSE(limiter.allow(1, t0 + std::chrono::milliseconds(50)));
    EXPECT_TRUE(limiter.allow(1, t0 + std::chrono::milliseconds(150)));  // 1.5 tokens refilled
    RateLimiter unlimited(0, 0);
    for (int i = 0; i < 1000; ++i) EXPECT_TRUE(unlimited.allow(1, t0));
}
