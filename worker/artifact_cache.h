// Artifacts on the worker: downloaded once, kept under the cache directory by hash, and verified against
// their hash when a job first uses them and again whenever the file has changed since (its inode, size,
// modification or status-change time), so neither a tampered download nor a file changed in the cache
// is ever run, and a large engine (Stockfish's binary is 47 MB) is not hashed again for every lease.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "client.h"

namespace xq::worker {

class ArtifactCache {
  public:
    explicit ArtifactCache(std::string dir);
    // Path of the verified artifact, downloading it if needed. Throws std::runtime_error when the
    // artifact cannot be fetched or does not match its hash.
    std::string get(coord::Client& client, const std::string& sha256, bool executable);
    const std::string& dir() const { return dir_; }

    // What identifies one state of a file: any write to it, or its replacement, changes this.
    struct FileStamp {
        unsigned long long device = 0, inode = 0;
        long long size = -1, modifiedNs = 0, changedNs = 0;
        bool operator==(const FileStamp&) const = default;
    };
    // The file's stamp now; none when it does not exist.
    static std::optional<FileStamp> stampOf(const std::string& path);

  private:
    std::string dir_;
    std::mutex mutex_;
    std::map<std::string, FileStamp> verified_;  // by hash: the file's state when its hash last matched
};

}  // namespace xq::worker
