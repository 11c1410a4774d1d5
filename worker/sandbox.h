// Engines (and other programs a test brings) run in a sandbox on the workers, since a user token can make
// every worker run any binary. Two layers, both from Debian packages:
//  - bubblewrap (`bwrap`): new user, PID, network, IPC and UTS namespaces, so no network at all (not even
//    the host's loopback); the whole file system read-only, the home directory hidden (the worker's token,
//    its cache and builds) but for the files the program reads, a private /tmp as its working directory,
//    no new privileges, and the sandbox dies with the worker;
//  - `xq-worker sandbox-exec` inside it, which sets resource limits (address space, open files, file
//    size, processes) and a seccomp filter (no fork: no new process but threads; no sockets but Unix
//    ones), then runs the program.
// A program that tries any of it fails where it tries (EPERM, EROFS, ENOMEM...): an engine that then dies
// counts as a crash of that game, and nothing outside the sandbox is touched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace xq::worker {

// AddressSanitizer and ThreadSanitizer reserve terabytes of address space for their shadow memory, so in
// their builds (scripts/test.sh --sanitize) no process can run under an address-space limit: there the
// sandbox leaves RLIMIT_AS out (the other limits, the namespaces and the filter stay).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool AddressSpaceLimited = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool AddressSpaceLimited = false;
#else
inline constexpr bool AddressSpaceLimited = true;
#endif
#else
inline constexpr bool AddressSpaceLimited = true;
#endif

struct SandboxLimits {
    std::uint64_t memoryMb = 4096;   // RLIMIT_AS (where AddressSpaceLimited)
    std::uint64_t openFiles = 256;   // RLIMIT_NOFILE
    std::uint64_t fileSizeMb = 256;  // RLIMIT_FSIZE
    // RLIMIT_NPROC, counted in the sandbox's own user namespace (threads count too). The kernel does not
    // apply it to root, so for a worker running as root only the seccomp filter bounds processes.
    std::uint64_t processes = 512;
    bool allowFork = false;  // builds need it (a compiler runs its passes as processes); so do script engines
};

struct Sandbox {
    bool enabled = false;
    std::string bwrap = "bwrap";
    std::string self;  // the executable that implements `sandbox-exec` (xq-worker)
    SandboxLimits limits;
    // Directories every sandboxed program may read though they lie under /tmp or the home directory
    // (`xq-worker --sandbox-read DIR`): what a script engine runs, say. The rest of the file system is
    // readable anyway.
    std::vector<std::string> alsoReadable;

    // The command line that runs `cmd args` in the sandbox, able to read `readable` (the binary, weights)
    // and to write `writable` (a build directory); `cmd args` unchanged when the sandbox is off.
    std::vector<std::string> wrap(const std::string& cmd, const std::vector<std::string>& args,
                                  const std::vector<std::string>& readable = {},
                                  const std::vector<std::string>& writable = {},
                                  const SandboxLimits* limits = nullptr) const;
    // What goes before `cmd` on a command line that runs it in the sandbox (empty when the sandbox is off):
    // for callers that add their own arguments after the program (a bench run).
    std::vector<std::string> launcher(const std::string& cmd,
                                      const std::vector<std::string>& readable = {}) const;
    // Finds bwrap on PATH (callers exec it by its full path) and tries the sandbox once: throws
    // std::runtime_error naming what is missing when it cannot run here (bwrap absent, namespaces
    // refused). Called at the worker's start.
    void prepare();
};

// `xq-worker sandbox-exec [--memory-mb N] [--open-files N] [--file-size-mb N] [--processes N] [--fork]
// -- CMD ARGS...`: sets the limits and the seccomp filter, then execs CMD. Returns only on failure (an
// exit code, the reason on stderr).
int sandboxExec(int argc, char** argv);

}  // namespace xq::worker
