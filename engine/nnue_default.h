// The network compiled into the engine, if any: CMake's XQ_DEFAULT_NET names a file (engine/nets/xq-*.nnue)
// that the build embeds with .incbin. With one, `Use NNUE` defaults to true; without, the hand-written
// evaluation stays the default and these return nothing.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "nnue_network.h"

namespace xq::nnue {

bool hasDefaultNetwork();
// The embedded file's bytes (empty without one) and the path it was built from.
std::string_view defaultNetworkBytes();
std::string defaultNetworkPath();
// The embedded network, parsed once; null without one (or if it is malformed, which the tests rule out).
std::shared_ptr<const Network> defaultNetwork();

}  // namespace xq::nnue
