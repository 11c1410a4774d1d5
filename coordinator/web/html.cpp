#include "html.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>

namespace xq::coord::html {

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string urlEncode(std::string_view text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string age(std::int64_t unixSeconds, std::int64_t nowUnix) {
    if (unixSeconds <= 0) return "-";
    return duration(double(std::max<std::int64_t>(0, nowUnix - unixSeconds)));
}

std::string duration(double seconds) {
    if (!(seconds >= 0)) return "-";
    if (seconds < 10 && seconds != std::floor(seconds)) return fixed(seconds, 1) + " s";
    const auto d = std::int64_t(seconds);
    if (d < 120) return std::to_string(d) + " s";
    if (d < 7200) return std::to_string(d / 60) + " min";
    if (d < 172800) return std::to_string(d / 3600) + " h";
    return std::to_string(d / 86400) + " d";
}

std::string utcTime(std::int64_t unixSeconds) {
    if (unixSeconds <= 0) return "-";
    std::time_t t = std::time_t(unixSeconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

std::string compact(double v) {
    if (v >= 1e9) return fixed(v / 1e9, 2) + "G";
    if (v >= 1e6) return fixed(v / 1e6, 2) + "M";
    if (v >= 1e4) return fixed(v / 1e3, 1) + "k";
    return fixed(v, 0);
}

}  // namespace xq::coord::html
