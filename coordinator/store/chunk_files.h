// The files holding datagen chunks: DATA/data/test-<id>/s<slice>-l<lease>-q<sequence>-<hash>.txt.gz, each
// a complete gzip file that `xq data export DIR` or any gzip reader can read. A file is written under a
// temporary name, fsynced, renamed and its directory fsynced before anyone is told it is stored.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>

namespace xq::coord {

class ChunkFiles {
  public:
    // `dataDir` is the coordinator's data directory; chunk files go under its data/ folder.
    explicit ChunkFiles(std::string dataDir);

    // Writes the bytes durably; returns the path relative to the data directory. Throws
    // std::runtime_error when the disk refuses.
    std::string write(std::int64_t testId, std::int64_t slice, std::int64_t leaseId, std::int64_t sequence,
                      const std::string& sha256, std::string_view bytes);
    std::string absolute(const std::string& relative) const { return dataDir_ + "/" + relative; }
    // Removes a file; a missing file is not an error.
    void remove(const std::string& relative);
    // Removes chunk files `keep` does not list and temporary files: what a crash between writing a file
    // and recording it leaves behind. Returns how many were removed.
    int removeStray(const std::unordered_set<std::string>& keep);

  private:
    std::string dataDir_;
};

}  // namespace xq::coord
