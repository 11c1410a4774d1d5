// Sends a test's webhook deliveries (coordinator/common/webhook.h): a thread of its own claims the due
// deliveries from the store, builds each body once from the test's view (client/webhook_body.h), signs it
// with the owner's secret, POSTs it with short timeouts and records the outcome, so that a slow or dead
// receiver never holds up the coordinator and a failed delivery is tried again after a growing delay.
// Deliveries live in the store: a restart goes on with them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace xq::coord {

class Coordinator;

class WebhookSender {
  public:
    // Starts the thread; `pollMs` bounds how late a retry that came due is noticed.
    explicit WebhookSender(Coordinator& coordinator, int pollMs = 500);
    ~WebhookSender();
    WebhookSender(const WebhookSender&) = delete;
    WebhookSender& operator=(const WebhookSender&) = delete;

    void wake();
    void stop();

  private:
    void run();
    void deliverDue();

    Coordinator& coord_;
    const int pollMs_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool woken_ = false, stopping_ = false;
    std::thread thread_;
};

// One POST of `body` to `url` with the signature and event headers: the HTTP status (0: no answer) and, on
// failure, why ("" when the receiver answered 2xx).
struct WebhookPostResult {
    int status = 0;
    std::string error;
};
WebhookPostResult postWebhook(const std::string& url, const std::string& body, const std::string& signature,
                              const std::string& event, std::int64_t deliveryId);

}  // namespace xq::coord
