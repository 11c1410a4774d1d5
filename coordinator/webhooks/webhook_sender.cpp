#include "webhook_sender.h"

#include <httplib.h>

#include <string>

#include "coordinator.h"
#include "webhook_body.h"

namespace xq::coord {

WebhookPostResult postWebhook(const std::string& url, const std::string& body, const std::string& signature,
                              const std::string& event, std::int64_t deliveryId) {
    // "scheme://authority" for the client, the rest as the request's path (at least "/").
    const auto authorityStart = url.find("://") + 3;
    const auto pathStart = url.find_first_of("/?#", authorityStart);
    const std::string origin = url.substr(0, pathStart);
    std::string path = pathStart == std::string::npos ? "/" : url.substr(pathStart);
    if (path.empty() || path[0] != '/') path = "/" + path;
    if (auto hash = path.find('#'); hash != std::string::npos) path.resize(hash);
    WebhookPostResult r;
    try {
        httplib::Client client(origin);
        client.set_connection_timeout(5, 0);
        client.set_read_timeout(10, 0);
        client.set_write_timeout(10, 0);
        client.set_follow_location(false);
        httplib::Headers headers = {{WebhookSignatureHeader, signature},
                                    {"X-Xq-Event", event},
                                    {"X-Xq-Delivery", std::to_string(deliveryId)},
                                    {"User-Agent", "xq-coordinator"}};
        auto res = client.Post(path, headers, body, "application/json");
        if (!res) {
            const auto e = res.error();
            r.error = "no answer from " + origin + ": " +
                      (e == httplib::Error::Connection ? std::string("could not connect")
                       : e == httplib::Error::Read     ? std::string("nothing read within 10 s")
                                                       : httplib::to_string(e));
            return r;
        }
        r.status = res->status;
        // The receiver's own words, when it sent a short text (not a page of HTML).
        if (res->status < 200 || res->status >= 300)
            r.error = "the receiver answered HTTP " + std::to_string(res->status) +
                      (res->body.empty() || res->body[0] == '<' ? "" : ": " + res->body.substr(0, 120));
    } catch (const std::exception& e) {
        r.error = std::string("cannot post: ") + e.what();
    }
    return r;
}

WebhookSender::WebhookSender(Coordinator& coordinator, int pollMs) : coord_(coordinator), pollMs_(pollMs) {
    coord_.onWebhookQueued([this] { wake(); });
    thread_ = std::thread([this] { run(); });
}

WebhookSender::~WebhookSender() {
    stop();
}

void WebhookSender::wake() {
    std::lock_guard lock(mutex_);
    woken_ = true;
    cv_.notify_all();
}

void WebhookSender::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && !thread_.joinable()) return;
        stopping_ = true;
        cv_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
    coord_.onWebhookQueued({});
}

void WebhookSender::run() {
    while (true) {
        {
            std::unique_lock lock(mutex_);
            cv_.wait_for(lock, std::chrono::milliseconds(pollMs_), [this] { return woken_ || stopping_; });
            if (stopping_) return;
            woken_ = false;
        }
        try {
            deliverDue();
        } catch (const std::exception&) {
            // A store that cannot be read now (a replica's failover): the deliveries wait for the next round.
        }
    }
}

void WebhookSender::deliverDue() {
    for (auto& job : coord_.claimWebhookDeliveries(16)) {
        auto& d = job.delivery;
        if (d.body.empty()) {
            const auto format = parseWebhookFormat(d.format).value_or(WebhookFormat::Json);
            const auto event = parseWebhookEvent(d.event).value_or(WebhookEvent::Start);
            const std::string& base = coord_.options().publicUrl;
            std::string link;
            if (!base.empty())
                link = (base.back() == '/' ? base.substr(0, base.size() - 1) : base) + "/tests/" +
                       std::to_string(d.testId);
            d.body = webhookBody(format, event, coord_.showTest(d.testId), link);
            coord_.setWebhookBody(d.id, d.body);  // every retry sends what the first attempt sent
        }
        if (job.secret.empty()) {
            coord_.webhookAttempted(d, false, 0, "its owner has no webhook secret any more");
            continue;
        }
        auto result = postWebhook(d.url, d.body, webhookSignature(job.secret, d.body), d.event, d.id);
        coord_.webhookAttempted(d, result.error.empty(), result.status, result.error);
        std::lock_guard lock(mutex_);
        if (stopping_) return;
    }
}

}  // namespace xq::coord
