// Webhooks: the URLs a test names so that the coordinator tells them when it starts, finishes or fails, the
// way a pull request's page hears of its checks. What a webhook is (its URL and the body's format), how it is
// checked when a test is submitted, how a delivery is signed (an HMAC of the user's secret), and when a
// failed delivery is tried again. Plain functions: the store keeps the deliveries, coordinator/webhooks/
// sends them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace xq::coord {

// What the body looks like: "json" (the test's figures for a program: WebhookEvent, test id, link, engines,
// W/D/L, pentanomial, Elo, LLR, verdict), or one line of text for a chat service, in the field it reads:
// "content" (Discord) or "text" (Slack, Mattermost, Rocket.Chat, Zulip's Slack-compatible hook).
enum class WebhookFormat { Json, Content, Text };

struct Webhook {
    std::string url;
    WebhookFormat format = WebhookFormat::Json;
};

// "start", "finish" (an SPRT's verdict or its games played) or "failure" (stopped, or could not be played).
enum class WebhookEvent { Start, Finish, Failure };

const char* webhookFormatName(WebhookFormat f);
const char* webhookEventName(WebhookEvent e);
std::optional<WebhookFormat> parseWebhookFormat(const std::string& name);
std::optional<WebhookEvent> parseWebhookEvent(const std::string& name);

// Empty if `url` is one the coordinator can POST to: http:// or https://, a host, an optional numeric port,
// no spaces or control characters, at most 2000 characters, no user:password part (it would be shown on
// pages); otherwise why not, naming the URL.
std::string webhookUrlProblem(const std::string& url);

// `xq submit --webhook` and the form: "URL" or "URL,format=text". Throws CoordError(InvalidArgument) naming
// what is wrong.
Webhook parseWebhookOption(const std::string& text);

// The shortest secret a user may sign with (16 characters), and why `secret` will not do ("" if it will).
constexpr std::size_t MinWebhookSecretLength = 16;
std::string webhookSecretProblem(const std::string& secret);

// The header a receiver checks, "sha256=" and the HMAC-SHA256 of the body under the user's secret (the form
// GitHub's own webhooks use), under the name WebhookSignatureHeader.
inline constexpr const char* WebhookSignatureHeader = "X-Xq-Signature-256";
std::string webhookSignature(const std::string& secret, const std::string& body);

// Deliveries are tried up to WebhookMaxAttempts times (by default); after failed attempt n (1, 2, ...) the
// next comes 2^(n-1) * firstDelayMs later, at most an hour: 5 s, 10 s, 20 s, ... about 21 minutes in all
// before it is given up.
constexpr int WebhookMaxAttempts = 8;
std::int64_t webhookRetryDelayMs(int failedAttempts, std::int64_t firstDelayMs = 5000);

}  // namespace xq::coord
