#include "chunk_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace xq::coord {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void failErrno(const std::string& what, const std::string& path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

void fsyncPath(const std::string& path, int flags) {
    int fd = ::open(path.c_str(), flags);
    if (fd < 0) failErrno("cannot open", path);
    int rc = ::fsync(fd);
    ::close(fd);
    if (rc != 0) failErrno("cannot fsync", path);
}

std::string uniqueSuffix() {
    static std::atomic<std::uint64_t> counter{0};
    return std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
}

}  // namespace

ChunkFiles::ChunkFiles(std::string dataDir) : dataDir_(std::move(dataDir)) {
    fs::create_directories(dataDir_ + "/data");
}

std::string ChunkFiles::write(std::int64_t testId, std::int64_t slice, std::int64_t leaseId,
                              std::int64_t sequence, const std::string& sha256, std::string_view bytes) {
    std::string dirRel = "data/test-" + std::to_string(testId);
    std::string dir = absolute(dirRel);
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
        fs::create_directories(dir, ec);
        if (ec) throw std::runtime_error("cannot create " + dir + ": " + ec.message());
        fsyncPath(absolute("data"), O_RDONLY | O_DIRECTORY);  // the new directory's entry
    }
    std::string name = "s" + std::to_string(slice) + "-l" + std::to_string(leaseId) + "-q" +
                       std::to_string(sequence) + "-" + sha256.substr(0, 16) + ".txt.gz";
    std::string finalPath = dir + "/" + name;
    std::string tempPath = dir + "/." + name + ".tmp-" + uniqueSuffix();
    int fd = ::open(tempPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) failErrno("cannot create", tempPath);
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int saved = errno;
            ::close(fd);
            ::unlink(tempPath.c_str());
            errno = saved;
            failErrno("cannot write", tempPath);
        }
        done += std::size_t(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        ::unlink(tempPath.c_str());
        failErrno("cannot fsync", tempPath);
    }
    if (::rename(tempPath.c_str(), finalPath.c_str()) != 0) {
        ::unlink(tempPath.c_str());
        failErrno("cannot rename into", finalPath);
    }
    fsyncPath(dir, O_RDONLY | O_DIRECTORY);
    return dirRel + "/" + name;
}

void ChunkFiles::remove(const std::string& relative) {
    std::error_code ec;
    fs::remove(absolute(relative), ec);
}

int ChunkFiles::removeStray(const std::unordered_set<std::string>& keep) {
    int removed = 0;
    std::error_code ec;
    for (const auto& testDir : fs::directory_iterator(absolute("data"), ec)) {
        if (!testDir.is_directory()) continue;
        std::string dirName = testDir.path().filename().string();
        for (const auto& file : fs::directory_iterator(testDir.path(), ec)) {
            std::string rel = "data/" + dirName + "/" + file.path().filename().string();
            if (keep.count(rel)) continue;
            std::error_code rm;
            if (fs::remove(file.path(), rm)) ++removed;
        }
    }
    return removed;
}

}  // namespace xq::coord
