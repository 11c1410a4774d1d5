// Stores an artifact the way a user's upload does (begin, write, verify, register), for coordinator tests.
#pragma once

#include <string>

#include "coordinator.h"
#include "util/sha256.h"

namespace xq::coord::testing {

// Returns the artifact's SHA-256, the id tests submit with.
inline std::string uploadArtifact(Coordinator& coord, const Caller& user, const std::string& content,
                                  const std::string& kind = "engine") {
    auto up = coord.beginUpload(user, sha256Hex(content), content.size());
    up->write(content);
    up->finish();
    coord.artifactUploaded(up->sha256(), content.size(), kind);
    return up->sha256();
}

}  // namespace xq::coord::testing
