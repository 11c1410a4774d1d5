// Engines submitted as source: a repository's ref resolved to a commit, the commit's subject and its
// `Bench: N` signature, and its tree packed as a tar.gz artifact (`git archive`), so that workers need no
// access to the repository. Runs the git of the submitter's machine.
#pragma once

#include <cstdint>
#include <string>

namespace xq::coord {

struct CommitInfo {
    std::string commit;       // full hash
    std::string subject;      // first line of the message
    std::string author;       // "Name <email>"
    std::uint64_t bench = 0;  // the message's last `Bench: N`; 0: none
};

// Throws std::invalid_argument naming the repository or ref when git cannot resolve it.
CommitInfo resolveCommit(const std::string& repo, const std::string& ref);
// Writes the commit's tree to `outPath` as tar.gz; throws std::runtime_error with git's message.
void archiveCommit(const std::string& repo, const std::string& commit, const std::string& outPath);
// The last `Bench: N` of a commit message (the convention of this repository's commits); 0 if none.
std::uint64_t benchFromMessage(const std::string& message);
// A repository given by URL is cloned (bare) into scratchDir and that path returned; a path is
// returned as it is.
std::string localRepository(const std::string& repoOrUrl, const std::string& scratchDir);
// The repository as a test shows it: a URL as given, a path's `origin` remote (or "" without one); a user or
// password in an https:// URL is left out (it would be shown on the test's page).
std::string repositoryUrl(const std::string& repoOrUrl);

// This repository's engine, as workers build it when a test names no build command.
constexpr const char* DefaultBuildCommand =
    "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DXQ_NATIVE=ON >/dev/null && "
    "cmake --build build --target xq-engine";
constexpr const char* DefaultBinaryPath = "build/bin/xq-engine";

}  // namespace xq::coord
