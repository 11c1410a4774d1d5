#include "artifact_cache.h"

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <stdexcept>

#include "util/sha256.h"

namespace xq::worker {

namespace fs = std::filesystem;

namespace {

bool isExecutable(const std::string& path) {
    std::error_code ec;
    auto perms = fs::status(path, ec).permissions();
    return !ec && (perms & fs::perms::owner_exec) != fs::perms::none;
}

}  // namespace

std::optional<ArtifactCache::FileStamp> ArtifactCache::stampOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    auto ns = [](const timespec& t) { return (long long)t.tv_sec * 1'000'000'000LL + t.tv_nsec; };
    return FileStamp{st.st_dev, st.st_ino, (long long)st.st_size, ns(st.st_mtim), ns(st.st_ctim)};
}

ArtifactCache::ArtifactCache(std::string dir) : dir_(std::move(dir)) {
    fs::create_directories(dir_);
}

std::string ArtifactCache::get(coord::Client& client, const std::string& sha256, bool executable) {
    if (!xq::isSha256Hex(sha256))
        throw std::runtime_error("job names a malformed artifact hash '" + sha256 + "'");
    std::string path = dir_ + "/" + sha256;
    std::lock_guard lock(mutex_);
    if (auto it = verified_.find(sha256); it != verified_.end()) {
        if (stampOf(path) == it->second && (!executable || isExecutable(path))) return path;
        verified_.erase(it);  // changed since it was verified: hash it again
    }
    auto makeExecutable = [&] {
        if (executable)
            fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                            fs::perm_options::add);
    };
    // The stamp is taken before hashing and must be the same after it: a file that changed while it was
    // hashed is hashed again next time.
    std::optional<FileStamp> before;
    if (fs::exists(path)) {
        makeExecutable();
        before = stampOf(path);
        if (xq::sha256File(path) != sha256) fs::remove(path);  // changed since it was fetched: again
    }
    if (!fs::exists(path)) {
        client.download(sha256, path);
        makeExecutable();
        before = stampOf(path);
        if (xq::sha256File(path) != sha256)
            throw std::runtime_error("artifact " + sha256 + " failed verification");
    }
    if (before && stampOf(path) == before) verified_[sha256] = *before;
    return path;
}

}  // namespace xq::worker
