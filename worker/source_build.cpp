#include "source_build.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "child_process.h"
#include "sandbox.h"
#include "util/sha256.h"

namespace xq::worker {

namespace fs = std::filesystem;

namespace {

// A lock on a file, held for the object's life (flock: released if the process dies): exclusive while
// a build is made or removed, shared while the build is in use.
class FileLock {
  public:
    enum Mode { Shared = LOCK_SH, Exclusive = LOCK_EX };
    FileLock(const std::string& path, Mode mode, bool wait) {
        fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) throw std::runtime_error("cannot open the lock file " + path);
        if (::flock(fd_, wait ? int(mode) : int(mode) | LOCK_NB) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    // Exclusive to shared (atomically, in Linux's flock).
    void share() {
        if (fd_ >= 0) ::flock(fd_, LOCK_SH);
    }
    ~FileLock() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    bool held() const { return fd_ >= 0; }

  private:
    int fd_ = -1;
};

// Runs argv in `dir` with its output appended to `logPath` (child_process.h); each process may map at most
// `memoryBytes`.
ChildResult run(const std::vector<std::string>& argv, const std::string& dir, const std::string& logPath,
                int timeoutSeconds, std::uint64_t memoryBytes) {
    ChildSpec spec;
    spec.argv = argv;
    spec.dir = dir;
    spec.stdoutPath = spec.stderrPath = logPath;
    spec.memoryBytes = memoryBytes;
    spec.timeoutSeconds = timeoutSeconds;
    return runChild(spec);
}

std::string firstLineOf(const char* command) {
    std::string out;
    if (FILE* p = popen(command, "r")) {
        char buf[512];
        if (fgets(buf, sizeof buf, p)) out = buf;
        pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

std::uint64_t treeBytes(const fs::path& dir) {
    std::uint64_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (it->is_regular_file(ec) && !it->is_symlink(ec)) total += it->file_size(ec);
    }
    return total;
}

}  // namespace

SourceBuilder::SourceBuilder(std::string dir, BuildLimits limits, std::function<void(const std::string&)> log,
                             const Sandbox* sandbox)
    : dir_(std::move(dir)), limits_(limits), log_(std::move(log)), sandbox_(sandbox) {
    fs::create_directories(dir_);
}

const std::string& SourceBuilder::hostSignature() {
    static const std::string signature = [] {
        std::string flags;
        std::ifstream cpu("/proc/cpuinfo");
        for (std::string line; std::getline(cpu, line);)
            if (line.rfind("flags", 0) == 0) {
                flags = line;
                break;
            }
        return "c++: " + firstLineOf("c++ --version 2>/dev/null") +
               "\ncc: " + firstLineOf("cc --version 2>/dev/null") + "\n" + flags;
    }();
    return signature;
}

BuiltEngine SourceBuilder::build(const std::string& archivePath, const std::string& sourceSha,
                                 const std::string& command, const std::string& binaryPath) {
    const std::string key =
        xq::sha256Hex(sourceSha + '\0' + command + '\0' + binaryPath + '\0' + hostSignature());
    const fs::path root = fs::path(dir_) / key;
    const fs::path src = root / "src", ok = root / "ok", log = root / "build.log";
    const fs::path binary = src / binaryPath;
    // A shared lock while the engine runs (other users of the build share it; eviction needs it alone);
    // an exclusive one to build, which waits for another worker of this host building the same.
    const std::string lockPath = dir_ + "/" + key + ".lock";
    std::error_code ec;
    auto isBuilt = [&] { return fs::exists(ok, ec) && fs::is_regular_file(binary, ec); };
    auto lock = std::make_shared<FileLock>(lockPath, FileLock::Shared, true);
    if (!isBuilt()) {
        lock.reset();  // let the shared lock go first: it would block our own exclusive one
        lock = std::make_shared<FileLock>(lockPath, FileLock::Exclusive, true);
        if (isBuilt()) lock->share();
    }
    if (isBuilt()) {
        fs::last_write_time(ok, fs::file_time_type::clock::now(), ec);
        if (log_ && announced_.insert(key).second)
            log_("source " + sourceSha.substr(0, 12) + ": built before, " + binary.string());
        return {binary.string(), lock};
    }
    fs::remove_all(root, ec);
    fs::create_directories(src);
    if (log_) log_("source " + sourceSha.substr(0, 12) + ": building with `" + command + "`");
    auto started = std::chrono::steady_clock::now();
    ChildResult unpack = run({"/bin/tar", "-xzf", fs::absolute(archivePath).string(), "-C", src.string()},
                             src.string(), log.string(), 300, limits_.memoryBytes);
    if (unpack.exitCode != 0) {
        std::string why = "cannot unpack the source " + sourceSha.substr(0, 12) + ":\n" + lastLines(log, 10);
        fs::remove_all(root, ec);
        throw BuildError(why, false);
    }
    ++buildsRun_;
    std::vector<std::string> buildArgv = {"/bin/sh", "-c", command};
    if (sandbox_ && sandbox_->enabled) {
        SandboxLimits l = sandbox_->limits;
        l.allowFork = true;
        l.memoryMb = std::max<std::uint64_t>(l.memoryMb, limits_.memoryBytes >> 20);
        l.fileSizeMb = std::max<std::uint64_t>(l.fileSizeMb, 4096);  // objects and archives
        buildArgv = sandbox_->wrap("/bin/sh", {"-c", command}, {}, {src.string()}, &l);
    }
    ChildResult built =
        run(buildArgv, src.string(), log.string(), limits_.timeoutSeconds, limits_.memoryBytes);
    std::string failure;
    // The command ran and failed: the source's fault. A shell that could not find the command (127),
    // could not run it (126) or the time limit: perhaps this host's.
    bool sourceFault = !built.timedOut && built.exitCode != 126 && built.exitCode != 127;
    if (built.timedOut)
        failure = "the build of source " + sourceSha.substr(0, 12) + " took over " +
                  std::to_string(limits_.timeoutSeconds) + " s and was stopped";
    else if (built.exitCode != 0)
        failure = "the build of source " + sourceSha.substr(0, 12) + " failed (exit code " +
                  std::to_string(built.exitCode) + ")";
    else if (!fs::is_regular_file(binary, ec) || access(binary.c_str(), X_OK) != 0)
        failure = "the build of source " + sourceSha.substr(0, 12) + " left no executable at " + binaryPath;
    if (!failure.empty()) {
        std::string tail = lastLines(log, 15);
        fs::remove_all(root, ec);
        throw BuildError(failure + "; its last lines:\n" + tail, sourceFault);
    }
    std::ofstream(ok) << command << "\n";
    if (log_)
        log_("source " + sourceSha.substr(0, 12) + ": built in " +
             std::to_string(
                 std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
                     .count()) +
             " s");
    evict(key);
    lock->share();
    return {binary.string(), lock};
}

void SourceBuilder::evict(const std::string& keep) {
    struct Entry {
        fs::path root;
        fs::file_time_type used;
        std::uint64_t bytes;
    };
    std::vector<Entry> entries;
    std::uint64_t total = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
        if (!e.is_directory(ec)) continue;
        auto used = fs::last_write_time(e.path() / "ok", ec);
        if (ec) used = fs::file_time_type::min();  // unfinished or failed: first to go
        std::uint64_t bytes = treeBytes(e.path());
        total += bytes;
        if (e.path().filename() != keep) entries.push_back({e.path(), used, bytes});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const auto& e : entries) {
        if (total <= limits_.cacheBytes) break;
        FileLock lock(dir_ + "/" + e.root.filename().string() + ".lock", FileLock::Exclusive, false);
        if (!lock.held()) continue;  // being built, or in use by a worker (this one included)
        fs::remove_all(e.root, ec);
        total -= e.bytes;
        if (log_)
            log_("build cache: removed " + e.root.filename().string().substr(0, 12) +
                 " (least recently used)");
    }
}

}  // namespace xq::worker
