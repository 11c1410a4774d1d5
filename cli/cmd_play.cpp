// `xq play`: serves a page where a person plays Xiangqi against the engine, or Capture Go against xq-go
// with --game capturego (play/play_server.h).
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>

#include "command.h"
#include "play_server.h"

namespace {

struct PlayOptions {
    xq::play::PlayServerOptions server;
    std::string game = "xiangqi";
    int idleMinutes = 10;
};

int runPlay(PlayOptions o) {
    const bool go = o.game == "capturego";
    o.server.game = go ? xq::play::PlayedGame::CaptureGo : xq::play::PlayedGame::Xiangqi;
    if (o.server.engineCmd.empty())
        o.server.engineCmd = go ? xq::cli::binaryBesideXq("xq-go") : xq::cli::engineBesideXq();
    o.server.idleSeconds = 60 * o.idleMinutes;
    // SIGINT and SIGTERM end the server; block them before any thread starts so only sigwait sees them.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    xq::play::PlayServer server(o.server);
    try {
        server.start();
    } catch (const std::exception& e) {
        std::cerr << "xq play: " << e.what() << "\n";
        return 1;
    }
    std::cout << "xq play: open " << server.url() << "/ (" << (go ? "Capture Go, " : "") << "engine "
              << o.server.engineCmd << ", at most " << o.server.maxGames << " games at once)" << std::endl;
    int signal = 0;
    sigwait(&signals, &signal);
    std::cerr << "xq play: stopping\n";
    server.stop();
    return 0;
}

xq::cli::RegisterCommand registerPlay([](CLI::App& app) {
    auto o = std::make_shared<PlayOptions>();
    auto* sub = app.add_subcommand(
        "play", "Serve a page where a person plays Xiangqi against the engine (or Capture Go against xq-go)");
    sub->add_option("--game", o->game,
                    "xiangqi, or capturego (Capture Go against a GTP engine: board size, capture target, "
                    "colour and level chosen on the page)")
        ->check(CLI::IsMember({"xiangqi", "capturego"}))
        ->capture_default_str();
    sub->add_option("--http", o->server.listen, "HOST:PORT to serve on (port 0: any free port)")
        ->capture_default_str();
    sub->add_option(
        "--engine", o->server.engineCmd,
        "UCI engine executable (default: the xq-engine beside xq); with --game capturego a "
        "GTP engine taking xq-go's --level, --movetime and --seed (default: the xq-go beside xq)");
    sub->add_option("--max-games", o->server.maxGames, "games at once; the next player is told to wait")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    sub->add_option("--idle-minutes", o->idleMinutes, "close a game nobody touched for this long")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    sub->callback([o] {
        if (int rc = runPlay(*o)) throw xq::cli::ExitCode{rc};
    });
});

}  // namespace
