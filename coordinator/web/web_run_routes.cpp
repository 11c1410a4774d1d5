// The web view's routes of runs (run.proto): the list and a run's page, a generation's training report,
// Stop and Resume (POST with the session's form token, as a test's buttons), /api/runs JSON, and the run
// form, which builds the RunSpec `xq submit run` would and calls Coordinator::submitRun.
#include <google/protobuf/util/json_util.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "artifact_check.h"
#include "data_client.h"
#include "net_file.h"
#include "submission.h"
#include "util/sha256.h"
#include "web_form.h"
#include "web_pages.h"
#include "web_server.h"

namespace xq::coord {

namespace {

using namespace webform;

// A message as JSON with the .proto's field names (as /api/bench).
nlohmann::json protoJson(const google::protobuf::Message& m) {
    std::string out;
    google::protobuf::util::JsonPrintOptions o;
    o.preserve_proto_field_names = true;
    o.always_print_primitive_fields = true;
    (void)google::protobuf::util::MessageToJsonString(m, &out, o);
    return nlohmann::json::parse(out);
}

// "hidden=128,epochs=4 lr=0.001": the recipe's settings, separated by commas or spaces. The names and values
// are checked by the coordinator (checkRecipe); here only the shape.
void parseRecipe(const std::string& text, v1::RunSpec& spec) {
    std::string piece;
    std::istringstream in(text);
    while (std::getline(in, piece, ',')) {
        for (const auto& item : words(piece)) {
            auto eq = item.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
                throw CoordError(
                    ErrorCode::InvalidArgument,
                    "recipe: '" + item.substr(0, 60) + "' is not NAME=VALUE (e.g. hidden=128,epochs=4)");
            (*spec.mutable_recipe())[item.substr(0, eq)] = item.substr(eq + 1);
        }
    }
}

}  // namespace

void WebServer::runRoutes() {
    auto& s = *server_;
    s.Get("/runs", [this](const httplib::Request& req, httplib::Response& res) {
        handle("/runs", req, res,
               [&] { sendPage(res, web::runsPage(pageContext(req), coord_.listRuns({}))); });
    });
    s.Get(R"(/runs/(\d+))", [this](const httplib::Request& req, httplib::Response& res) {
        handle("/runs/:id", req, res, [&] {
            sendPage(res, web::runPage(pageContext(req), coord_.showRun(pathId(req, 1, "run id"))));
        });
    });
    s.Get(R"(/runs/(\d+)/generations/(\d+)/report\.json)",
          [this](const httplib::Request& req, httplib::Response& res) {
              handle("/runs/:id/generations/:g/report.json", req, res, [&] {
                  const auto view = coord_.showRun(pathId(req, 1, "run id"));
                  const std::int64_t g = pathId(req, 2, "generation");
                  for (const auto& gen : view.generations())
                      if (std::int64_t(gen.generation()) == g) {
                          if (gen.training_report_json().empty())
                              throw CoordError(ErrorCode::NotFound, "generation " + std::to_string(g) +
                                                                        " has no training report yet");
                          res.set_header("Content-Disposition", "attachment; filename=\"run-" +
                                                                    req.matches[1].str() + "-generation-" +
                                                                    std::to_string(g) + ".json\"");
                          res.set_content(gen.training_report_json(), "application/json");
                          return;
                      }
                  throw CoordError(ErrorCode::NotFound,
                                   "run " + req.matches[1].str() + " has no generation " + std::to_string(g));
              });
          });
    s.Post(R"(/runs/(\d+)/stop)", [this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /runs/:id/stop", req, res, [&] {
            auto ses = postSession(req);
            v1::StopRunRequest stop;
            stop.set_run_id(std::uint64_t(pathId(req, 1, "run id")));
            std::string reason = formValue(req, "reason");
            stop.set_reason(reason.empty() ? "stopped by " + ses.caller.name + " from the web view" : reason);
            coord_.stopRun(ses.caller, stop);
            redirect(res, "/runs/" + req.matches[1].str());
        });
    });
    s.Post(R"(/runs/(\d+)/resume)", [this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /runs/:id/resume", req, res, [&] {
            auto ses = postSession(req);
            v1::ResumeRunRequest resume;
            resume.set_run_id(std::uint64_t(pathId(req, 1, "run id")));
            coord_.resumeRun(ses.caller, resume);
            redirect(res, "/runs/" + req.matches[1].str());
        });
    });
    s.Get("/api/runs", [this](const httplib::Request& req, httplib::Response& res) {
        handle("/api/runs", req, res, [&] { sendJson(res, protoJson(coord_.listRuns({}))); });
    });
    s.Get(R"(/api/runs/(\d+))", [this](const httplib::Request& req, httplib::Response& res) {
        handle("/api/runs/:id", req, res,
               [&] { sendJson(res, protoJson(coord_.showRun(pathId(req, 1, "run id")))); });
    });
    s.Get("/submit/run", [this](const httplib::Request& req, httplib::Response& res) {
        handle("/submit/run", req, res, [&] {
            if (!session(req)) return redirect(res, "/login");
            sendPage(res, web::runSubmitPage(pageContext(req), formArtifacts(), ""));
        });
    });
    s.Post("/submit/run", [this](const httplib::Request& req, httplib::Response& res) {
        handle("POST /submit/run", req, res, [&] {
            auto ses = postSession(req);
            auto refused = [&](int status, const std::string& why) {
                web::FormValues values;
                for (const auto& [name, value] : req.params) values[name] = value.substr(0, 2000);
                for (const auto& [name, file] : req.files)
                    if (name.size() < 5 || name.substr(name.size() - 5) != "_file")
                        values[name] = file.content.substr(0, 2000);
                values.erase("csrf");
                // A file uploaded with the refused form was stored before the refusal: chosen by its hash.
                for (const char* field : {"engine", "start_net"})
                    if (req.has_file(std::string(field) + "_file")) {
                        const auto& content = req.get_file_value(std::string(field) + "_file").content;
                        if (!content.empty() && coord_.hasArtifact(sha256Hex(content)))
                            values[std::string(field) + "_sha256"] = sha256Hex(content);
                    }
                res.status = status;
                sendPage(res, web::runSubmitPage(pageContext(req), formArtifacts(), why, values));
            };
            try {
                redirect(res, "/runs/" + std::to_string(submitRunForm(req, ses.caller)));
            } catch (const CoordError& e) {
                refused(httpStatus(e.code), e.what());
            } catch (const std::invalid_argument& e) {
                refused(400, e.what());
            }
        });
    });
}

