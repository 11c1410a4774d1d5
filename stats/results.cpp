#include "results.h"

#include <stdexcept>
#include <string>

namespace xq::stats {

namespace {
void checkCount(std::int64_t value, const char* name) {
    if (value < 0)
        throw std::invalid_argument(std::string(name) + " count is negative: " + std::to_string(value));
}
}  // namespace

void validate(const Wdl& wdl) {
    checkCount(wdl.wins, "win");
    checkCount(wdl.draws, "draw");
    checkCount(wdl.losses, "loss");
}

void validate(const Penta& penta) {
    static const char* names[] = {"LL", "LD", "DD+WL", "WD", "WW"};
    for (int i = 0; i < 5; ++i) checkCount(penta.pairs[i], names[i]);
}

}  // namespace xq::stats
