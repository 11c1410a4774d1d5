// Logged-in users of the web view: a session per login, named by a random id held in an HttpOnly,
// SameSite=Strict cookie, with a second random value that every form posts back (CSRF). Sessions live in
// the coordinator's store, found by the hash of their id: a login holds on every replica of a shared store
// and across restarts, and a logout ends it everywhere. Thread-safe; the clock is the coordinator's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "coordinator.h"

namespace xq::coord {

struct WebSession {
    Caller caller;
    std::string csrf;
    std::int64_t expiresMs = 0;
};

class WebSessions {
  public:
    WebSessions(Coordinator& coordinator, std::int64_t lifetimeMs, std::size_t maxSessions)
        : coord_(coordinator), lifetimeMs_(lifetimeMs), max_(maxSessions) {}

    // A new session for the caller; returns its id. The oldest sessions go first when there are too many.
    std::string create(const Caller& caller);
    std::optional<WebSession> find(const std::string& id);
    void erase(const std::string& id);
    std::int64_t lifetimeMs() const { return lifetimeMs_; }

  private:
    Coordinator& coord_;
    std::int64_t lifetimeMs_;
    std::size_t max_;
};

}  // namespace xq::coord
