// xq wait ID: follows a test on a coordinator to its end with live progress, then prints its report and
// verdict and exits with a status a CI job can branch on (cli/test_wait.h). `xq submit --wait` does the
// same right after submitting.
#include <CLI/CLI.hpp>

#include "command.h"
#include "connection.h"
#include "test_wait.h"

namespace {

xq::cli::RegisterCommand registerWait([](CLI::App& app) {
    auto* sub = app.add_subcommand(
        "wait",
        "follow a test to its end, then exit 0 if it passed (an SPRT's H1; a fixed-games test that played "
        "its games), 1 if it failed (H0, or no verdict within the game cap), 2 if it has no verdict "
        "(stopped, "
        "could not be played, timed out, no such test)");
    auto conn = std::make_shared<xq::cli::Connection>();
    auto id = std::make_shared<std::uint64_t>(0);
    auto options = std::make_shared<xq::cli::WaitOptions>();
    conn->addOptions(sub);
    sub->add_option("id", *id, "test id")->required();
    sub->add_option("--timeout", options->timeoutSeconds, "give up after this many seconds (exit 2)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--poll", options->pollSeconds, "seconds between two looks at the test (default 2)")
        ->check(CLI::Range(0.05, 3600.0));
    xq::cli::addWebOption(sub, options->webUrl);
    sub->add_flag("--json", options->json, "the final report as JSON on stdout (progress on stderr)");
    sub->callback([=] {
        auto client = conn->open();
        throw xq::cli::ExitCode{xq::cli::waitForTest(*client, *id, *options)};
    });
});

}  // namespace
