#include "webhook_store.h"

namespace xq::coord {

namespace {

constexpr const char* Columns =
    "id, test_id, owner, url, format, event, body, state, attempts, next_ms, http_status, last_error, "
    "updated_ms";

WebhookDeliveryRow rowOf(Statement& s) {
    WebhookDeliveryRow r;
    r.id = s.int64(0);
    r.testId = s.int64(1);
    r.owner = s.text(2);
    r.url = s.text(3);
    r.format = s.text(4);
    r.event = s.text(5);
    r.body = s.text(6);
    r.state = s.text(7);
    r.attempts = s.int64(8);
    r.nextMs = s.int64(9);
    r.httpStatus = s.int64(10);
    r.lastError = s.text(11);
    r.updatedMs = s.int64(12);
    return r;
}

}  // namespace

void WebhookStore::setSecret(const std::string& owner, const std::string& secret, std::int64_t nowMs) {
    db_.prepare("DELETE FROM webhook_secrets WHERE owner = ?").bind(1, owner).run();
    db_.prepare("INSERT INTO webhook_secrets (owner, secret, updated_ms) VALUES (?, ?, ?)")
        .bind(1, owner)
        .bind(2, secret)
        .bind(3, nowMs)
        .run();
}

std::optional<std::string> WebhookStore::secret(const std::string& owner) {
    auto s = db_.prepare("SELECT secret FROM webhook_secrets WHERE owner = ?");
    s.bind(1, owner);
    if (!s.step()) return std::nullopt;
    return s.text(0);
}

void WebhookStore::enqueue(std::int64_t testId, const std::string& owner, const std::string& url,
                           const std::string& format, const std::string& event, std::int64_t nowMs) {
    db_.prepare(
           "INSERT INTO webhook_deliveries (test_id, owner, url, format, event, state, next_ms, updated_ms) "
           "VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)")
        .bind(1, testId)
        .bind(2, owner)
        .bind(3, url)
        .bind(4, format)
        .bind(5, event)
        .bind(6, nowMs)
        .bind(7, nowMs)
        .run();
}

std::vector<WebhookDeliveryRow> WebhookStore::claimDue(std::int64_t nowMs, std::int64_t claimUntilMs,
                                                       int limit) {
    std::vector<WebhookDeliveryRow> due;
    {
        auto s = db_.prepare(
            std::string("SELECT ") + Columns +
            " FROM webhook_deliveries WHERE state = 'pending' AND next_ms <= ? ORDER BY id LIMIT ?");
        s.bind(1, nowMs).bind(2, std::int64_t(limit));
        while (s.step()) due.push_back(rowOf(s));
    }
    std::vector<WebhookDeliveryRow> claimed;
    for (auto& r : due) {
        // Claimed only if nobody claimed it since it was read.
        auto u = db_.prepare(
            "UPDATE webhook_deliveries SET next_ms = ? WHERE id = ? AND state = 'pending' AND "
            "next_ms = ?");
        u.bind(1, claimUntilMs).bind(2, r.id).bind(3, r.nextMs).run();
        if (db_.changes() == 1) claimed.push_back(std::move(r));
    }
    return claimed;
}

void WebhookStore::setBody(std::int64_t id, const std::string& body) {
    db_.prepare("UPDATE webhook_deliveries SET body = ? WHERE id = ?").bind(1, body).bind(2, id).run();
}

void WebhookStore::recordAttempt(std::int64_t id, bool delivered, std::int64_t httpStatus,
                                 const std::string& error, std::int64_t nextMs, std::int64_t nowMs) {
    const char* state = delivered ? "delivered" : (nextMs > 0 ? "pending" : "failed");
    db_.prepare(
           "UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, http_status = ?, last_error = "
           "?, "
           "next_ms = ?, updated_ms = ? WHERE id = ?")
        .bind(1, std::string_view(state))
        .bind(2, httpStatus)
        .bind(3, error.substr(0, 300))
        .bind(4, nextMs)
        .bind(5, nowMs)
        .bind(6, id)
        .run();
}

std::vector<WebhookDeliveryRow> WebhookStore::ofTest(std::int64_t testId) {
    std::vector<WebhookDeliveryRow> rows;
    auto s = db_.prepare(std::string("SELECT ") + Columns +
                         " FROM webhook_deliveries WHERE test_id = ? ORDER BY id");
    s.bind(1, testId);
    while (s.step()) rows.push_back(rowOf(s));
    return rows;
}

}  // namespace xq::coord
