#include "play_server.h"

#include <httplib.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

#include "go_page.h"
#include "http_listen.h"
#include "play_game.h"
#include "play_page.h"
#include "play_session.h"
#include "xiangqi/movegen.h"
#include "xiangqi/notation.h"

namespace xq::play {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace api {

void reply(httplib::Response& res, int status, const json& body) {
    res.status = status;
    res.set_content(body.dump(), "application/json");
}

void fail(httplib::Response& res, int status, const std::string& message) {
    reply(res, status, json{{"error", message}});
}

json bodyOf(const httplib::Request& req) {
    if (req.body.empty()) return json::object();
    json j = json::parse(req.body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw std::invalid_argument("the request body is not a JSON object");
    return j;
}

std::string stringField(const json& j, const char* name, const std::string& fallback) {
    if (!j.contains(name)) return fallback;
    if (!j[name].is_string()) throw std::invalid_argument(std::string(name) + " must be a string");
    return j[name].get<std::string>();
}

int intField(const json& j, const char* name, int fallback, int lo, int hi) {
    if (!j.contains(name)) return fallback;
    if (!j[name].is_number_integer() || j[name].get<long long>() < lo || j[name].get<long long>() > hi)
        throw std::invalid_argument(std::string(name) + " must be a whole number from " + std::to_string(lo) +
                                    " to " + std::to_string(hi));
    return j[name].get<int>();
}

}  // namespace api

namespace {

using api::bodyOf;
using api::fail;
using api::reply;
using api::stringField;

std::string newId() {
    static std::mutex m;
    static std::random_device device;
    static std::mt19937_64 rng(device());
    std::lock_guard lock(m);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                  static_cast<unsigned long long>(rng()));
    return buf;
}

json scoreJson(const match::Score& s) {
    if (s.kind == match::Score::Mate) return json{{"mate", s.value}};
    if (s.kind == match::Score::Cp) return json{{"cp", s.value}};
    return json(nullptr);
}

json stateOf(const std::string& id, const PlayGame& g) {
    const Position& pos = g.position();
    json legal = json::array();
    if (g.humanToMove())
        for (Move m : legalMoves(pos)) legal.push_back(moveToString(m));
    const Verdict& v = g.verdict();
    json notation = json::array();
    Position replay(g.settings().fen);
    for (const std::string& m : g.moves()) {
        const Move move = *parseMove(replay, m);
        notation.push_back(chineseNotation(replay, move));
        replay.doMove(move);
    }
    return json{{"id", id},
                {"fen", pos.fen()},
                {"start_fen", g.settings().fen},
                {"moves", g.moves()},
                {"notation", notation},
                {"last_move", g.moves().empty() ? "" : g.moves().back()},
                {"turn", pos.sideToMove() == RED ? "red" : "black"},
                {"human", g.settings().human == RED ? "red" : "black"},
                {"your_turn", g.humanToMove()},
                {"in_check", pos.inCheck()},
                {"legal", legal},
                {"over", v.isOver()},
                {"result", resultString(v.result)},
                {"reason", g.reason()},
                {"verdict", g.verdictText()},
                {"rules", ruleSetName(g.settings().rules)},
                {"level", g.settings().level}};
}

}  // namespace

PlayServer::PlayServer(PlayServerOptions options) : options_(std::move(options)) {}

PlayServer::~PlayServer() {
    stop();
}

int PlayServer::games() const {
    std::lock_guard lock(mutex_);
    return int(sessions_.size());
}

std::shared_ptr<PlayServer::Session> PlayServer::find(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return nullptr;
    it->second->lastSeen = options_.clock();
    return it->second;
}

std::shared_ptr<PlayServer::Session> PlayServer::sessionOf(const httplib::Request& req,
                                                           httplib::Response& res) {
    const std::string id = req.matches[1];
    auto session = find(id);
    if (!session) fail(res, 404, "no game " + id.substr(0, 40) + " (it ended or was left too long)");
    return session;
}

std::shared_ptr<PlayServer::Session> PlayServer::admit(httplib::Response& res,
                                                       const std::function<void(Session&)>& make,
                                                       std::string& id) {
    {
        std::lock_guard lock(mutex_);
        if (int(sessions_.size()) + starting_ >= options_.maxGames) {
            reply(res, 503,
                  json{{"error", "all " + std::to_string(options_.maxGames) +
                                     " games are in use; please wait and try again"},
                       {"wait", true}});
            return nullptr;
        }
        ++starting_;
    }
    auto session = std::make_shared<Session>();
    std::string error;
    int status = 0;
    try {
        make(*session);
    } catch (const std::invalid_argument& e) {
        error = e.what(), status = 400;
    } catch (const std::exception& e) {
        error = e.what(), status = 500;
    }
    id = newId();
    {
        std::lock_guard lock(mutex_);
        --starting_;
        if (!status) {
            session->lastSeen = options_.clock();
            sessions_[id] = session;
        }
    }
    if (status) {
        fail(res, status, error);
        return nullptr;
    }
    return session;
}

void PlayServer::routes() {
    httplib::Server& s = *server_;
    const bool go = options_.game == PlayedGame::CaptureGo;
    s.Get("/", [go](const httplib::Request&, httplib::Response& res) {
        res.set_content(go ? goPageHtml() : pageHtml(), "text/html; charset=utf-8");
    });
    s.Get("/play.js", [go](const httplib::Request&, httplib::Response& res) {
        res.set_content(go ? goPageScript() : pageScript(), "text/javascript; charset=utf-8");
    });
    if (go)
        goRoutes();
    else
        xiangqiRoutes();
    s.Delete(R"(/api/games/([0-9a-f]{1,64}))", [this](const httplib::Request& req, httplib::Response& res) {
        std::shared_ptr<Session> gone;
        {
            std::lock_guard lock(mutex_);
            auto it = sessions_.find(req.matches[1]);
            if (it == sessions_.end()) return fail(res, 404, "no such game");
            gone = it->second;
            sessions_.erase(it);
        }
        std::lock_guard lock(gone->mutex);  // a request in flight finishes first
        gone->game.reset();                 // frees the engine
        gone->go.reset();
        res.status = 204;
    });
}

void PlayServer::xiangqiRoutes() {
    httplib::Server& s = *server_;
    s.Post("/api/games", [this](const httplib::Request& req, httplib::Response& res) {
        GameSettings settings;
        try {
            const json body = bodyOf(req);
            settings.fen = stringField(body, "fen", Position::StartFEN);
            if (settings.fen.empty()) settings.fen = Position::StartFEN;
            if (settings.fen.size() > 200) throw std::invalid_argument("fen is too long");
            const std::string rules = stringField(body, "rules", "asian");
            const auto set = parseRuleSet(rules);
            if (!set)
                throw std::invalid_argument("rules must be asian or chinese, not '" + rules.substr(0, 40) +
                                            "'");
            settings.rules = *set;
            if (body.contains("level")) {
                if (!body["level"].is_number_integer() || body["level"].get<int>() < MinLevel ||
                    body["level"].get<int>() > MaxLevel)
                    throw std::invalid_argument("level must be a whole number from 1 to 6");
                settings.level = body["level"].get<int>();
            }
            // Who moves first: the side to move of the start position, whatever the FEN says.
            const std::string first = stringField(body, "first", "");
            if (!first.empty()) {
                if (first != "red" && first != "black")
                    throw std::invalid_argument("first must be red or black");
                const auto side = settings.fen.find(' ');
                if (side == std::string::npos || side + 1 >= settings.fen.size())
                    throw std::invalid_argument("bad FEN: no side to move");
                settings.fen[side + 1] = first == "red" ? 'w' : 'b';
            }
            const std::string color = stringField(body, "color", "red");
            if (color != "red" && color != "black") throw std::invalid_argument("color must be red or black");
            settings.human = color == "red" ? RED : BLACK;
        } catch (const std::exception& e) {
            return fail(res, 400, e.what());
        }
        settings.engineCmd = options_.engineCmd;
        std::string id;
        auto session = admit(
            res, [&](Session& made) { made.game = std::make_unique<PlayGame>(settings); }, id);
        if (session) reply(res, 201, stateOf(id, *session->game));
    });

    // Every route on one game: finds it, holds its lock, maps failures to a status.
    auto onGame = [this](auto handler) {
        return [this, handler](const httplib::Request& req, httplib::Response& res) {
            auto session = sessionOf(req, res);
            if (!session) return;
            std::lock_guard lock(session->mutex);
            try {
                handler(req.matches[1], *session->game, req, res);
            } catch (const std::invalid_argument& e) {
                fail(res, 400, e.what());
            } catch (const std::exception& e) {
                fail(res, 500, e.what());
            }
        };
    };
    const std::string game = R"(/api/games/([0-9a-f]{1,64}))";
    s.Get(game, onGame([](const std::string& id, PlayGame& g, const httplib::Request&,
                          httplib::Response& res) { reply(res, 200, stateOf(id, g)); }));
    s.Post(game + "/move", onGame([](const std::string& id, PlayGame& g, const httplib::Request& req,
                                     httplib::Response& res) {
               const std::string move = stringField(bodyOf(req), "move", "");
               std::string why;
               auto answer = g.play(move, &why);
               if (!answer)
                   return reply(res, 400, json{{"error", why}, {"refused", true}, {"state", stateOf(id, g)}});
               json state = stateOf(id, g);
               state["engine_move"] = *answer;
               reply(res, 200, state);
           }));
    s.Post(game + "/undo",
           onGame([](const std::string& id, PlayGame& g, const httplib::Request&, httplib::Response& res) {
               if (!g.undo()) return fail(res, 400, "there is no move of yours to take back");
               reply(res, 200, stateOf(id, g));
           }));
    s.Post(game + "/resign",
           onGame([](const std::string& id, PlayGame& g, const httplib::Request&, httplib::Response& res) {
               if (!g.resign()) return fail(res, 400, "the game is over");
               reply(res, 200, stateOf(id, g));
           }));
    s.Post(game + "/hint",
           onGame([](const std::string&, PlayGame& g, const httplib::Request&, httplib::Response& res) {
               if (g.verdict().isOver()) return fail(res, 400, "the game is over");
               const EngineAdvice a = g.advise();
               // Also in Chinese notation, for the page's move list in that notation.
               const auto move = parseMove(g.position(), a.move);
               reply(res, 200,
                     json{{"move", a.move},
                          {"notation", move ? chineseNotation(g.position(), *move) : a.move},
                          {"score", scoreJson(a.score)},
                          {"depth", a.depth}});
           }));
    s.Post(game + "/eval",
           onGame([](const std::string&, PlayGame& g, const httplib::Request&, httplib::Response& res) {
               if (g.verdict().isOver()) return fail(res, 400, "the game is over");
               const EngineAdvice a = g.advise();
               // The score from red's side, as the page shows it.
               match::Score red = a.score;
               if (g.position().sideToMove() == BLACK) red.value = -red.value;
               reply(res, 200, json{{"score", scoreJson(red)}, {"depth", a.depth}, {"best", a.move}});
           }));
    s.Get(game + "/pgn",
          onGame([](const std::string& id, PlayGame& g, const httplib::Request&, httplib::Response& res) {
              res.set_header("Content-Disposition",
                             "attachment; filename=\"xq-" + id.substr(0, 8) + ".pgn\"");
              res.set_content(g.pgn(), "application/x-chess-pgn");
          }));
}

int PlayServer::closeIdleGames() {
    std::vector<std::shared_ptr<Session>> idle;
    {
        std::lock_guard lock(mutex_);
        const auto cutoff = options_.clock() - std::chrono::seconds(options_.idleSeconds);
        for (auto it = sessions_.begin(); it != sessions_.end();)
            if (it->second->lastSeen < cutoff && it->second->mutex.try_lock()) {  // not in a request
                it->second->mutex.unlock();
                idle.push_back(it->second);
                it = sessions_.erase(it);
            } else {
                ++it;
            }
    }
    return int(idle.size());  // their engines end here, outside the lock
}

void PlayServer::reap() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, std::chrono::seconds(1));
        if (stopping_) break;
        lock.unlock();
        closeIdleGames();
        lock.lock();
    }
}

