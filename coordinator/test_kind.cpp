#include "test_kind.h"

#include "coordinator.h"

namespace xq::coord {

void kindFail(ErrorCode code, const std::string& message) {
    throw CoordError(code, message);
}

void engineArtifacts(const v1::EngineSpec& e, const std::string& who,
                     std::vector<std::pair<std::string, std::string>>& out) {
    for (auto [what, sha] : {std::pair{" engine binary", &e.binary_sha256()},
                             std::pair{" engine source", &e.source().source_sha256()},
                             std::pair{" weights", &e.weights_sha256()}})
        if (!sha->empty()) out.emplace_back(who + what, *sha);
}

}  // namespace xq::coord
