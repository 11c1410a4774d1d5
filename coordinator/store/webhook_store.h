// The SQL side of webhooks (schema version 12): each user's signing secret, and every delivery of a test's
// webhooks (coordinator/common/webhook.h) with its state: pending until it is delivered or given up, tried
// again at next_ms. Works on the Coordinator's connection and opens no transactions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "database.h"

namespace xq::coord {

struct WebhookDeliveryRow {
    std::int64_t id = 0, testId = 0;
    std::string owner, url, format, event, body, state;  // state: pending, delivered or failed
    std::int64_t attempts = 0, nextMs = 0, httpStatus = 0;
    std::string lastError;
    std::int64_t updatedMs = 0;
};

class WebhookStore {
  public:
    explicit WebhookStore(Database& db) : db_(db) {}

    void setSecret(const std::string& owner, const std::string& secret, std::int64_t nowMs);
    std::optional<std::string> secret(const std::string& owner);

    // A pending delivery, due now.
    void enqueue(std::int64_t testId, const std::string& owner, const std::string& url,
                 const std::string& format, const std::string& event, std::int64_t nowMs);
    // Pending deliveries due at `nowMs`, oldest first, each claimed (its next_ms moved to `claimUntilMs`, so
    // that another sender, a replica's, leaves it alone while this one tries it).
    std::vector<WebhookDeliveryRow> claimDue(std::int64_t nowMs, std::int64_t claimUntilMs, int limit);
    void setBody(std::int64_t id, const std::string& body);
    // The outcome of one attempt: delivered, or failed and tried again at `nextMs` (0: given up).
    void recordAttempt(std::int64_t id, bool delivered, std::int64_t httpStatus, const std::string& error,
                       std::int64_t nextMs, std::int64_t nowMs);
    std::vector<WebhookDeliveryRow> ofTest(std::int64_t testId);

  private:
    Database& db_;
};

}  // namespace xq::coord
