// SHA-256 of a byte string, for naming networks (xq-<first 12 hex digits>.nnue, see docs/nnue.md). The
// engine carries its own copy: it links nothing from the coordinator, which has one for artifacts.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace xq {

std::array<std::uint8_t, 32> sha256(std::string_view bytes);
// The digest as 64 lower-case hex digits.
std::string sha256Hex(std::string_view bytes);

}  // namespace xq
