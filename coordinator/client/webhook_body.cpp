#include "webhook_body.h"

#include <nlohmann/json.hpp>

#include "test_report.h"
#include "test_verdict.h"
#include "util/text.h"

namespace xq::coord {

namespace {

using nlohmann::json;

std::string engineLabel(const v1::EngineSpec& e) {
    if (!e.has_source()) return e.name();
    return e.name() + " " + e.source().commit().substr(0, 12) + " \"" + e.source().subject() + "\"";
}

const v1::MatchSpec& matchOf(const v1::TestSpec& spec) {
    return spec.has_spsa() ? spec.spsa().match() : spec.match();
}

std::string chatLine(WebhookEvent event, const v1::TestView& view, const std::string& link) {
    const auto& s = view.summary();
    std::string line = "xq test " + std::to_string(s.id());
    if (!s.description().empty()) line += " (" + s.description() + ")";
    switch (event) {
        case WebhookEvent::Start:
            line += " started";
            break;
        case WebhookEvent::Finish:
            line += " finished";
            break;
        case WebhookEvent::Failure:
            line += " ended without a verdict";
            break;
    }
    if (auto verdict = testVerdict(view)) line += ": " + verdict->text;
    if (!view.spec().has_datagen()) {
        const auto& m = matchOf(view.spec());
        line += ". " + engineLabel(m.dev()) + " vs " + engineLabel(m.base());
        if (s.games() > 0) {
            auto wdl = [&](int i) { return s.wdl_size() > i ? s.wdl(i) : 0; };
            line += ": " + std::to_string(s.games()) + " games, W " + std::to_string(wdl(0)) + " D " +
                    std::to_string(wdl(1)) + " L " + std::to_string(wdl(2)) + ", Elo " +
                    xq::fixed(s.elo(), 1) + " +- " + xq::fixed(s.elo_error(), 1);
            if (s.is_sprt())
                line += ", LLR " + xq::fixed(s.llr(), 2) + " [" + xq::fixed(s.lower_bound(), 2) + ", " +
                        xq::fixed(s.upper_bound(), 2) + "]";
        }
    }
    line += ".";
    if (!link.empty()) line += " " + link;
    return line;
}

}  // namespace

std::string webhookBody(WebhookFormat format, WebhookEvent event, const v1::TestView& view,
                        const std::string& link) {
    if (format == WebhookFormat::Content) return json{{"content", chatLine(event, view, link)}}.dump();
    if (format == WebhookFormat::Text) return json{{"text", chatLine(event, view, link)}}.dump();
    json full = testViewObject(view);
    json body = {{"event", webhookEventName(event)}, {"test_id", view.summary().id()}, {"link", link}};
    for (const char* key :
         {"state", "description", "kind", "games", "wdl", "penta", "elo", "elo_error", "llr", "lower_bound",
          "upper_bound", "result", "base", "dev", "compare", "sprt_config"})
        if (full.contains(key)) body[key] = full[key];
    if (auto verdict = testVerdict(view)) {
        body["verdict"] = verdict->text;
        body["exit_code"] = verdict->exitCode;
    }
    return body.dump();
}

}  // namespace xq::coord
