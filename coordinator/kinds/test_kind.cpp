#include "test_kind.h"

#include "coordinator_options.h"
#include "errors.h"

namespace xq::coord {

void kindFail(ErrorCode code, const std::string& message) {
    throw CoordError(code, message);
}

stats::SprtConfig sprtConfigOf(const v1::SprtSpec& s) {
    stats::SprtConfig cfg;
    cfg.elo0 = s.elo0();
    cfg.elo1 = s.elo1();
    cfg.alpha = s.alpha() > 0 ? s.alpha() : 0.05;
    cfg.beta = s.beta() > 0 ? s.beta() : 0.05;
    cfg.model = s.model().empty() ? stats::EloModel::Normalized : stats::parseEloModel(s.model());
    return cfg;
}

stats::Penta pentaOf(const TestRow& t) {
    stats::Penta p;
    for (int i = 0; i < 5; ++i) p.pairs[i] = t.penta[i];
    return p;
}

void engineArtifacts(const v1::EngineSpec& e, const std::string& who,
                     std::vector<std::pair<std::string, std::string>>& out) {
    for (auto [what, sha] :
         {std::pair{" engine binary", &e.binary_sha256()},
          std::pair{" engine source", &e.source().source_sha256()},
          std::pair{" weights", &e.weights_sha256()}, std::pair{" network", &e.net_sha256()}})
        if (!sha->empty()) out.emplace_back(who + what, *sha);
}

}  // namespace xq::coord
