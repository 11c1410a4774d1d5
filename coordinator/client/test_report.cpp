#include "test_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "forge.h"
#include "util/text.h"

namespace xq::coord {

namespace v1 = xq::v1;
using nlohmann::json;

namespace {

json failuresJson(const v1::Failures& f) {
    return {{"crashes", f.crashes()},
            {"time_losses", f.time_losses()},
            {"illegal_moves", f.illegal_moves()},
            {"stalls", f.stalls()}};
}

}  // namespace

json summaryJson(const v1::TestSummary& s) {
    json penta = json::array();
    for (auto c : s.penta().counts()) penta.push_back(c);
    json wdl = json::array();
    for (auto c : s.wdl()) wdl.push_back(c);
    json j = {{"id", s.id()},
              {"state", stateName(s.state())},
              {"description", s.description()},
              {"games", s.games()},
              {"games_target", s.games_target()},
              {"wdl", wdl},
              {"penta", penta},
              {"elo", s.elo()},
              {"elo_error", s.elo_error()},
              {"los", s.los()},
              {"sprt", s.is_sprt()},
              {"llr", s.llr()},
              {"result", s.result()},
              {"active_workers", s.active_workers()},
              {"created_unix", s.created_unix()},
              {"finished_unix", s.finished_unix()}};
    if (s.is_sprt()) j["bounds"] = {s.lower_bound(), s.upper_bound()};
    j["kind"] = s.kind().empty() ? "match" : s.kind();
    if (j["kind"] == "match" && !s.game().empty()) j["game"] = s.game();
    if (!s.board().empty()) j["board"] = s.board();
    if (s.has_datagen()) {
        // Self-play data has no match result: zeros there would read as a result.
        for (const char* key : {"wdl", "penta", "elo", "elo_error", "los", "sprt", "llr"}) j.erase(key);
        const auto& d = s.datagen();
        j["datagen"] = {{"slices", d.slices()},       {"slices_done", d.slices_done()},
                        {"positions", d.positions()}, {"chunks", d.chunks()},
                        {"bytes", d.bytes()},         {"games_played", d.games_played()}};
    }
    if (s.has_training()) {
        // A network's training has no match result either.
        for (const char* key : {"wdl", "penta", "elo", "elo_error", "los", "sprt", "llr"}) j.erase(key);
        const auto& t = s.training();
        json report = json::parse(t.report_json(), nullptr, false);
        j["training"] = {{"epochs_done", t.epochs_done()},
                         {"epochs", t.epochs()},
                         {"positions", t.positions()},
                         {"checkpoint_sha256", t.checkpoint_sha256()},
                         {"checkpoint_unix", t.checkpoint_unix()},
                         {"net_sha256", t.net_sha256()},
                         {"leases", t.leases()},
                         {"failures", t.failures()},
                         {"report", report.is_discarded() ? json(nullptr) : report}};
    }
    if (s.has_run())
        j["run"] = {
            {"run_id", s.run().run_id()}, {"generation", s.run().generation()}, {"step", s.run().step()}};
    if (s.has_spsa()) {
        const auto& p = s.spsa();
        json params = json::array();
        for (const auto& v : p.params())
            params.push_back({{"name", v.name()},
                              {"value", v.value()},
                              {"start", v.start()},
                              {"min", v.min()},
                              {"max", v.max()},
                              {"c_k", v.c_k()}});
        j["spsa"] = {
            {"iterations", p.iterations()}, {"iterations_target", p.iterations_target()}, {"params", params}};
    }
    return j;
}

std::string compareText(const v1::MatchSpec& m) {
    if (!m.base().has_source() || !m.dev().has_source()) return {};
    return m.base().source().commit().substr(0, 12) + ".." + m.dev().source().commit().substr(0, 12);
}

const char* stateName(v1::TestState s) {
    switch (s) {
        case v1::TEST_STATE_RUNNING:
            return "running";
        case v1::TEST_STATE_FINISHED:
            return "finished";
        case v1::TEST_STATE_STOPPED:
            return "stopped";
        case v1::TEST_STATE_PENDING:
            return "pending";
        case v1::TEST_STATE_FAILED:
            return "failed";
        default:
            return "unknown";
    }
}

json testViewObject(const v1::TestView& view) {
    json j = summaryJson(view.summary());
    json workers = json::array();
    for (const auto& w : view.workers())
        workers.push_back({{"id", w.worker_id()},
                           {"name", w.worker_name()},
                           {"games", w.games()},
                           {"failures", failuresJson(w.failures())},
                           {"suspended", w.suspended()}});
    j["workers"] = workers;
    j["failures"] = failuresJson(view.failures());
    j["events"] = json(std::vector<std::string>(view.events().begin(), view.events().end()));
    if (view.webhook_deliveries_size() > 0) {
        json hooks = json::array();
        for (const auto& w : view.webhook_deliveries())
            hooks.push_back({{"url", w.url()},
                             {"event", w.event()},
                             {"state", w.state()},
                             {"attempts", w.attempts()},
                             {"http_status", w.http_status()},
                             {"last_error", w.last_error()}});
        j["webhooks"] = hooks;
    }
    if (view.spec().has_datagen()) {
        const auto& d = view.spec().datagen();
        j["engine"] = {{"name", d.engine().name()}, {"sha256", d.engine().binary_sha256()}};
        j["datagen"]["nodes"] = d.nodes();
        j["datagen"]["random_plies"] = d.random_plies();
        j["datagen"]["sample_rate"] = d.sample_rate();
        j["datagen"]["balanced_cp"] = d.balanced_cp();
        j["datagen"]["seed"] = d.seed();
        j["datagen"]["slice_games"] = d.slice_games();
        j["datagen"]["game"] = d.game().empty() ? "xiangqi" : d.game();
        if (d.game() != "chess") j["datagen"]["rules"] = d.rules().empty() ? "asian" : d.rules();
        return j;
    }
    const auto& m = view.spec().has_spsa() ? view.spec().spsa().match() : view.spec().match();
    if (view.spec().has_spsa()) {
        const auto& sp = view.spec().spsa();
        j["spsa"]["alpha"] = sp.alpha();
        j["spsa"]["gamma"] = sp.gamma();
        j["spsa"]["A"] = sp.a();
        json history = json::array();
        for (const auto& point : view.spsa_history())
            history.push_back(
                {{"iteration", point.iteration()},
                 {"values", std::vector<double>(point.values().begin(), point.values().end())}});
        j["spsa"]["history"] = history;
    }
    auto engine = [](const v1::EngineSpec& e) {
        json o = {{"name", e.name()}, {"sha256", e.binary_sha256()}, {"tc", e.tc()}};
        if (!e.net_sha256().empty()) o["net"] = e.net_sha256();
        if (e.has_source())
            o["source"] = {{"commit", e.source().commit()},
                           {"subject", e.source().subject()},
                           {"author", e.source().author()},
                           {"ref", e.source().ref()},
                           {"repository", e.source().repository()},
                           {"link", forgeCommitUrl(e.source().repository(), e.source().commit())},
                           {"sha256", e.source().source_sha256()},
                           {"build", e.source().build_command()},
                           {"binary", e.source().binary_path()}};
        return o;
    };
    j["base"] = engine(m.base());
    j["dev"] = engine(m.dev());
    j["game"] = m.game().empty() ? "xiangqi" : m.game();
    if (m.game() == "capturego")
        j["board"] = m.board();
    else if (m.game() != "chess")
        j["rules"] = m.rules().empty() ? "asian" : m.rules();
    if (std::string c = compareText(m); !c.empty()) j["compare"] = c;
    if (view.spec().has_sprt())
        j["sprt_config"] = {
            {"elo0", view.spec().sprt().elo0()},
            {"elo1", view.spec().sprt().elo1()},
            {"model", view.spec().sprt().model().empty() ? "normalized" : view.spec().sprt().model()}};
    return j;
}

std::string testViewJson(const v1::TestView& view) {
    return testViewObject(view).dump(2);
}

namespace {

std::string summaryWithoutHint(const v1::TestSummary& s) {
    std::ostringstream out;
    if (s.kind() == "datagen") {
        const auto& d = s.datagen();
        out << s.id() << "  " << stateName(s.state()) << "  datagen  " << s.games() << "/" << s.games_target()
            << " games  " << d.positions() << " positions in " << d.chunks() << " chunks";
        // A finished test's result repeats the counts; a stopped one says why.
        if (!s.result().empty() && s.state() != v1::TEST_STATE_FINISHED) out << "  " << s.result();
        if (!s.description().empty()) out << "  " << s.description();
        return out.str();
    }
    if (s.kind() == "training") {
        const auto& t = s.training();
        out << s.id() << "  " << stateName(s.state()) << "  training  epoch " << t.epochs_done() << "/"
            << t.epochs() << "  " << t.positions() << " positions  " << t.leases() << " lease"
            << (t.leases() == 1 ? "" : "s");
        if (!t.net_sha256().empty()) out << "  network xq-" << t.net_sha256().substr(0, 12) << ".nnue";
        if (!s.result().empty() && s.state() != v1::TEST_STATE_FINISHED) out << "  " << s.result();
        if (!s.description().empty()) out << "  " << s.description();
        return out.str();
    }
    if (s.has_spsa()) {
        out << s.id() << "  " << stateName(s.state()) << "  spsa  " << s.spsa().iterations() << "/"
            << s.spsa().iterations_target() << " iterations ";
        for (const auto& v : s.spsa().params()) out << " " << v.name() << " " << fixed(v.value(), 1);
        if (!s.result().empty() && s.state() != v1::TEST_STATE_FINISHED) out << "  " << s.result();
        if (!s.description().empty()) out << "  " << s.description();
        return out.str();
    }
    auto wdl = [&](int i) { return s.wdl_size() > i ? s.wdl(i) : 0; };
    out << s.id() << "  " << stateName(s.state()) << "  " << s.games() << "/" << s.games_target()
        << " games  W " << wdl(0) << " D " << wdl(1) << " L " << wdl(2) << "  Elo " << fixed(s.elo(), 1)
        << " +- " << fixed(s.elo_error(), 1);
    if (s.is_sprt())
        out << "  LLR " << fixed(s.llr(), 2) << " [" << fixed(s.lower_bound(), 2) << ", "
            << fixed(s.upper_bound(), 2) << "]";
    if (!s.result().empty()) out << "  " << s.result();
    if (!s.description().empty()) out << "  " << s.description();
    return out.str();
}

}  // namespace

std::string testSummaryLine(const v1::TestSummary& s) {
    std::string line = summaryWithoutHint(s);
    if (s.state() == v1::TEST_STATE_PENDING)
        line += "  (waits for an approver: xq approve " + std::to_string(s.id()) + ")";
    return line;
}

namespace {

// `xq show` of an SPSA test, after its id and state.
std::string spsaText(const v1::TestView& view) {
    const auto& s = view.summary();
    const auto& sp = view.spec().spsa();
    const auto& e = sp.match().dev();
    std::ostringstream out;
    out << "  spsa       " << e.name() << " [" << e.binary_sha256().substr(0, 12) << "] at " << e.tc()
        << ", rules " << (sp.match().rules() == "chinese" ? "chinese" : "asian") << "; alpha " << sp.alpha()
        << ", gamma " << sp.gamma() << ", A " << sp.a() << "\n";
    out << "  iterations " << s.spsa().iterations() << " of " << s.spsa().iterations_target()
        << " (game pairs), " << counted(s.active_workers(), "worker") << " active\n";
    out << "  parameters (name, value now, start, range, perturbation of the next lease)\n";
    for (const auto& v : s.spsa().params()) {
        char line[256];
        std::snprintf(line, sizeof line, "    %-24s %10.2f  start %g  [%g, %g]  c_k %.2f\n", v.name().c_str(),
                      v.value(), v.start(), v.min(), v.max(), v.c_k());
        out << line;
    }
    out << "  W/D/L      "
        << (s.wdl_size() == 3 ? std::to_string(s.wdl(0)) + " / " + std::to_string(s.wdl(1)) + " / " +
                                    std::to_string(s.wdl(2))
                              : "-")
        << "  (theta+ against theta-)\n";
    if (view.events_size()) {
        out << "  events\n";
        for (const auto& ev : view.events()) out << "    " << ev << "\n";
    }
    return out.str();
}

}  // namespace

std::string testViewText(const v1::TestView& view) {
    const auto& s = view.summary();
    const auto& m = view.spec().match();
    std::ostringstream out;
    out << "test " << s.id() << ": " << s.description() << "\n";
    out << "  state      " << stateName(s.state()) << (s.result().empty() ? "" : " (" + s.result() + ")")
        << "\n";
    if (s.state() == v1::TEST_STATE_PENDING)
        out << "             waits for an approver: no worker plays it until one runs 'xq approve " << s.id()
            << "'\n";
    if (view.spec().has_datagen()) {
        const auto& d = view.spec().datagen();
        const auto& p = s.datagen();
        out << "  datagen    " << d.engine().name() << " [" << d.engine().binary_sha256().substr(0, 12)
            << "] at " << d.nodes() << " nodes, " << d.random_plies() << " random plies, sample rate "
            << d.sample_rate() << ", balanced within " << d.balanced_cp() << " cp, seed " << d.seed() << "\n";
        if (d.game() == "chess") out << "  game       chess (FIDE's rules)\n";
        out << "  games      " << s.games() << " of " << s.games_target() << " (" << p.games_played()
            << " finished); slices " << p.slices_done() << "/" << p.slices() << " of " << d.slice_games()
            << " games, " << counted(s.active_workers(), "worker") << " active\n";
        out << "  data       " << p.positions() << " positions in " << p.chunks() << " chunks, " << p.bytes()
            << " bytes (xq data list --test " << s.id() << ")\n";
        if (view.workers_size()) {
            out << "  workers\n";
            for (const auto& w : view.workers())
                out << "    " << w.worker_id() << " " << w.worker_name() << ": " << w.games() << " games\n";
        }
        if (view.events_size()) {
            out << "  events\n";
            for (const auto& e : view.events()) out << "    " << e << "\n";
        }
        return out.str();
    }
    if (view.spec().has_spsa()) return out.str() + spsaText(view);
    auto engine = [](const v1::EngineSpec& e) {
        if (e.has_source())
            return e.name() + " [commit " + e.source().commit().substr(0, 12) + " \"" + e.source().subject() +
                   "\"" + (e.source().author().empty() ? "" : " by " + e.source().author()) +
                   (e.source().ref().empty() ? "" : ", ref " + e.source().ref()) + "]";
        return e.name() + " [" + e.binary_sha256().substr(0, 12) + "]" +
               (e.net_sha256().empty() ? std::string() : " net xq-" + e.net_sha256().substr(0, 12) + ".nnue");
    };
    out << "  engines    dev " << engine(m.dev()) << " vs base " << engine(m.base()) << "\n";
    if (std::string c = compareText(m); !c.empty())
        out << "  compare    " << c << "  (built by each worker: " << m.dev().source().build_command()
            << ")\n";
    out << "  tc         dev " << m.dev().tc() << ", base " << m.base().tc() << "\n";
    if (m.game() == "chess")
        out << "  game       chess (FIDE's rules)\n";
    else if (m.game() == "capturego")
        out << "  game       capturego (board " << m.board() << "; games as SGF)\n";
    else
        out << "  rules      " << (m.rules() == "chinese" ? "chinese" : "asian") << "\n";
    out << "  games      " << s.games() << " of " << s.games_target() << (s.is_sprt() ? " at most" : "")
        << ", " << counted(s.active_workers(), "worker") << " active\n";
    out << "  W/D/L      "
        << (s.wdl_size() == 3 ? std::to_string(s.wdl(0)) + " / " + std::to_string(s.wdl(1)) + " / " +
                                    std::to_string(s.wdl(2))
                              : "-")
        << "\n";
    out << "  ptnml      ";
    for (int i = 0; i < s.penta().counts_size(); ++i) out << (i ? ", " : "") << s.penta().counts(i);
    out << "  (LL, LD, DD+WL, WD, WW)\n";
    out << "  Elo        " << fixed(s.elo(), 2) << " +- " << fixed(s.elo_error(), 2) << ", LOS "
        << fixed(100 * s.los(), 1) << "%\n";
    if (s.is_sprt())
        out << "  LLR        " << fixed(s.llr(), 3) << " [" << fixed(s.lower_bound(), 3) << ", "
            << fixed(s.upper_bound(), 3) << "]  SPRT elo0=" << view.spec().sprt().elo0()
            << " elo1=" << view.spec().sprt().elo1() << " ("
            << (view.spec().sprt().model().empty() ? "normalized" : view.spec().sprt().model()) << ")\n";
    const auto& f = view.failures();
    out << "  failures   " << counted(f.crashes(), "crash", "crashes") << ", "
        << counted(f.time_losses(), "time loss", "time losses") << ", "
        << counted(f.illegal_moves(), "illegal move") << ", " << counted(f.stalls(), "stall") << "\n";
    if (view.workers_size()) {
        out << "  workers\n";
        for (const auto& w : view.workers())
            out << "    " << w.worker_id() << " " << w.worker_name() << ": " << w.games() << " games, "
                << w.failures().crashes() + w.failures().stalls() << " crashes/stalls, "
                << w.failures().time_losses() << " time losses, " << w.failures().illegal_moves()
                << " illegal" << (w.suspended() ? "  SUSPENDED" : "") << "\n";
    }
    if (view.events_size()) {
        out << "  events\n";
        for (const auto& e : view.events()) out << "    " << e << "\n";
    }
    return out.str();
}

std::string testListJson(const v1::ListTestsResponse& list) {
    json j = json::array();
    for (const auto& s : list.tests()) j.push_back(summaryJson(s));
    return j.dump(2);
}

std::string workersText(const v1::ListWorkersResponse& list) {
    std::ostringstream out;
    for (const auto& w : list.workers())
        out << w.id() << "  " << w.name() << "  " << (w.alive() ? "alive" : "gone") << "  " << w.cores()
            << " cores  " << w.engine_nps() << " nps  "
            << (w.current_test_id() ? "test " + std::to_string(w.current_test_id()) : "idle") << "  "
            << w.version() << "\n";
    return out.str();
}

json workersObject(const v1::ListWorkersResponse& list) {
    json j = json::array();
    for (const auto& w : list.workers())
        j.push_back({{"id", w.id()},
                     {"name", w.name()},
                     {"alive", w.alive()},
                     {"cores", w.cores()},
                     {"memory_mb", w.memory_mb()},
                     {"engine_nps", w.engine_nps()},
                     {"cpu_model", w.cpu_model()},
                     {"version", w.version()},
                     {"last_seen_unix", w.last_seen_unix()},
                     {"current_test_id", w.current_test_id()},
                     {"concurrency", w.concurrency()},
                     {"games", w.games()},
                     {"failures", failuresJson(w.failures())},
                     {"suspensions", w.suspensions()}});
    return j;
}

std::string workersJson(const v1::ListWorkersResponse& list) {
    return workersObject(list).dump(2);
}

}  // namespace xq::coord
