#include "web_sessions.h"

#include "auth.h"

namespace xq::coord {

std::string WebSessions::create(const Caller& caller) {
    std::string id = generateToken();
    coord_.saveWebSession(hashToken(id), caller.tokenId, generateToken(), coord_.nowMs() + lifetimeMs_,
                          std::int64_t(max_));
    return id;
}

std::optional<WebSession> WebSessions::find(const std::string& id) {
    auto row = coord_.findWebSession(hashToken(id));
    if (!row) return std::nullopt;
    return WebSession{Caller{row->token.id, parseRole(row->token.role), row->token.name}, row->csrf,
                      row->expiresMs};
}

void WebSessions::erase(const std::string& id) {
    coord_.endWebSession(hashToken(id));
}

}  // namespace xq::coord
