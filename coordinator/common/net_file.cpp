#include "net_file.h"

#include "nnue_network.h"

namespace xq::coord {

std::string networkFileProblem(const std::string& path, NetHeader* header) {
    std::string bytes;
    try {
        bytes = nnue::readNetworkBytes(path);
    } catch (const nnue::NetworkError&) {
        return "cannot be read";
    }
    try {
        const nnue::Network net = nnue::parseNetwork(bytes);
        if (header) {
            header->hidden = std::uint32_t(net.hidden);
            header->description = net.description;
        }
        return {};
    } catch (const nnue::NetworkError& e) {
        return e.what();
    }
}

}  // namespace xq::coord
