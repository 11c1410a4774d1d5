// A network file (docs/nnue.md) as the cluster sees it: the check a client makes before it uploads one and
// the coordinator makes before a test names one. It is the engine's own reader (engine/nnue_network.h,
// linked as xq_nnue_file, not the searcher): every check of the contract, the integers' bounds included.
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

// Empty if the engine's reader accepts the file at `path` (and fills *header when given); otherwise what is
// wrong with it, e.g. "wrong magic: not an XQNNUE network file" or "cannot be read".
std::string networkFileProblem(const std::string& path, NetHeader* header = nullptr);

}  // namespace xq::coord
