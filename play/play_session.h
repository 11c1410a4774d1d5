// Inside `xq play`'s server: one game's session (a Xiangqi or a Capture Go game, its lock and when it was
// last seen) and the JSON helpers the routes of both games share (replies, reading request bodies).
#pragma once

#include <httplib.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "go_game.h"
#include "play_game.h"
#include "play_server.h"

namespace xq::play {

struct PlayServer::Session {
    std::mutex mutex;                                // one request at a time per game
    std::unique_ptr<PlayGame> game;                  // Xiangqi
    std::unique_ptr<GoPlayGame> go;                  // Capture Go
    std::chrono::steady_clock::time_point lastSeen;  // guarded by the server's mutex
};

namespace api {

void reply(httplib::Response& res, int status, const nlohmann::json& body);
void fail(httplib::Response& res, int status, const std::string& message);
// The request's JSON object ({} for an empty body); throws std::invalid_argument for anything else.
nlohmann::json bodyOf(const httplib::Request& req);
// A field of the body, or `fallback` when absent; throws std::invalid_argument naming the field when it
// has the wrong type.
std::string stringField(const nlohmann::json& j, const char* name, const std::string& fallback);
// A whole number from lo to hi; throws std::invalid_argument "size must be a whole number from 5 to 19".
int intField(const nlohmann::json& j, const char* name, int fallback, int lo, int hi);

}  // namespace api

}  // namespace xq::play
