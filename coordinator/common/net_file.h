// A network file (docs/nnue.md, version 1) as the cluster sees it: the header's checks a client makes
// before it uploads one and the coordinator makes before a test names one, without linking the engine.
// The engine's own reader (engine/nnue_network.h) checks more (the integers' bounds); this check refuses
// what is plainly not a network: a wrong magic, version, feature set, size or payload hash.
#pragma once

#include <cstdint>
#include <string>

namespace xq::coord {

// The artifact kind of a network (UploadChunk.kind, ListArtifactsRequest.kind).
inline constexpr char ArtifactKindNet[] = "net";

// The network's header: the part a listing shows.
struct NetHeader {
    std::uint32_t hidden = 0;
    std::string description;
};

// Empty if the file at `path` passes the header checks (and fills *header when given); otherwise what is
// wrong with it, e.g. "not a network file (its first bytes are not XQNNUE)".
std::string networkFileProblem(const std::string& path, NetHeader* header = nullptr);

}  // namespace xq::coord
