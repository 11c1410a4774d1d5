#include "web_form.h"

#include "errors.h"

namespace xq::coord::webform {

int httpStatus(ErrorCode c) {
    switch (c) {
        case ErrorCode::InvalidArgument:
            return 400;
        case ErrorCode::NotFound:
            return 404;
        case ErrorCode::Unauthenticated:
            return 401;
        case ErrorCode::PermissionDenied:
            return 403;
        case ErrorCode::FailedPrecondition:
            return 409;
        case ErrorCode::ResourceExhausted:
            return 429;
    }
    return 500;
}

std::string formValue(const httplib::Request& req, const std::string& name) {
    if (req.has_param(name)) return req.get_param_value(name);
    if (req.has_file(name)) return req.get_file_value(name).content;
    return {};
}

std::int64_t parseNumber(const std::string& text, const std::string& what, std::int64_t fallback) {
    std::string t = text;
    t.erase(0, t.find_first_not_of(" \t"));
    t.erase(t.find_last_not_of(" \t") + 1);
    if (t.empty()) return fallback;
    try {
        std::size_t used = 0;
        long long v = std::stoll(t, &used);
        if (used == t.size()) return v;
    } catch (const std::exception&) {
    }
    throw CoordError(ErrorCode::InvalidArgument,
                     what + " must be a whole number, got '" + t.substr(0, 40) + "'");
}

std::int64_t pathId(const httplib::Request& req, std::size_t group, const char* what) {
    return parseNumber(req.matches[group].str(), what);
}

std::vector<std::string> settingsField(const std::string& text) {
    std::vector<std::string> out;
    std::string piece;
    auto flush = [&] {
        piece.erase(0, piece.find_first_not_of(" \t\r"));
        piece.erase(piece.find_last_not_of(" \t\r") + 1);
        if (!piece.empty()) out.push_back(piece);
        piece.clear();
    };
    for (char c : text) {
        if (c == ';' || c == '\n')
            flush();
        else
            piece += c;
    }
    flush();
    return out;
}

void sendPage(httplib::Response& res, const std::string& html) {
    res.set_header("Cache-Control", "no-store");
    res.set_content(html, "text/html; charset=utf-8");
}

void redirect(httplib::Response& res, const std::string& to) {
    res.status = 303;
    res.set_header("Location", to);
}

void sendJson(httplib::Response& res, const nlohmann::json& j) {
    res.set_header("Cache-Control", "no-store");
    res.set_content(j.dump(), "application/json");
}

}  // namespace xq::coord::webform
