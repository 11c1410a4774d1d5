#include "util/sha256.h"

#include <gtest/gtest.h>

using namespace xq;

TEST(Sha256, KnownVectors) {
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalUpdatesMatchOneShot) {
    std::string data;
    for (int i = 0; i < 1000; ++i) data += char(i * 7 + 3);
    for (std::size_t step : {1u, 3u, 63u, 64u, 65u, 200u}) {
        Sha256 h;
        for (std::size_t i = 0; i < data.size(); i += step) h.update(std::string_view(data).substr(i, step));
        EXPECT_EQ(h.finishHex(), sha256Hex(data)) << "step " << step;
    }
}

TEST(Sha256, RecognisesHexAddresses) {
    EXPECT_TRUE(isSha256Hex(sha256Hex("x")));
    EXPECT_FALSE(isSha256Hex("../etc/passwd"));
    EXPECT_FALSE(isSha256Hex(std::string(64, 'A')));
    EXPECT_FALSE(isSha256Hex(std::string(63, 'a')));
}
