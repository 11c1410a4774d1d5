// The store's web view sessions (schema 8): saved at login, read by every page that needs one, deleted at
// logout; expired and surplus sessions go when a new one is saved.
#include "store.h"

namespace xq::coord {

void Store::saveWebSession(const std::string& idHash, std::int64_t tokenId, const std::string& csrf,
                           std::int64_t expiresMs, std::int64_t nowMs, std::int64_t maxSessions) {
    db_.prepare("DELETE FROM web_sessions WHERE expires_ms <= ?").bind(1, nowMs).run();
    auto count = db_.prepare("SELECT COUNT(*) FROM web_sessions");
    count.step();
    if (std::int64_t surplus = count.int64(0) - maxSessions + 1; surplus > 0)
        db_.prepare(
               "DELETE FROM web_sessions WHERE id_hash IN "
               "(SELECT id_hash FROM web_sessions ORDER BY expires_ms LIMIT ?)")
            .bind(1, surplus)
            .run();
    db_.prepare("INSERT INTO web_sessions (id_hash, token_id, csrf, expires_ms) VALUES (?, ?, ?, ?)")
        .bind(1, idHash)
        .bind(2, tokenId)
        .bind(3, csrf)
        .bind(4, expiresMs)
        .run();
}

std::optional<Store::WebSessionRow> Store::findWebSession(const std::string& idHash, std::int64_t nowMs) {
    auto s = db_.prepare(
        "SELECT t.id, t.role, t.name, s.csrf, s.expires_ms FROM web_sessions s JOIN tokens t ON "
        "t.id = s.token_id WHERE s.id_hash = ? AND s.expires_ms > ?");
    s.bind(1, idHash).bind(2, nowMs);
    if (!s.step()) return std::nullopt;
    return WebSessionRow{{s.int64(0), s.text(1), s.text(2)}, s.text(3), s.int64(4)};
}

void Store::deleteWebSession(const std::string& idHash) {
    db_.prepare("DELETE FROM web_sessions WHERE id_hash = ?").bind(1, idHash).run();
}

}  // namespace xq::coord
