// `xq play`'s web server: the page, and a JSON API over games a person plays against the engine, each
// with its own engine process; at most maxGames at once (the next player is told to wait), and a game
// left alone for idleSeconds is closed and its engine freed. One server serves one game: Xiangqi against
// a UCI engine (xq-engine), or Capture Go against a GTP engine (xq-go; routes in play_server_go.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace xq::play {

enum class PlayedGame { Xiangqi, CaptureGo };

struct PlayServerOptions {
    PlayedGame game = PlayedGame::Xiangqi;
    std::string listen = "127.0.0.1:8090";  // HOST:PORT; port 0: the system picks one
    std::string engineCmd;                  // UCI engine executable (Xiangqi), GTP engine (Capture Go)
    int maxGames = 8;
    int idleSeconds = 600;
    // The clock of idle games: a test moves it instead of waiting.
    std::function<std::chrono::steady_clock::time_point()> clock = [] {
        return std::chrono::steady_clock::now();
    };
};

class PlayServer {
  public:
    explicit PlayServer(PlayServerOptions options);
    ~PlayServer();
    // Binds and serves in the background; throws std::runtime_error when it cannot bind.
    void start();
    void stop();
    std::string url() const { return "http://" + address_; }
    int games() const;
    // Closes the games nobody touched for idleSeconds (the server does so every second); returns how many.
    int closeIdleGames();

  private:
    struct Session;
    void routes();
    void xiangqiRoutes();
    void goRoutes();  // play_server_go.cpp
    std::shared_ptr<Session> find(const std::string& id);
    // A new game, counted against maxGames while `make` sets it up (starts its engine): the session and
    // its id in `id`, or null after replying 503 (all games in use), 400 (std::invalid_argument from
    // `make`) or 500 (any other failure).
    std::shared_ptr<Session> admit(httplib::Response& res, const std::function<void(Session&)>& make,
                                   std::string& id);
    // The session of the game a request names (its id is the route's first match), or null after
    // replying 404.
    std::shared_ptr<Session> sessionOf(const httplib::Request& req, httplib::Response& res);
    void reap();

    PlayServerOptions options_;
    std::unique_ptr<httplib::Server> server_;
    std::string address_;
    std::thread thread_, reaper_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::string, std::shared_ptr<Session>> sessions_;
    int starting_ = 0;  // games being set up (their engines starting), counted against maxGames
    bool stopping_ = false;
};

}  // namespace xq::play
