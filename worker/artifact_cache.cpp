#include "artifact_cache.h"

#include <filesystem>
#include <stdexcept>

#include "sha256.h"

namespace xq::worker {

namespace fs = std::filesystem;

ArtifactCache::ArtifactCache(std::string dir) : dir_(std::move(dir)) {
    fs::create_directories(dir_);
}

std::string ArtifactCache::get(coord::Client& client, const std::string& sha256, bool executable) {
    if (!coord::isSha256Hex(sha256))
        throw std::runtime_error("job names a malformed artifact hash '" + sha256 + "'");
    std::string path = dir_ + "/" + sha256;
    if (fs::exists(path) && coord::sha256File(path) != sha256)
        fs::remove(path);  // changed since: fetch again
    if (!fs::exists(path)) client.download(sha256, path);
    if (coord::sha256File(path) != sha256)
        throw std::runtime_error("artifact " + sha256 + " failed verification");
    if (executable)
        fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                        fs::perm_options::add);
    return path;
}

}  // namespace xq::worker