void PlayServer::start() {
    server_ = std::make_unique<httplib::Server>();
    server_->set_payload_max_length(64 * 1024);
    server_->new_task_queue = [] { return new httplib::ThreadPool(64); };
    // A POST without a body and without a Content-Length (`curl -X POST .../undo`) is an empty body: the
    // routes that need none answer it. (httplib would refuse it before any route, with an empty 400.) The
    // request is the server's own, not a constant: only the handler's view of it is const.
    server_->set_pre_routing_handler([](const httplib::Request& req, httplib::Response&) {
        if (req.method == "POST" && !req.has_header("Content-Length") && !req.has_header("Transfer-Encoding"))
            const_cast<httplib::Request&>(req).set_header("Content-Length", "0");
        return httplib::Server::HandlerResponse::Unhandled;
    });
    // Every error says what was wrong, as JSON like the routes' own: also those httplib answers itself.
    server_->set_error_handler([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return;
        const std::string what = req.method + " " + req.path.substr(0, 200);
        api::fail(res, res.status,
                  res.status == 404 ? "no such page or API call: " + what
                  : res.status == 413
                      ? "the request body is too large (at most 64 KiB): " + what
                      : "the request could not be read (HTTP " + std::to_string(res.status) + "): " + what);
    });
    routes();
    address_ = http::bindHttp(*server_, options_.listen);
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    reaper_ = std::thread([this] { reap(); });
    for (int i = 0; i < 500 && !server_->is_running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

void PlayServer::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        stopping_ = true;
    }
    wake_.notify_all();
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
    if (reaper_.joinable()) reaper_.join();
    std::lock_guard lock(mutex_);
    sessions_.clear();
}

}  // namespace xq::play
