// `xq play --game capturego`: the JSON API of Capture Go games (PlayServer::goRoutes).
//   POST /api/games            {size 5..19, target, color black|white, level 1..6, start empty|crosscut}
//   GET  /api/games/ID         the state (below)
//   POST /api/games/ID/move    {move: "D4" | "pass"}: 400 with the reason in words when refused
//   POST /api/games/ID/undo    the person's last move and the engine's answer taken back
//   POST /api/games/ID/resign
//   GET  /api/games/ID/sgf     the game as SGF (capturego/sgf.h)
// The state: the board as rows from the top (row N) down, 'X' black, 'O' white, '.' empty; the moves in
// GTP coordinates; captures per player; the last move and the stones it captured; the verdict in words.
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "capturego/notation.h"
#include "play_server.h"
#include "play_session.h"

namespace xq::play {

namespace cg = xq::capturego;
using nlohmann::json;

namespace {

const char* colorText(cg::Color c) {
    return c == cg::Color::Black ? "black" : "white";
}

std::string rulesInWords(const GoGameSettings& s) {
    const std::string stones = s.target == 1 ? "1 stone" : std::to_string(s.target) + " stones";
    return "The first to capture " + stones +
           " wins. If both players pass before that, the one who captured more wins; with equal captures "
           "the area decides (stones plus the empty points only they surround; komi 0), equal areas draw.";
}

json goState(const std::string& id, const GoPlayGame& g) {
    const cg::Position& pos = g.position();
    json board = json::array();
    for (int row = pos.size() - 1; row >= 0; --row) {
        std::string line;
        for (int col = 0; col < pos.size(); ++col) {
            const cg::Cell c = pos.at(cg::Point{col, row});
            line += c == cg::Cell::Black ? 'X' : c == cg::Cell::White ? 'O' : '.';
        }
        board.push_back(line);
    }
    json moves = json::array();
    for (const cg::Move& m : g.game().moves()) moves.push_back(cg::moveName(m));
    json captured = json::array();
    for (const cg::Point& p : pos.lastCaptured()) captured.push_back(cg::pointName(p));
    const auto last = pos.lastMove();
    const cg::Result& r = g.game().result();
    return json{
        {"id", id},
        {"size", pos.size()},
        {"target", g.settings().target},
        {"level", g.settings().level},
        {"rules", rulesInWords(g.settings())},
        {"human", colorText(g.settings().human)},
        {"to_move", colorText(pos.toMove())},
        {"your_turn", g.humanToMove()},
        {"board", board},
        {"moves", moves},
        {"last_move", last ? cg::moveName(*last) : ""},
        {"last_captured", captured},
        {"captures", {{"black", pos.captures(cg::Color::Black)}, {"white", pos.captures(cg::Color::White)}}},
        {"passes", pos.consecutivePasses()},
        {"over", r.isOver()},
        {"result", r.sgf()},
        {"reason", r.reason},
        {"verdict", g.verdictText()},
        {"engine_failure", g.engineFailure()}};
}

GoGameSettings settingsOf(const json& body) {
    GoGameSettings s;
    s.size = api::intField(body, "size", cg::kDefaultBoardSize, cg::kMinBoardSize, cg::kMaxBoardSize);
    s.target = api::intField(body, "target", 1, 1, s.size * s.size);
    s.level = api::intField(body, "level", 1, GoMinLevel, GoMaxLevel);
    const std::string color = api::stringField(body, "color", "black");
    if (color != "black" && color != "white") throw std::invalid_argument("color must be black or white");
    s.human = color == "black" ? cg::Color::Black : cg::Color::White;
    const std::string start = api::stringField(body, "start", "empty");
    if (start != "empty" && start != "crosscut")
        throw std::invalid_argument("start must be empty or crosscut");
    s.crosscut = start == "crosscut";
    return s;
}

}  // namespace

void PlayServer::goRoutes() {
    httplib::Server& s = *server_;
    s.Post("/api/games", [this](const httplib::Request& req, httplib::Response& res) {
        GoGameSettings settings;
        try {
            settings = settingsOf(api::bodyOf(req));
        } catch (const std::exception& e) {
            return api::fail(res, 400, e.what());
        }
        settings.engineCmd = options_.engineCmd;
        std::string id;
        auto session = admit(
            res, [&](Session& made) { made.go = std::make_unique<GoPlayGame>(settings); }, id);
        if (session) api::reply(res, 201, goState(id, *session->go));
    });

    // Every route on one game: finds it, holds its lock, maps failures to a status.
    auto onGame = [this](auto handler) {
        return [this, handler](const httplib::Request& req, httplib::Response& res) {
            auto session = sessionOf(req, res);
            if (!session) return;
            std::lock_guard lock(session->mutex);
            try {
                handler(req.matches[1], *session->go, req, res);
            } catch (const std::invalid_argument& e) {
                api::fail(res, 400, e.what());
            } catch (const std::exception& e) {
                api::fail(res, 500, e.what());
            }
        };
    };
    const std::string game = R"(/api/games/([0-9a-f]{1,64}))";
    s.Get(game, onGame([](const std::string& id, GoPlayGame& g, const httplib::Request&,
                          httplib::Response& res) { api::reply(res, 200, goState(id, g)); }));
    s.Post(game + "/move", onGame([](const std::string& id, GoPlayGame& g, const httplib::Request& req,
                                     httplib::Response& res) {
               const std::string move = api::stringField(api::bodyOf(req), "move", "");
               std::string why;
               auto answer = g.play(move, &why);
               if (!answer)
                   return api::reply(res, 400,
                                     json{{"error", why}, {"refused", true}, {"state", goState(id, g)}});
               json state = goState(id, g);
               state["engine_move"] = *answer;
               api::reply(res, 200, state);
           }));
    s.Post(game + "/undo",
           onGame([](const std::string& id, GoPlayGame& g, const httplib::Request&, httplib::Response& res) {
               std::string why;
               if (!g.undo(&why)) return api::fail(res, 400, why);
               api::reply(res, 200, goState(id, g));
           }));
    s.Post(game + "/resign",
           onGame([](const std::string& id, GoPlayGame& g, const httplib::Request&, httplib::Response& res) {
               if (!g.resign()) return api::fail(res, 400, "the game is over");
               api::reply(res, 200, goState(id, g));
           }));
    s.Get(game + "/sgf",
          onGame([](const std::string& id, GoPlayGame& g, const httplib::Request&, httplib::Response& res) {
              res.set_header("Content-Disposition",
                             "attachment; filename=\"capturego-" + id.substr(0, 8) + ".sgf\"");
              res.set_content(g.sgf(), "application/x-go-sgf");
          }));
}

}  // namespace xq::play
