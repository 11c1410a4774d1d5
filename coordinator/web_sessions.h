// Logged-in users of the web view: a session per login, named by a random id held in an HttpOnly,
// SameSite=Strict cookie, with a second random value that every form posts back (CSRF). Sessions live in
// memory: a restarted coordinator asks users to log in again. Thread-safe; the clock is injected.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "coordinator.h"

namespace xq::coord {

struct WebSession {
    Caller caller;
    std::string csrf;
    std::int64_t expiresMs = 0;
};

class WebSessions {
  public:
    WebSessions(std::int64_t lifetimeMs, std::size_t maxSessions)
        : lifetimeMs_(lifetimeMs), max_(maxSessions) {}

    // A new session for the caller; returns its id. The oldest sessions go first when there are too many.
    std::string create(const Caller& caller, std::int64_t nowMs);
    std::optional<WebSession> find(const std::string& id, std::int64_t nowMs);
    void erase(const std::string& id);
    std::int64_t lifetimeMs() const { return lifetimeMs_; }

  private:
    std::int64_t lifetimeMs_;
    std::size_t max_;
    std::mutex mutex_;
    std::unordered_map<std::string, WebSession> sessions_;
};

}  // namespace xq::coord
