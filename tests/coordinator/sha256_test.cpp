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

// RFC 4231's test cases 1, 2, 4, 6 and 7 (a short key, a text key, a 25-byte key, and keys longer than the
// block, which are hashed first).
TEST(HmacSha256, Rfc4231Vectors) {
    EXPECT_EQ(xq::hmacSha256Hex(std::string(20, '\x0b'), "Hi There"),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    EXPECT_EQ(xq::hmacSha256Hex("Jefe", "what do ya want for nothing?"),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    std::string key4;
    for (int i = 1; i <= 25; ++i) key4 += char(i);
    EXPECT_EQ(xq::hmacSha256Hex(key4, std::string(50, '\xcd')),
              "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
    EXPECT_EQ(
        xq::hmacSha256Hex(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First"),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    EXPECT_EQ(
        xq::hmacSha256Hex(std::string(131, '\xaa'),
                          "This is a test using a larger than block-size key and a larger than block-size "
                          "data. The key needs to be hashed before being used by the HMAC algorithm."),
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}
