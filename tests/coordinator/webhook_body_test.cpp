// coordinator/client/webhook_body.h: what a test's webhooks receive, for a program (JSON) and for a chat
// service (one line in "content" or "text").
#include "webhook_body.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace webhook_body_test {

using namespace xq::coord;
using nlohmann::json;
namespace v1 = xq::v1;

v1::TestView finishedSprt() {
    v1::TestView v;
    auto* s = v.mutable_summary();
    s->set_id(12);
    s->set_state(v1::TEST_STATE_FINISHED);
    s->set_description("PR #7: a sharper futility margin");
    s->set_is_sprt(true);
    s->set_result("H1 accepted");
    s->set_games(120);
    for (int n : {50, 40, 30}) s->add_wdl(std::uint64_t(n));
    for (int n : {2, 10, 26, 15, 7}) s->mutable_penta()->add_counts(std::uint64_t(n));
    s->set_elo(-0.04);
    s->set_elo_error(20.14);
    s->set_llr(2.96);
    s->set_lower_bound(-2.94);
    s->set_upper_bound(2.94);
    auto* m = v.mutable_spec()->mutable_match();
    m->mutable_base()->set_name("base");
    m->mutable_dev()->set_name("dev");
    m->mutable_dev()->mutable_source()->set_commit("0123456789abcdef0123456789abcdef01234567");
    m->mutable_dev()->mutable_source()->set_subject("search: a sharper futility margin");
    v.mutable_spec()->mutable_sprt()->set_elo0(0);
    v.mutable_spec()->mutable_sprt()->set_elo1(2);
    return v;
}

TEST(WebhookBody, JsonCarriesTheEventTheFiguresAndTheVerdict) {
    json body = json::parse(webhookBody(WebhookFormat::Json, WebhookEvent::Finish, finishedSprt(),
                                        "https://xq.example/tests/12"));
    EXPECT_EQ(body["event"], "finish");
    EXPECT_EQ(body["test_id"], 12);
    EXPECT_EQ(body["link"], "https://xq.example/tests/12");
    EXPECT_EQ(body["state"], "finished");
    EXPECT_EQ(body["description"], "PR #7: a sharper futility margin");
    EXPECT_EQ(body["wdl"], json({50, 40, 30}));
    EXPECT_EQ(body["penta"], json({2, 10, 26, 15, 7}));
    EXPECT_EQ(body["llr"], 2.96);
    EXPECT_EQ(body["result"], "H1 accepted");
    EXPECT_EQ(body["verdict"], "passed: H1 accepted");
    EXPECT_EQ(body["exit_code"], 0);
    EXPECT_EQ(body["dev"]["source"]["subject"], "search: a sharper futility margin");
    EXPECT_EQ(body["sprt_config"]["elo1"], 2);
}

TEST(WebhookBody, AStartHasNoVerdictYet) {
    auto view = finishedSprt();
    view.mutable_summary()->set_state(v1::TEST_STATE_RUNNING);
    json body = json::parse(webhookBody(WebhookFormat::Json, WebhookEvent::Start, view, ""));
    EXPECT_EQ(body["event"], "start");
    EXPECT_FALSE(body.contains("verdict")) << body.dump();
}

TEST(WebhookBody, ChatServicesGetOneLineInTheirField) {
    std::string line =
        "xq test 12 (PR #7: a sharper futility margin) finished: passed: H1 accepted. dev "
        "0123456789ab \"search: a sharper futility margin\" vs base: 120 games, W 50 D 40 L 30, "
        "Elo 0.0 +- 20.1, LLR 2.96 [-2.94, 2.94]. https://xq.example/tests/12";
    auto view = finishedSprt();
    EXPECT_EQ(json::parse(webhookBody(WebhookFormat::Content, WebhookEvent::Finish, view,
                                      "https://xq.example/tests/12")),
              json({{"content", line}}));
    EXPECT_EQ(json::parse(webhookBody(WebhookFormat::Text, WebhookEvent::Finish, view,
                                      "https://xq.example/tests/12")),
              json({{"text", line}}));
}

TEST(WebhookBody, AFailureSaysTheTestEndedWithoutAVerdictAndWhy) {
    auto view = finishedSprt();
    view.mutable_summary()->set_state(v1::TEST_STATE_FAILED);
    view.mutable_summary()->set_result("5 leases in a row failed; last: engine 'dev' did not start");
    view.mutable_summary()->set_games(0);
    json body = json::parse(webhookBody(WebhookFormat::Text, WebhookEvent::Failure, view, ""));
    EXPECT_EQ(
        body["text"],
        "xq test 12 (PR #7: a sharper futility margin) ended without a verdict: no verdict: failed (5 leases "
        "in "
        "a row failed; last: engine 'dev' did not start). dev 0123456789ab \"search: a sharper futility "
        "margin\" vs base.");
}

}  // namespace webhook_body_test
