// Reading the web view's requests and writing its answers, for the routes of tests (web_server.cpp) and of
// runs (web_run_routes.cpp): form fields of either encoding, whole numbers a user typed, ids in a path,
// engine settings typed in one field, and pages, redirects and JSON sent without caching.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "errors.h"

namespace xq::coord::webform {

// The one place where the coordinator's errors become HTTP statuses.
int httpStatus(ErrorCode c);
// A form field of either encoding (url-encoded or multipart); "" when absent.
std::string formValue(const httplib::Request& req, const std::string& name);
// A whole number typed in a field (spaces around it allowed); `fallback` when empty. InvalidArgument
// (CoordError) naming `what` otherwise.
std::int64_t parseNumber(const std::string& text, const std::string& what, std::int64_t fallback = 0);
// The whole number of the path's regex group `group`.
std::int64_t pathId(const httplib::Request& req, std::size_t group, const char* what);
// Engine settings from a form field: pieces separated by ';' or new lines; within a piece, spaces
// separate settings unless it is one `option.NAME=VALUE` (whose NAME may hold spaces).
std::vector<std::string> settingsField(const std::string& text);

void sendPage(httplib::Response& res, const std::string& html);
void redirect(httplib::Response& res, const std::string& to);  // 303 See Other
void sendJson(httplib::Response& res, const nlohmann::json& j);

}  // namespace xq::coord::webform
