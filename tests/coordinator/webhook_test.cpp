// coordinator/common/webhook.h: which webhook URLs and secrets are taken, and why the others are not; the
// signature a receiver checks; when a failed delivery is tried again.
#include "webhook.h"

#include <gtest/gtest.h>

#include "errors.h"
#include "util/sha256.h"

namespace webhook_test {

using namespace xq::coord;

TEST(Webhook, UrlsOfHttpAndHttpsWithAHostAreTaken) {
    for (const char* url : {"http://127.0.0.1:8080/hook", "https://hooks.example.org/services/T1/B2/x?y=1",
                            "http://[::1]:9000/", "https://ci.example.org"})
        EXPECT_EQ(webhookUrlProblem(url), "") << url;
}

TEST(Webhook, AMalformedUrlIsRefusedWithWhatIsWrong) {
    struct Case {
        std::string url, says;
    };
    for (const Case& c :
         std::vector<Case>{{"", "empty"},
                           {"ftp://example.org/x", "must start with http:// or https://"},
                           {"example.org/hook", "must start with http:// or https://"},
                           {"http:///path", "has no host"},
                           {"http://:80/path", "has no host"},
                           {"http://example.org:http/", "port that is not a number"},
                           {"http://example.org:70000/", "port that is not a number"},
                           {"http://example.org:/", "port that is not a number"},
                           {"http://[::1/", "without its closing ']'"},
                           {"http://exa mple.org/", "space or a control character"},
                           {"http://user:pw@example.org/", "user or password"},
                           {"http://example.org/" + std::string(2000, 'a'), "longer than 2000"}}) {
        std::string problem = webhookUrlProblem(c.url);
        EXPECT_NE(problem.find(c.says), std::string::npos) << c.url.substr(0, 40) << ": " << problem;
    }
}

TEST(Webhook, TheOptionTakesAUrlAndAFormat) {
    auto plain = parseWebhookOption("https://ci.example.org/xq");
    EXPECT_EQ(plain.url, "https://ci.example.org/xq");
    EXPECT_EQ(plain.format, WebhookFormat::Json);
    auto chat = parseWebhookOption("https://hooks.slack.example/T/B,format=text");
    EXPECT_EQ(chat.url, "https://hooks.slack.example/T/B");
    EXPECT_EQ(chat.format, WebhookFormat::Text);
    EXPECT_EQ(parseWebhookOption("http://d.example/api/webhooks/1/x,format=content").format,
              WebhookFormat::Content);
    try {
        parseWebhookOption("https://ci.example.org,format=xml");
        FAIL() << "an unknown format is refused";
    } catch (const CoordError& e) {
        EXPECT_EQ(e.code, ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("format 'xml'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseWebhookOption("not a url"), CoordError);
}

TEST(Webhook, ASecretShorterThanSixteenCharactersIsRefused) {
    EXPECT_NE(webhookSecretProblem("short").find("at least 16 characters (this one has 5)"),
              std::string::npos);
    EXPECT_EQ(webhookSecretProblem("0123456789abcdef"), "");
    EXPECT_NE(webhookSecretProblem("0123456789abcdef\n").find("control"), std::string::npos);
}

TEST(Webhook, TheSignatureIsTheHmacOfTheBodyUnderTheSecret) {
    const std::string secret = "a secret of the user", body = R"({"event":"finish","test_id":7})";
    EXPECT_EQ(webhookSignature(secret, body), "sha256=" + xq::hmacSha256Hex(secret, body));
    EXPECT_NE(webhookSignature(secret, body), webhookSignature(secret, body + " "));
    EXPECT_NE(webhookSignature(secret, body), webhookSignature(secret + "!", body));
}

TEST(Webhook, FailedDeliveriesAreRetriedWithADoublingDelayUpToAnHour) {
    EXPECT_EQ(webhookRetryDelayMs(1), 5000);
    EXPECT_EQ(webhookRetryDelayMs(2), 10000);
    EXPECT_EQ(webhookRetryDelayMs(3), 20000);
    EXPECT_EQ(webhookRetryDelayMs(20), 3600000);
    std::int64_t total = 0;
    for (int n = 1; n < WebhookMaxAttempts; ++n) total += webhookRetryDelayMs(n);
    EXPECT_EQ(total, 5000 * 127) << "about 21 minutes from the first attempt to the last";
}

TEST(Webhook, NamesOfFormatsAndEventsReadBack) {
    for (auto f : {WebhookFormat::Json, WebhookFormat::Content, WebhookFormat::Text})
        EXPECT_EQ(parseWebhookFormat(webhookFormatName(f)), f);
    for (auto e : {WebhookEvent::Start, WebhookEvent::Finish, WebhookEvent::Failure})
        EXPECT_EQ(parseWebhookEvent(webhookEventName(e)), e);
    EXPECT_FALSE(parseWebhookFormat("xml"));
}

}  // namespace webhook_test
