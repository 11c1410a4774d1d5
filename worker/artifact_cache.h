// Artifacts on the worker: downloaded once, kept under the cache directory by hash, and verified
// against their hash every time a job uses them, so neither a tampered download nor a file changed in
// the cache is ever run.
#pragma once

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

  private:
    std::string dir_;
};

}  // namespace xq::worker
