#include "nnue_default.h"

#include <iostream>

// XQ_DEFAULT_NET_PATH is set for this file alone by engine/CMakeLists.txt when XQ_DEFAULT_NET is; the
// file's SHA-256 is on the command line too (XQ_DEFAULT_NET_SHA256), so that ccache cannot hand back an
// object holding an older file of the same name.
#ifdef XQ_DEFAULT_NET_PATH
asm(".pushsection .rodata\n"
    ".balign 64\n"
    ".global xqDefaultNetBegin\n"
    ".hidden xqDefaultNetBegin\n"
    "xqDefaultNetBegin:\n"
    ".incbin \"" XQ_DEFAULT_NET_PATH
    "\"\n"
    ".global xqDefaultNetEnd\n"
    ".hidden xqDefaultNetEnd\n"
    "xqDefaultNetEnd:\n"
    ".byte 0\n"
    ".popsection\n");
extern "C" const char xqDefaultNetBegin[];
extern "C" const char xqDefaultNetEnd[];
#endif

namespace xq::nnue {

bool hasDefaultNetwork() {
#ifdef XQ_DEFAULT_NET_PATH
    return true;
#else
    return false;
#endif
}

std::string_view defaultNetworkBytes() {
#ifdef XQ_DEFAULT_NET_PATH
    return std::string_view(xqDefaultNetBegin, std::size_t(xqDefaultNetEnd - xqDefaultNetBegin));
#else
    return {};
#endif
}

std::string defaultNetworkPath() {
#ifdef XQ_DEFAULT_NET_PATH
    return XQ_DEFAULT_NET_PATH;
#else
    return "";
#endif
}

std::shared_ptr<const Network> defaultNetwork() {
    static const std::shared_ptr<const Network> net = []() -> std::shared_ptr<const Network> {
        if (!hasDefaultNetwork()) return nullptr;
        try {
            return std::make_shared<const Network>(parseNetwork(defaultNetworkBytes()));
        } catch (const NetworkError& e) {
            std::cerr << "xq-engine: the embedded network " << defaultNetworkPath()
                      << " is refused: " << e.what() << "\n";
            return nullptr;
        }
    }();
    return net;
}

}  // namespace xq::nnue
