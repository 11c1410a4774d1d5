// The coordinator's side of webhooks: a user's secret, the check of a test's webhooks at submit, the queue of
// deliveries (filled in the transaction that starts or ends a test, so that none is lost or made twice), and
// what the sender (coordinator/webhooks/) claims and records.
#include "coordinator.h"

namespace xq::coord {

constexpr int MaxWebhooksPerTest = 8;

void Coordinator::setWebhookSecret(const Caller& caller, const std::string& secret) {
    require(caller, Role::User, "set a webhook secret");
    if (std::string problem = webhookSecretProblem(secret); !problem.empty())
        fail(ErrorCode::InvalidArgument, problem);
    WriteLock lock(*this);
    Transaction tx(store_.db());
    webhooks_.setSecret(caller.name, secret, nowMs());
    tx.commit();
}

void Coordinator::checkWebhooks(const Caller& caller, const v1::TestSpec& spec) {
    if (spec.webhooks_size() == 0) return;
    if (spec.webhooks_size() > MaxWebhooksPerTest)
        fail(ErrorCode::InvalidArgument, "a test may name at most " + std::to_string(MaxWebhooksPerTest) +
                                             " webhooks, not " + std::to_string(spec.webhooks_size()));
    for (const auto& w : spec.webhooks()) {
        if (std::string problem = webhookUrlProblem(w.url()); !problem.empty())
            fail(ErrorCode::InvalidArgument, problem);
        if (!w.format().empty() && !parseWebhookFormat(w.format()))
            fail(ErrorCode::InvalidArgument,
                 "webhook format '" + w.format() +
                     "' is not json, content (Discord) or text (Slack, Mattermost)");
    }
    if (!webhooks_.secret(caller.name))  // the caller (submit) holds the store's lock
        fail(
            ErrorCode::FailedPrecondition,
            "webhooks are signed with your secret, and you have none: set one first with `xq webhook-secret` "
            "(at least " +
                std::to_string(MinWebhookSecretLength) + " characters)");
}

void Coordinator::queueWebhooks(std::int64_t testId, const v1::TestSpec& spec, WebhookEvent event) {
    for (const auto& w : spec.webhooks())
        webhooks_.enqueue(testId, spec.submitter(), w.url(), w.format().empty() ? "json" : w.format(),
                          webhookEventName(event), nowMs());
    if (spec.webhooks_size() > 0 && webhookWake_) webhookWake_();
}

std::vector<Coordinator::WebhookJob> Coordinator::claimWebhookDeliveries(int limit) {
    WriteLock lock(*this);
    Transaction tx(store_.db());
    const std::int64_t now = nowMs();
    std::vector<WebhookJob> jobs;
    for (auto& d : webhooks_.claimDue(now, now + 60'000, limit)) {
        std::string secret = webhooks_.secret(d.owner).value_or("");
        jobs.push_back(WebhookJob{std::move(d), std::move(secret)});
    }
    tx.commit();
    return jobs;
}

void Coordinator::setWebhookBody(std::int64_t deliveryId, const std::string& body) {
    WriteLock lock(*this);
    Transaction tx(store_.db());
    webhooks_.setBody(deliveryId, body);
    tx.commit();
}

void Coordinator::webhookAttempted(const WebhookDeliveryRow& d, bool delivered, int httpStatus,
                                   const std::string& error) {
    WriteLock lock(*this);
    Transaction tx(store_.db());
    const std::int64_t now = nowMs();
    const int attempts = int(d.attempts) + 1;
    std::int64_t next = 0;
    if (!delivered && attempts < options_.webhookAttempts)
        next = now + webhookRetryDelayMs(attempts, options_.webhookRetryMs);
    webhooks_.recordAttempt(d.id, delivered, httpStatus, error, next, now);
    if (!delivered && next == 0)
        store_.addEvent(d.testId, now,
                        "webhook " + d.url + " (" + d.event + ") not delivered after " +
                            std::to_string(attempts) + " attempts: " + error);
    tx.commit();
}

}  // namespace xq::coord
