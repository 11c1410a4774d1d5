// The body the coordinator POSTs to a test's webhooks (coordinator/common/webhook.h): the test's figures as
// JSON for a program, or one line for a chat service in the field it reads ("content" or "text").
#pragma once

#include <string>

#include "webhook.h"
#include "xq/v1/coordinator.pb.h"

namespace xq::coord {

// `link` is the test's page ("" when the coordinator was given no --public-url). The JSON object has event,
// test_id, link, state, description, base and dev (name, commit, subject), games, wdl, penta, elo, elo_error,
// llr with its bounds, result, and verdict with the exit status `xq wait` would give (once the test ended).
std::string webhookBody(WebhookFormat format, WebhookEvent event, const xq::v1::TestView& view,
                        const std::string& link);

}  // namespace xq::coord
