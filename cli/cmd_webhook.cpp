// xq webhook-secret: sets the secret with which the coordinator signs the caller's webhook deliveries (the
// header X-Xq-Signature-256: sha256=HMAC of the body; coordinator/common/webhook.h). The secret is read from
// standard input, not the command line, where other users of the machine could see it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "command.h"
#include "connection.h"

namespace {

xq::cli::RegisterCommand registerWebhookSecret([](CLI::App& app) {
    auto* sub = app.add_subcommand("webhook-secret",
                                   "set the secret that signs your tests' webhook deliveries (at least 16 "
                                   "characters), read from standard "
                                   "input: printf %s \"$SECRET\" | xq webhook-secret");
    auto conn = std::make_shared<xq::cli::Connection>();
    conn->addOptions(sub);
    sub->callback([conn] {
        std::string secret;
        std::getline(std::cin, secret);
        while (!secret.empty() && (secret.back() == '\r' || secret.back() == '\n')) secret.pop_back();
        if (secret.empty()) {
            std::cerr << "xq webhook-secret: no secret on standard input\n";
            throw xq::cli::ExitCode{2};
        }
        auto client = conn->open();
        xq::v1::SetWebhookSecretRequest req;
        req.set_secret(secret);
        xq::v1::SetWebhookSecretResponse resp;
        auto ctx = client->context();
        xq::coord::check(client->user().SetWebhookSecret(ctx.get(), req, &resp), "set the webhook secret");
        std::cout
            << "webhook secret set: your tests' deliveries carry X-Xq-Signature-256: sha256=HMAC-SHA256 of "
               "the body\n";
    });
});

}  // namespace
