// Engines built from source on the host that runs them, for its own CPU: a test names a source archive
// (a commit's tree as tar.gz), a build command and the executable it leaves. Builds run in a directory
// of their own under a time limit and a per-process memory limit, are cached by (source, command,
// binary, compiler, CPU flags), are never run twice at once for the same key on one host (a file lock,
// so several workers may share the directory), and the oldest are evicted past a size limit.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "sandbox.h"

namespace xq::worker {

struct BuildLimits {
    int timeoutSeconds = 1800;
    std::uint64_t memoryBytes = 8ull << 30;  // address space of each process of the build
    std::uint64_t cacheBytes = 20ull << 30;  // builds kept; the least recently used go first past it
};

// The source could not be built here: the message ends with the build's last lines. `sourceFault`: the
// build command ran and failed (or left no executable), which every host would see; otherwise the
// trouble may be this host's (a missing tool, the time or memory limit, a full disk).
struct BuildError : std::runtime_error {
    BuildError(const std::string& what, bool fault) : std::runtime_error(what), sourceFault(fault) {}
    bool sourceFault;
};

// A built engine and a shared lock on its build, held while the engine may run: the cache's eviction,
// here or in another worker sharing the directory, passes over builds in use.
struct BuiltEngine {
    std::string path;
    std::shared_ptr<void> inUse;
};

class SourceBuilder {
  public:
    // With a sandbox (enabled), build commands run in it: no network, the file system read-only but for the
    // build's own directory and a private /tmp, processes allowed (a compiler needs them).
    SourceBuilder(std::string dir, BuildLimits limits, std::function<void(const std::string&)> log = {},
                  const Sandbox* sandbox = nullptr);

    // The built executable of the archive at `archivePath` (whose SHA-256 is `sourceSha`), from the cache
    // or built now. Throws BuildError when the build fails; std::runtime_error for trouble of the host's
    // own (no disk, no tar).
    BuiltEngine build(const std::string& archivePath, const std::string& sourceSha,
                      const std::string& command, const std::string& binaryPath);
    // Builds this object ran (cache hits excluded).
    int buildsRun() const { return buildsRun_; }

    // The compiler versions and CPU flags a build depends on, as one text (hashed into cache keys).
    static const std::string& hostSignature();

  private:
    void evict(const std::string& keep);

    std::string dir_;
    BuildLimits limits_;
    std::function<void(const std::string&)> log_;
    const Sandbox* sandbox_ = nullptr;
    int buildsRun_ = 0;
    std::set<std::string> announced_;  // cached builds already logged
};

}  // namespace xq::worker
