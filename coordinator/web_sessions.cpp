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

void Coordinator::saveWebSession(const std::string& idHash, std::int64_t tokenId, const std::string& csrf,
                                 std::int64_t expiresMs, std::int64_t maxSessions) {
    WriteLock lock(*this);
    Transaction tx(store_.db());  // durable before the cookie goes out
    store_.saveWebSession(idHash, tokenId, csrf, expiresMs, nowMs(), maxSessions);
    tx.commit();
}

std::optional<Store::WebSessionRow> Coordinator::findWebSession(const std::string& idHash) {
    std::lock_guard lock(mutex_);
    return store_.findWebSession(idHash, nowMs());
}

void Coordinator::endWebSession(const std::string& idHash) {
    WriteLock lock(*this);
    Transaction tx(store_.db());
    store_.deleteWebSession(idHash);
    tx.commit();
}

}  // namespace xq::coord
