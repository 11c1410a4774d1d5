#include "artifacts.h"

#include <atomic>
#include <filesystem>
#include <stdexcept>

namespace xq::coord {

namespace fs = std::filesystem;

ArtifactStore::ArtifactStore(std::string dir) : dir_(std::move(dir)) {
    fs::create_directories(dir_);
}

bool ArtifactStore::contains(const std::string& sha256) const {
    return isSha256Hex(sha256) && fs::exists(pathOf(sha256));
}

std::string ArtifactStore::damage(const std::string& sha256) const {
    if (!contains(sha256)) return "is missing from the store";
    try {
        const std::string actual = sha256File(pathOf(sha256));
        return actual == sha256 ? "" : "is damaged in the store: its content now hashes to " + actual;
    } catch (const std::exception& e) {
        return std::string("cannot be read from the store: ") + e.what();
    }
}

ArtifactStore::Upload::Upload(const ArtifactStore& store, std::string sha256, std::uint64_t size,
                              std::uint64_t maxBytes)
    : store_(store), sha256_(std::move(sha256)), size_(size) {
    if (!isSha256Hex(sha256_))
        throw std::invalid_argument("artifact hash must be 64 lowercase hex digits, got '" +
                                    sha256_.substr(0, 80) + "'");
    if (size_ > maxBytes)
        throw std::invalid_argument("artifact of " + std::to_string(size_) + " bytes is over the limit of " +
                                    std::to_string(maxBytes) + " bytes");
    static std::atomic<unsigned> counter{0};
    tempPath_ = store_.dir_ + "/.upload-" + sha256_.substr(0, 16) + "-" + std::to_string(counter++);
    out_.open(tempPath_, std::ios::binary | std::ios::trunc);
    if (!out_) throw std::runtime_error("cannot write " + tempPath_);
}

ArtifactStore::Upload::~Upload() {
    if (!finished_) {
        out_.close();
        std::error_code ec;
        fs::remove(tempPath_, ec);
    }
}

void ArtifactStore::Upload::write(const std::string& data) {
    received_ += data.size();
    if (received_ > size_)
        throw std::invalid_argument("artifact upload sent more than the announced " + std::to_string(size_) +
                                    " bytes");
    hash_.update(data);
    out_.write(data.data(), std::streamsize(data.size()));
    if (!out_) throw std::runtime_error("cannot write " + tempPath_);
}

void ArtifactStore::Upload::finish() {
    if (received_ != size_)
        throw std::invalid_argument("artifact upload ended after " + std::to_string(received_) + " of " +
                                    std::to_string(size_) + " bytes");
    std::string actual = hash_.finishHex();
    if (actual != sha256_)
        throw std::invalid_argument("artifact content hashes to " + actual + ", not the announced " +
                                    sha256_);
    out_.close();
    if (!out_) throw std::runtime_error("cannot write " + tempPath_);
    fs::rename(tempPath_, store_.pathOf(sha256_));
    finished_ = true;
}

}  // namespace xq::coord
