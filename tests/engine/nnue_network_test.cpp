// The network file (docs/nnue.md): what is written reads back, and every malformed file is refused with
// the reason.
#include "nnue_network.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "nnue_default.h"
#include "nnue_test_util.h"
#include "nnue_tool.h"
#include "util/sha256.h"

using namespace xq;
using namespace xq::nnue;

namespace {

// The error parseNetwork gives for bytes, or "" if it accepts them.
std::string refusal(std::string_view bytes) {
    try {
        parseNetwork(bytes);
    } catch (const NetworkError& e) {
        return e.what();
    }
    return "";
}

std::string validBytes(int hidden = 32) {
    Network net = randomNetwork(hidden, 7);
    return serializeNetwork(net);
}

template <typename T>
void poke(std::string& bytes, std::size_t offset, T value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

// Recomputes the header's hash after the file was changed on purpose.
void rehash(std::string& bytes) {
    std::uint32_t version;
    std::memcpy(&version, bytes.data() + 8, 4);
    poke(bytes, 40, fileHash(bytes, version));
}

// The same network as a version-1 file (the hash covers the payload only), as the trainer wrote before.
std::string asVersion1(std::string bytes) {
    poke(bytes, 8, std::uint32_t(1));
    poke(bytes, 40, fnv1a64(std::string_view(bytes).substr(HEADER_BYTES)));
    return bytes;
}

#define EXPECT_REFUSED(bytes, text) \
    EXPECT_NE(refusal(bytes).find(text), std::string::npos) << "refusal: '" << refusal(bytes) << "'"

}  // namespace

TEST(NnueFile, Sha256MatchesTheStandardVectors) {
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(NnueFile, Fnv1a64MatchesTheStandardVectors) {
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(NnueFile, WrittenNetworkReadsBackIdentically) {
    Network net = randomNetwork(48, 3);
    net.description = "test: 3 epochs of nothing";
    net.scale = 361;
    const std::string bytes = serializeNetwork(net);
    ASSERT_EQ(bytes.size(), HEADER_BYTES + payloadBytes(48));
    const Network back = parseNetwork(bytes);
    EXPECT_EQ(back.hidden, 48);
    EXPECT_EQ(back.scale, 361);
    EXPECT_EQ(back.description, net.description);
    EXPECT_EQ(back.w1, net.w1);
    EXPECT_EQ(back.b1, net.b1);
    EXPECT_EQ(back.w2, net.w2);
    EXPECT_EQ(back.b2, net.b2);
    EXPECT_EQ(back.hash, net.hash);
    EXPECT_EQ(back.version, FILE_VERSION);
    // Version 2: FNV-1a 64 of every byte but the hash's own 8.
    EXPECT_EQ(back.hash,
              fnv1a64(std::string_view(bytes).substr(48), fnv1a64(std::string_view(bytes).substr(0, 40))));
    EXPECT_EQ(back.name, "xq-" + sha256Hex(bytes).substr(0, 12) + ".nnue");
    EXPECT_EQ(back.name, net.name);
}

TEST(NnueFile, HeaderFieldsSitWhereTheContractSays) {
    Network net = randomNetwork(64, 5);
    net.description = "desc";
    const std::string b = serializeNetwork(net);
    EXPECT_EQ(b.substr(0, 8), std::string("XQNNUE\r\n"));
    auto u32 = [&](std::size_t at) {
        std::uint32_t v;
        std::memcpy(&v, b.data() + at, 4);
        return v;
    };
    EXPECT_EQ(u32(8), 2u);      // version
    EXPECT_EQ(u32(12), 1u);     // feature set
    EXPECT_EQ(u32(16), 1260u);  // inputs
    EXPECT_EQ(u32(20), 64u);    // H
    EXPECT_EQ(u32(24), 1u);     // buckets
    EXPECT_EQ(u32(28), 255u);   // QA
    EXPECT_EQ(u32(32), 64u);    // QB
    EXPECT_EQ(u32(36), 400u);   // SCALE
    EXPECT_EQ(b.substr(48, 5), std::string("desc\0", 5));
    EXPECT_EQ(b.substr(53, 59), std::string(59, '\0'));
    // The payload: W1 feature-major, then b1, W2, b2.
    std::int16_t w1Feature1Unit2;
    std::memcpy(&w1Feature1Unit2, b.data() + HEADER_BYTES + 2 * (64 + 2), 2);
    EXPECT_EQ(w1Feature1Unit2, net.row(1)[2]);
    std::int32_t b2;
    std::memcpy(&b2, b.data() + b.size() - 4, 4);
    EXPECT_EQ(b2, net.b2);
}

TEST(NnueFile, RandomNetworksDependOnlyOnTheSeed) {
    EXPECT_EQ(validBytes(), validBytes());
    Network a = randomNetwork(32, 1), b = randomNetwork(32, 2);
    EXPECT_NE(serializeNetwork(a), serializeNetwork(b));
}

TEST(NnueFile, ShortAndLongFilesAreRefused) {
    const std::string good = validBytes();
    EXPECT_EQ(refusal(good), "");
    EXPECT_REFUSED("", "file too short: 0 bytes, less than the 112-byte header");
    EXPECT_REFUSED(good.substr(0, 111), "file too short: 111 bytes");
    EXPECT_REFUSED(good.substr(0, HEADER_BYTES),
                   "file truncated: 112 bytes, expected " + std::to_string(good.size()));
    EXPECT_REFUSED(good.substr(0, good.size() - 1), "file truncated");
    EXPECT_REFUSED(good + "x", "file too long: " + std::to_string(good.size() + 1) + " bytes");
    EXPECT_REFUSED(good + good, "bytes after the payload");
}

TEST(NnueFile, WrongMagicIsRefused) {
    std::string bad = validBytes();
    bad[0] = 'Y';
    EXPECT_REFUSED(bad, "wrong magic: not an XQNNUE network file");
    // A text-mode transfer that turned \r\n into \n.
    std::string mangled = validBytes();
    mangled.erase(6, 1);
    EXPECT_REFUSED(mangled, "text-mode transfer");
}

TEST(NnueFile, WrongVersionFeatureSetOrSizesAreRefused) {
    const std::string good = validBytes();
    auto with = [&](std::size_t offset, std::uint32_t v) {
        std::string b = good;
        poke(b, offset, v);
        if (b.size() == good.size()) rehash(b);  // refused for the value, not for the hash
        return b;
    };
    EXPECT_REFUSED(with(8, 3), "unsupported version 3 (this engine reads versions 1 to 2)");
    EXPECT_REFUSED(with(8, 0), "unsupported version 0");
    EXPECT_REFUSED(with(12, 2), "unsupported feature set id 2");
    EXPECT_REFUSED(with(16, 1261), "wrong input count 1261");
    EXPECT_REFUSED(with(20, 40), "hidden size H = 40 is not a positive multiple of 16 up to 2048");
    EXPECT_REFUSED(with(20, 0), "hidden size H = 0");
    EXPECT_REFUSED(with(20, 4096), "hidden size H = 4096");
    EXPECT_REFUSED(with(20, 48), "file truncated");  // a valid H that the payload does not match
    EXPECT_REFUSED(with(20, 16), "file too long");
    EXPECT_REFUSED(with(24, 8), "wrong output bucket count 8");
    EXPECT_REFUSED(with(28, 127), "unsupported quantisation QA = 127");
    EXPECT_REFUSED(with(32, 32), "QB = 32");
    EXPECT_REFUSED(with(36, 0), "SCALE = 0");
}

TEST(NnueFile, CorruptPayloadOrHeaderHashIsRefused) {
    const std::string good = validBytes();
    std::string flipped = good;
    flipped[HEADER_BYTES + 1000] ^= 0x10;
    EXPECT_REFUSED(flipped, "hash mismatch: the header says 0x");
    EXPECT_REFUSED(flipped, "(corrupt file)");
    std::string lastByte = good;
    lastByte.back() ^= 1;
    EXPECT_REFUSED(lastByte, "hash mismatch");
    std::string badHash = good;
    badHash[40] ^= 1;
    EXPECT_REFUSED(badHash, "hash mismatch");
    // Version 2 hashes the header and the description too.
    std::string described = good;
    described[48] = 'Z';
    EXPECT_REFUSED(described, "hash mismatch");
}

// SCALE multiplies every evaluation: a changed SCALE is a damaged file, named so by the hash, not a
// network that evaluates at another scale.
TEST(NnueFile, AChangedScaleIsRefusedByTheHash) {
    Network net = randomNetwork(32, 7);
    const std::string good = serializeNetwork(net);
    ASSERT_EQ(net.scale, 400);
    for (std::int32_t scale : {401, 800, 1, 100000}) {
        std::string b = good;
        poke(b, 36, scale);
        EXPECT_REFUSED(b, "hash mismatch: the header says 0x");
    }
    std::string oneByte = good;
    oneByte[37] ^= 1;  // SCALE's second byte: 400 -> 144
    EXPECT_REFUSED(oneByte, "hash mismatch");
}

TEST(NnueFile, AnOutOfRangeScaleInACorrectlyHashedFileIsRefusedForItsValue) {
    const std::string good = validBytes();
    for (std::int32_t scale : {0, -400, 100001}) {
        std::string b = good;
        poke(b, 36, scale);
        rehash(b);
        EXPECT_REFUSED(b, "SCALE = " + std::to_string(scale) + " is not in 1..100000");
    }
    std::string b = good;
    poke(b, 36, std::int32_t(100000));
    rehash(b);
    EXPECT_EQ(parseNetwork(b).scale, 100000);
}

// Version 1 (payload hash only) still loads: the shipped network is one, and so is every network the
// trainer wrote before version 2. Its header is not covered, as it never was.
TEST(NnueFile, VersionOneFilesStillLoad) {
    Network net = randomNetwork(32, 7);
    const std::string v2 = serializeNetwork(net);
    const std::string v1 = asVersion1(v2);
    const Network back = parseNetwork(v1);
    EXPECT_EQ(back.version, 1u);
    EXPECT_EQ(back.hash, fnv1a64(std::string_view(v1).substr(HEADER_BYTES)));
    EXPECT_EQ(back.w1, net.w1);
    EXPECT_EQ(back.w2, net.w2);
    EXPECT_EQ(back.b2, net.b2);
    EXPECT_EQ(back.name, networkName(v1));
    std::string flipped = v1;
    flipped[HEADER_BYTES + 1000] ^= 0x10;
    EXPECT_REFUSED(flipped, "payload hash mismatch: the header says 0x");
    std::string described = v1;
    described[48] = 'Z';
    EXPECT_EQ(refusal(described), "");
    // Written again, it is version 2.
    Network again = back;
    const std::string rewritten = serializeNetwork(again);
    EXPECT_EQ(again.version, FILE_VERSION);
    EXPECT_EQ(rewritten, v2);

    const std::string shipped = std::string(XQ_SOURCE_DIR) + "/engine/nets/xq-f62c1752bf61.nnue";
    const Network net1 = loadNetworkFile(shipped);
    EXPECT_EQ(net1.version, 1u);
    EXPECT_EQ(net1.hidden, 128);
    EXPECT_EQ(net1.name, "xq-f62c1752bf61.nnue");
}

TEST(NnueFile, WeightsThatCouldOverflowAreRefused) {
    Network net = randomNetwork(32, 9);
    std::string b = serializeNetwork(net);
    // W2 starts after W1 and b1.
    const std::size_t w2At = HEADER_BYTES + 2 * (std::size_t(INPUTS) * 32 + 32);
    std::string bigW2 = b;
    poke(bigW2, w2At + 2 * 5, std::int16_t(128));
    rehash(bigW2);
    EXPECT_REFUSED(bigW2, "output weight W2[5] = 128 is outside -127..127");

    Network wide = Network::zero(2048);
    for (auto& w : wide.w2) w = 127;  // QA * QA * 4096 * 127 > 2^31
    EXPECT_REFUSED(serializeNetwork(wide), "output weights too large");

    Network hot = Network::zero(16);
    for (int s = 0; s < 90; ++s) const_cast<std::int16_t*>(hot.row(6 * 90 + s))[3] = 7000;  // own pawns
    EXPECT_REFUSED(serializeNetwork(hot), "hidden unit 3 can reach 35000");
    Network cold = Network::zero(16);
    cold.b1[1] = -30000;
    const_cast<std::int16_t*>(cold.row(0))[1] = -3000;  // the own king on a0
    EXPECT_REFUSED(serializeNetwork(cold), "hidden unit 1 can reach -33000");
    // At the limits, accepted.
    cold.b1[1] = -29768;
    EXPECT_EQ(refusal(serializeNetwork(cold)), "");
}

TEST(NnueFile, LoadingNamesTheFile) {
    const std::string path = ::testing::TempDir() + "xq_nnue_file_test.nnue";
    Network net = randomNetwork(16, 11);
    const std::string name = saveNetworkFile(path, net);
    EXPECT_EQ(loadNetworkFile(path).name, name);
    EXPECT_TRUE(fileLooksLikeNetwork(path));
    EXPECT_FALSE(fileLooksLikeNetwork(std::string(XQ_SOURCE_DIR) + "/engine/weights/default.xqw"));
    EXPECT_FALSE(fileLooksLikeNetwork("/nonexistent/file.nnue"));
    std::string bytes = serializeNetwork(net);
    std::ofstream(path, std::ios::binary) << bytes.substr(0, 500);
    try {
        loadNetworkFile(path);
        ADD_FAILURE() << "a truncated file was loaded";
    } catch (const NetworkError& e) {
        EXPECT_NE(std::string(e.what()).find("network file '" + path + "': file truncated: 500 bytes"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(loadNetworkFile("/nonexistent/file.nnue"), NetworkError);
    std::remove(path.c_str());
}

TEST(NnueFile, TheEmbeddedNetworkIsValidWhenTheBuildHasOne) {
    if (!hasDefaultNetwork()) {
        EXPECT_EQ(defaultNetwork(), nullptr);
        EXPECT_TRUE(defaultNetworkBytes().empty());
        return;
    }
    ASSERT_NE(defaultNetwork(), nullptr) << "the embedded network " << defaultNetworkPath() << " is refused";
    std::ifstream in(defaultNetworkPath(), std::ios::binary);
    std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(defaultNetworkBytes(), file);
    EXPECT_EQ(defaultNetwork()->name, networkName(file));
}
