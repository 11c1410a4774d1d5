// The coordinator's side of the web view's login sessions: stored durably through the store, so a login
// holds across restarts and replicas (web/web_sessions.h is the web side: cookies, CSRF tokens).
#include "coordinator.h"

namespace xq::coord {

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
