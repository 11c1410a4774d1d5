// Internal to the Capture Go library: cat(), which builds a message from pieces (text, characters,
// numbers), and quoted(), which puts a piece of input between quotes in a message. It keeps the library free
// of `"literal" + std::string(...)`, which g++ 12 at -O3 misreports under -Wrestrict (GCC bug 105651), and it
// reads better than long chains of +.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

namespace xq::capturego::detail {

template <typename T>
void appendPart(std::string& out, const T& part) {
    if constexpr (std::is_same_v<T, char>)
        out.push_back(part);
    else if constexpr (std::is_integral_v<T>)
        out.append(std::to_string(part));
    else
        out.append(std::string_view(part));
}

template <typename... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    (appendPart(out, parts), ...);
    return out;
}

inline std::string quoted(std::string_view s) {
    return cat('\'', s, '\'');
}

}  // namespace xq::capturego::detail
