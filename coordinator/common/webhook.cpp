#include "webhook.h"

#include <algorithm>
#include <cctype>

#include "errors.h"
#include "util/sha256.h"

namespace xq::coord {

const char* webhookFormatName(WebhookFormat f) {
    switch (f) {
        case WebhookFormat::Content:
            return "content";
        case WebhookFormat::Text:
            return "text";
        case WebhookFormat::Json:
            break;
    }
    return "json";
}

const char* webhookEventName(WebhookEvent e) {
    switch (e) {
        case WebhookEvent::Finish:
            return "finish";
        case WebhookEvent::Failure:
            return "failure";
        case WebhookEvent::Start:
            break;
    }
    return "start";
}

std::optional<WebhookFormat> parseWebhookFormat(const std::string& name) {
    for (auto f : {WebhookFormat::Json, WebhookFormat::Content, WebhookFormat::Text})
        if (name == webhookFormatName(f)) return f;
    return std::nullopt;
}

std::optional<WebhookEvent> parseWebhookEvent(const std::string& name) {
    for (auto e : {WebhookEvent::Start, WebhookEvent::Finish, WebhookEvent::Failure})
        if (name == webhookEventName(e)) return e;
    return std::nullopt;
}

std::string webhookUrlProblem(const std::string& url) {
    const std::string named = "webhook URL '" + url.substr(0, 200) + (url.size() > 200 ? "...'" : "'");
    if (url.empty()) return "a webhook URL is empty";
    if (url.size() > 2000) return named + " is longer than 2000 characters";
    for (unsigned char c : url)
        if (c <= ' ' || c == 0x7f) return named + " has a space or a control character";
    std::string rest;
    if (url.rfind("http://", 0) == 0)
        rest = url.substr(7);
    else if (url.rfind("https://", 0) == 0)
        rest = url.substr(8);
    else
        return named + " must start with http:// or https://";
    std::string authority = rest.substr(0, rest.find_first_of("/?#"));
    if (authority.find('@') != std::string::npos)
        return named +
               " has a user or password in it (it would be shown on the test's page): put the secret "
               "in the receiver's check of the signature instead";
    std::string host = authority, port;
    bool hasPort = false;
    if (!authority.empty() && authority[0] == '[') {  // an IPv6 literal
        auto close = authority.find(']');
        if (close == std::string::npos) return named + " has an IPv6 address without its closing ']'";
        host = authority.substr(0, close + 1);
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') return named + " has something after the IPv6 address";
            hasPort = true;
            port = authority.substr(close + 2);
        }
    } else if (auto colon = authority.find(':'); colon != std::string::npos) {
        host = authority.substr(0, colon);
        hasPort = true;
        port = authority.substr(colon + 1);
    }
    if (host.empty()) return named + " has no host";
    if (hasPort) {
        bool digits = !port.empty() && port.size() <= 5 &&
                      std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); });
        if (!digits || std::stoi(port) < 1 || std::stoi(port) > 65535)
            return named + " has a port that is not a number from 1 to 65535";
    }
    return "";
}

Webhook parseWebhookOption(const std::string& text) {
    Webhook w;
    auto comma = text.find(",format=");
    w.url = text.substr(0, comma);
    if (comma != std::string::npos) {
        std::string name = text.substr(comma + 8);
        auto format = parseWebhookFormat(name);
        if (!format)
            fail(ErrorCode::InvalidArgument,
                 "webhook format '" + name + "' is not json, content (Discord) or text (Slack, Mattermost)");
        w.format = *format;
    }
    if (std::string problem = webhookUrlProblem(w.url); !problem.empty())
        fail(ErrorCode::InvalidArgument, problem);
    return w;
}

std::string webhookSecretProblem(const std::string& secret) {
    if (secret.size() < MinWebhookSecretLength)
        return "a webhook secret must have at least " + std::to_string(MinWebhookSecretLength) +
               " characters (this one has " + std::to_string(secret.size()) +
               "): a short one can be guessed from the signatures it makes";
    if (secret.size() > 1024) return "a webhook secret must have at most 1024 characters";
    for (unsigned char c : secret)
        if (c < ' ' || c == 0x7f) return "a webhook secret must not have control characters";
    return "";
}

std::string webhookSignature(const std::string& secret, const std::string& body) {
    return "sha256=" + hmacSha256Hex(secret, body);
}

std::int64_t webhookRetryDelayMs(int failedAttempts, std::int64_t firstDelayMs) {
    if (failedAttempts < 1) return 0;
    std::int64_t delay = std::max<std::int64_t>(1, firstDelayMs);
    for (int i = 1; i < failedAttempts && delay < 3600000; ++i) delay *= 2;
    return std::min<std::int64_t>(delay, 3600000);
}

}  // namespace xq::coord