std::uint64_t WebServer::submitRunForm(const httplib::Request& req, const Caller& caller) {
    // A stored file chosen by hash, or one uploaded with the form (stored and checked as its kind).
    auto artifact = [&](const std::string& field, const std::string& fileField, const std::string& what,
                        const char* kind) -> std::string {
        if (req.has_file(fileField) && !req.get_file_value(fileField).content.empty()) {
            const auto& file = req.get_file_value(fileField);
            return storeArtifact(caller, file.content, file.filename, kind, what);
        }
        return formValue(req, field);
    };
    v1::RunSpec spec;
    // The gate's match as the test form builds one (one engine on both sides): its settings, time control,
    // book and SPRT parsed by the same code as `xq submit`'s.
    SubmissionOptions o;
    ArtifactHashes h;
    h.dev = h.base = artifact("engine_sha256", "engine_file", "engine", ArtifactKindEngine);
    if (h.dev.empty())
        throw CoordError(ErrorCode::InvalidArgument, "engine: choose a stored engine or upload its file");
    h.openings = formValue(req, "openings_sha256");
    if (h.openings == web::FormNoOpenings) {
        h.openings.clear();
    } else if (h.openings.empty()) {
        if (std::string book = findDefaultOpenings("xiangqi"); !book.empty()) {
            std::ifstream in(book, std::ios::binary);
            std::ostringstream content;
            content << in.rdbuf();
            h.openings = storeArtifact(caller, content.str(), std::filesystem::path(book).filename().string(),
                                       ArtifactKindOpenings, "the game's opening book " + book);
        }
    }
    const std::string tc = formValue(req, "gate_tc");
    if (tc.empty())
        throw CoordError(ErrorCode::InvalidArgument,
                         "gate time control: give one, e.g. 10+0.1 or nodes=20000");
    o.each = settingsField(formValue(req, "engine_settings"));
    o.each.push_back(tc.find('=') == std::string::npos ? "tc=" + tc : tc);
    o.sprt = formValue(req, "gate_sprt");
    if (o.sprt.empty())
        throw CoordError(ErrorCode::InvalidArgument, "SPRT: the gate's bounds, e.g. elo0=0,elo1=10");
    const v1::TestSpec gate = buildTestSpec(o, h);
    *spec.mutable_gate() = gate.match();
    *spec.mutable_gate_sprt() = gate.sprt();
    auto* d = spec.mutable_datagen();
    *d->mutable_engine() = gate.match().dev();
    d->mutable_engine()->clear_tc();
    d->mutable_engine()->clear_name();
    const DatagenSubmission defaults;  // `xq submit datagen`'s openings and sampling
    d->set_random_plies(std::uint32_t(defaults.randomPlies));
    d->set_sample_rate(defaults.sampleRate);
    d->set_balanced_cp(std::uint32_t(defaults.balancedCp));
    d->set_seed(defaults.seed);
    auto number = [&](const char* field, const std::string& what, std::int64_t fallback, std::int64_t min) {
        std::int64_t v = parseNumber(formValue(req, field), what, fallback);
        if (v < min)
            throw CoordError(ErrorCode::InvalidArgument, what + " must be at least " + std::to_string(min));
        return v;
    };
    d->set_nodes(std::uint64_t(number("nodes", "nodes", 0, 1)));
    spec.set_games_per_generation(
        std::uint64_t(number("games_per_generation", "games per generation", 0, 2)));
    const std::string start =
        artifact("start_net_sha256", "start_net_file", "start network", ArtifactKindNet);
    if (start.empty())
        spec.set_start_hce(true);
    else
        spec.set_start_net_sha256(start);
    parseRecipe(formValue(req, "recipe"), spec);
    spec.set_window(std::uint32_t(std::min<std::int64_t>(number("window", "window", 0, 0), 1'000'000)));
    spec.set_gate_games(std::uint64_t(number("gate_games", "gate games", 0, 0)));
    spec.set_generations(
        std::uint32_t(std::min<std::int64_t>(number("generations", "generations", 0, 0), 1'000'000)));
    spec.set_max_failed_gates(std::uint32_t(
        std::min<std::int64_t>(number("max_failed_gates", "max failed gates", 0, 0), 1'000'000)));
    spec.set_priority(int(parseNumber(formValue(req, "priority"), "priority")));
    const std::string throughput = formValue(req, "throughput");
    try {
        spec.set_throughput(throughput.empty() ? 1 : std::stod(throughput));
    } catch (const std::exception&) {
        throw CoordError(ErrorCode::InvalidArgument, "throughput must be a number");
    }
    spec.set_description(formValue(req, "description").substr(0, 1000));
    v1::SubmitRunRequest submit;
    *submit.mutable_spec() = spec;
    return coord_.submitRun(caller, submit).run_id();
}

}  // namespace xq::coord
