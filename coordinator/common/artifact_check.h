// What an uploaded artifact must be, by the kind its uploader says it is (UploadChunk.kind), checked when
// it arrives so that a test cannot name a book as its engine: an engine is an executable a worker of this
// platform can run (an ELF file of this machine's architecture, or a script starting with #!), a network
// passes the network file's header checks (net_file.h), a book parses as openings of one of the games
// (match/openings.h); weights are whatever the engine reads, so any file passes.
#pragma once

#include <string>

namespace xq::coord {

inline constexpr char ArtifactKindEngine[] = "engine";
inline constexpr char ArtifactKindWeights[] = "weights";
inline constexpr char ArtifactKindOpenings[] = "openings";

// Whether `kind` is "" (not said), engine, weights, openings or net.
bool isArtifactKind(const std::string& kind);
// Empty when the file at `path` is what `kind` says (always, for "" and weights); otherwise what is wrong
// with it, e.g. "not an engine: an ELF executable for aarch64, and this platform is x86-64".
std::string artifactProblem(const std::string& kind, const std::string& path);
// The kind of an artifact by the role a test gives it (TestKind::artifacts: "dev engine binary", "base
// weights", "opening book", "dev network"); "" for a role of no kind (an engine's source archive).
std::string artifactKindOfRole(const std::string& role);
// Whether the file starts as an executable does (ELF magic or #!): how an artifact stored without a kind
// is told apart from a book or weights.
bool looksExecutable(const std::string& path);

}  // namespace xq::coord
