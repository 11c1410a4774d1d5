// Engine binaries, weight files and opening books, stored under DATA/artifacts/ by the SHA-256 of their
// bytes. An upload is written to a temporary file while it is hashed and only renamed into place when
// the hash matches the one the uploader claimed, so a stored artifact is always what its name says.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "util/sha256.h"

namespace xq::coord {

class ArtifactStore {
  public:
    explicit ArtifactStore(std::string dir);

    std::string pathOf(const std::string& sha256) const { return dir_ + "/" + sha256; }
    bool contains(const std::string& sha256) const;
    // Empty if the stored file still hashes to its name; otherwise what is wrong with it (missing,
    // unreadable, or its content now hashes to something else: changed behind the store's back).
    std::string damage(const std::string& sha256) const;

    class Upload {
      public:
        // Throws std::invalid_argument if the hash is malformed or the size is over maxBytes.
        Upload(const ArtifactStore& store, std::string sha256, std::uint64_t size, std::uint64_t maxBytes);
        ~Upload();
        // Throws std::invalid_argument once more bytes arrive than announced.
        void write(const std::string& data);
        // Verifies size and hash and moves the file into place; throws std::invalid_argument on mismatch.
        void finish();
        const std::string& sha256() const { return sha256_; }

      private:
        const ArtifactStore& store_;
        std::string sha256_, tempPath_;
        std::uint64_t size_, received_ = 0;
        std::ofstream out_;
        Sha256 hash_;
        bool finished_ = false;
    };

  private:
    std::string dir_;
};

}  // namespace xq::coord
