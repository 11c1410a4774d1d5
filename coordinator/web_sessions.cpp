#include "web_sessions.h"

#include <algorithm>

#include "auth.h"

namespace xq::coord {

std::string WebSessions::create(const Caller& caller, std::int64_t nowMs) {
    std::lock_guard lock(mutex_);
    for (auto it = sessions_.begin(); it != sessions_.end();)
        it = it->second.expiresMs <= nowMs ? sessions_.erase(it) : std::next(it);
    while (sessions_.size() >= max_ && !sessions_.empty()) {
        auto oldest = std::min_element(sessions_.begin(), sessions_.end(), [](const auto& a, const auto& b) {
            return a.second.expiresMs < b.second.expiresMs;
        });
        sessions_.erase(oldest);
    }
    std::string id = generateToken();
    sessions_[id] = WebSession{caller, generateToken(), nowMs + lifetimeMs_};
    return id;
}

std::optional<WebSession> WebSessions::find(const std::string& id, std::int64_t nowMs) {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return std::nullopt;
    if (it->second.expiresMs <= nowMs) {
        sessions_.erase(it);
        return std::nullopt;
    }
    return it->second;
}

void WebSessions::erase(const std::string& id) {
    std::lock_guard lock(mutex_);
    sessions_.erase(id);
}

}  // namespace xq::coord
