#include "match_kind.h"

#include <algorithm>

#include "board.h"
#include "capturego_settings.h"
#include "coordinator_options.h"
#include "errors.h"
#include "net_file.h"
#include "openings.h"
#include "scheduler.h"
#include "sprt.h"
#include "time_control.h"
#include "util/text.h"
#include "xiangqi/rules.h"

namespace xq::coord {

namespace {

void checkEngine(KindHost& host, const v1::EngineSpec& e, const std::string& who) {
    if (e.has_source()) {
        const auto& src = e.source();
        if (!e.binary_sha256().empty()) bad(who + " engine has both a binary and a source; give one");
        host.checkArtifact(src.source_sha256(), who + " engine source", false);
        if (src.build_command().empty() || src.build_command().size() > 2000)
            bad(who + " build command must be 1 to 2000 characters");
        const std::string& bin = src.binary_path();
        if (bin.empty() || bin.size() > 500 || bin.front() == '/' || bin.find("..") != std::string::npos)
            bad(who + " binary path must be a path inside the source, got '" + bin.substr(0, 100) + "'");
        if (src.commit().size() > 64 || src.subject().size() > 500)
            bad(who + " commit must be at most 64 characters and its subject at most 500");
    } else {
        host.checkArtifact(e.binary_sha256(), who + " engine binary", false);
    }
    host.checkArtifact(e.weights_sha256(), who + " weights", true);
    host.checkArtifact(e.net_sha256(), who + " network", true);
    if (!e.net_sha256().empty()) {
        if (std::string problem = networkFileProblem(host.artifactFile(e.net_sha256())); !problem.empty())
            bad(who + " network " + e.net_sha256().substr(0, 12) + ": " + problem);
        if (e.protocol() == "ucci" || e.protocol() == "fairy")
            bad(who + " network is set with option EvalFile over uci, not over " + e.protocol());
    }
    if (!e.protocol().empty() && e.protocol() != "uci" && e.protocol() != "ucci" && e.protocol() != "fairy" &&
        e.protocol() != "gtp")
        bad(who + " protocol must be uci, ucci, fairy or gtp, got '" + e.protocol().substr(0, 100) + "'");
    try {
        auto tc = match::TimeControl::parse(e.tc());
        if (!tc.isLimited()) bad(who + " time control '" + e.tc() + "' does not limit the search");
    } catch (const std::invalid_argument& ex) {
        bad(who + " time control: " + ex.what());
    }
}

// What a capturego test may not have, and its board and book. Capture Go is played by GTP engines (GNU Go,
// xq-go) under the rules of `board`: Xiangqi's rule sets, score adjudication (GTP engines report no
// scores), clock scaling and bench signatures (a GTP engine has no bench), weights and networks (EvalFile
// is a UCI option) do not apply. A book must hold positions of the board's size; the board's rules and komi
// replace theirs (games::captureGoOpeningText), as the worker does.
void checkCaptureGoEngines(const v1::MatchSpec& m) {
    for (const auto* e : {&m.base(), &m.dev()}) {
        const std::string who = e == &m.base() ? "base" : "dev";
        if (e->protocol() != "gtp")
            bad(who + " protocol must be gtp for capturego (a Go engine such as gnugo --mode gtp), got '" +
                (e->protocol().empty() ? std::string("uci") : e->protocol().substr(0, 100)) + "'");
        if (e->bench_signature() != 0)
            bad(who + " bench signature: a GTP engine has no bench to check; capturego tests take none");
        if (!e->weights_sha256().empty())
            bad(who + " weights: weights (option EvalFile) are for Xiangqi and chess engines, not capturego");
        if (!e->net_sha256().empty()) bad(who + " network: networks are Xiangqi's, not capturego's");
        // The GTP session refuses every option, so a worker would fail each lease of the test for ever.
        if (!e->options().empty())
            bad(who + " option '" + e->options().begin()->first.substr(0, 100) +
                "': GTP engines take no options; give them as command-line arguments (args=...)");
    }
}

std::size_t checkCaptureGo(KindHost& host, const v1::MatchSpec& m) {
    if (!m.rules().empty())
        bad("rules '" + m.rules().substr(0, 100) +
            "' is a Xiangqi rule set (asian or chinese); a capturego test takes its rules from board "
            "(rules=capture|go)");
    if (m.resign_score() != 0 || m.resign_moves() != 0 || m.draw_score() != 0 || m.draw_moves() != 0 ||
        m.draw_move_number() != 0)
        bad("resign and draw adjudication are Xiangqi's and chess's: GTP engines report no scores, and "
            "capturego's rules end every game");
    if (m.reference_nps() != 0)
        bad("reference_nps: clocks are scaled by the base engine's bench speed, and a GTP engine has no "
            "bench; a capturego test takes none");
    games::CaptureGoSettings settings;
    try {
        settings = games::parseCaptureGoSettings(m.board(), "board");
    } catch (const std::invalid_argument& ex) {
        bad(ex.what());
    }
    host.checkArtifact(m.openings_sha256(), "openings", true);
    if (m.openings_sha256().empty()) return 0;
    std::vector<match::Opening> book;
    try {
        book = match::loadOpenings(host.artifactFile(m.openings_sha256()), games::Game::CaptureGo);
    } catch (const std::exception& ex) {
        bad(std::string("openings (capturego): ") + ex.what());
    }
    for (std::size_t i = 0; i < book.size(); ++i) {
        try {
            games::captureGoOpeningText(settings, book[i].fen);
        } catch (const std::invalid_argument& ex) {
            bad("openings (capturego): opening " + std::to_string(i + 1) + " (" + book[i].fen.substr(0, 100) +
                "): " + ex.what() + " (board " + games::captureGoSettingsText(settings) + ")");
        }
    }
    return book.size();
}

// Whether the match's pairs replay identically past its book (match::replaysIdentically): its time controls
// are already validated. A GTP engine at nodes= is told nothing about time and plays at its own settings,
// which replay too: GNU Go at a --level plays the same game from the same opening, run after run.
bool replaysIdentically(const v1::MatchSpec& m) {
    bool multiThreaded = false;
    for (const auto* e : {&m.base(), &m.dev()})
        for (const auto& [name, value] : e->options()) multiThreaded |= match::asksForThreads(name, value);
    return match::replaysIdentically(match::TimeControl::parse(m.base().tc()),
                                     match::TimeControl::parse(m.dev().tc()), multiThreaded);
}

}  // namespace

std::size_t checkMatchSpec(KindHost& host, const v1::MatchSpec& m) {
    const std::optional<games::Game> game =
        m.game().empty() ? games::Game::Xiangqi : games::parseGame(m.game());
    if (!game) bad("game must be xiangqi, chess or capturego, got '" + m.game().substr(0, 100) + "'");
    // Before the engines' artifacts: a weights or network file a GTP engine cannot take is named as such.
    if (*game == games::Game::CaptureGo) checkCaptureGoEngines(m);
    checkEngine(host, m.base(), "base");
    checkEngine(host, m.dev(), "dev");
    if (m.concurrency_per_worker() > 1024) bad("concurrency_per_worker must be at most 1024");
    if (*game == games::Game::CaptureGo) return checkCaptureGo(host, m);
    if (!m.board().empty())
        bad("board is Capture Go's (size, rules, target, komi): give game capturego, or no board");
    for (const auto* e : {&m.base(), &m.dev()})
        if (e->protocol() == "gtp")
            bad(std::string(e == &m.base() ? "base" : "dev") +
                " protocol gtp is Capture Go's: give game capturego, or an engine over uci, ucci or fairy");
    if (*game == games::Game::Chess) {
        for (const auto* e : {&m.base(), &m.dev()})
            if (e->protocol() == "ucci")
                bad(std::string(e == &m.base() ? "base" : "dev") +
                    " protocol ucci is Xiangqi's: a chess engine speaks uci or fairy");
        if (!m.rules().empty()) bad("rules are Xiangqi's (asian or chinese): a chess test has none");
        for (const auto* e : {&m.base(), &m.dev()})
            if (!e->net_sha256().empty())
                bad(std::string(e == &m.base() ? "base" : "dev") + " network: networks are Xiangqi's");
    }
    host.checkArtifact(m.openings_sha256(), "openings", true);
    std::size_t openings = 0;
    if (!m.openings_sha256().empty()) {
        try {
            openings = match::loadOpenings(host.artifactFile(m.openings_sha256()), *game).size();
        } catch (const std::exception& ex) {
            bad(std::string("openings (") + games::gameName(*game) + "): " + ex.what());
        }
    }
    if (!m.rules().empty() && !parseRuleSet(m.rules()))
        bad("rules must be asian or chinese, got '" + m.rules().substr(0, 100) + "'");
    return openings;
}

std::int64_t pairsToPlay(const KindHost& host, const v1::MatchSpec& m, std::size_t openings,
                         std::int64_t games, std::vector<std::string>& events) {
    if (games == 0) games = host.options().defaultSprtMaxGames;
    std::int64_t pairs = (games + 1) / 2;
    // Pairs past the book would be copies of earlier ones: they cost the cluster time and, counted as new
    // results, make the error bars and the SPRT overconfident.
    const std::int64_t distinct = std::int64_t(std::max<std::size_t>(openings, 1));
    if (pairs > distinct && replaysIdentically(m)) {
        events.push_back(
            "game cap lowered from " + std::to_string(2 * pairs) + " to " + std::to_string(2 * distinct) +
            ": both engines search to a node or depth limit with one thread, so after one pair per " +
            (openings == 0 ? std::string("start position (no book)")
                           : "opening (" + std::to_string(openings) + ")") +
            " every pair would replay an earlier one move for move");
        pairs = distinct;
    }
    return pairs;
}

LeaseRow leasePairs(KindHost& host, TestRow& test, const v1::MatchSpec& jobSpec, const LeaseAsk& ask,
                    v1::JobResponse& resp) {
    const auto& options = host.options();
    std::int64_t concurrency = jobSpec.concurrency_per_worker() > 0
                                   ? std::min<std::int64_t>(jobSpec.concurrency_per_worker(), ask.concurrency)
                                   : ask.concurrency;
    double gameSeconds =
        estimateGameSeconds(jobSpec.base().tc(), jobSpec.dev().tc(), ask.engineNps, options.chunk);
    std::int64_t available = test.pairsTarget - test.pairsDone() - test.outstandingPairs;
    std::int64_t pairs = chunkPairs(gameSeconds, concurrency, available, options.chunk);

    LeaseRow lease;
    lease.testId = test.id;
    lease.workerId = ask.workerId;
    lease.firstPair = test.nextPair;
    lease.pairCount = pairs;
    lease.concurrency = concurrency;
    lease.createdMs = host.now();
    host.startLease(lease);
    test.nextPair += pairs;
    host.store().saveTest(test);

    auto* job = resp.mutable_job();
    job->set_lease_id(std::uint64_t(lease.id));
    job->set_test_id(std::uint64_t(test.id));
    auto* mj = job->mutable_match();
    *mj->mutable_spec() = jobSpec;
    mj->mutable_spec()->set_concurrency_per_worker(std::uint32_t(concurrency));
    mj->set_first_pair(std::uint64_t(lease.firstPair));
    mj->set_pair_count(std::uint32_t(pairs));
    return lease;
}

std::int64_t MatchKind::create(v1::TestSpec& spec, std::vector<std::string>& events) {
    const std::size_t openings = checkMatchSpec(host_, spec.match());
    if (spec.has_sprt()) {
        try {
            stats::validate(sprtConfigOf(spec.sprt()));
        } catch (const std::exception& ex) {
            bad(std::string("sprt: ") + ex.what());
        }
    } else if (spec.games() == 0) {
        bad("a test needs either an SPRT or a number of games");
    }
    if (spec.match().game() == "capturego")  // stored canonical, so that the page and the workers agree
        spec.mutable_match()->set_board(
            games::captureGoSettingsText(games::parseCaptureGoSettings(spec.match().board(), "board")));
    std::int64_t pairs = pairsToPlay(host_, spec.match(), openings, std::int64_t(spec.games()), events);
    return host_.store().insertTest(name(), spec.SerializeAsString(), pairs, host_.now());
}

std::int64_t MatchKind::available(const TestRow& t, const v1::TestSpec&) {
    return t.pairsTarget - t.pairsDone() - t.outstandingPairs;
}

void MatchKind::lease(TestRow& test, const v1::TestSpec& spec, const LeaseAsk& ask, v1::JobResponse& resp) {
    leasePairs(host_, test, spec.match(), ask, resp);
}

void MatchKind::accept(TestRow& test, const v1::TestSpec& spec, const LeaseRow&, const PairTally&) {
    if (spec.has_sprt()) test.llr = stats::sprt(pentaOf(test), sprtConfigOf(spec.sprt())).llr;
}

std::optional<std::string> MatchKind::completion(const TestRow& test, const v1::TestSpec& spec) {
    if (spec.has_sprt()) {
        auto decision = stats::sprt(pentaOf(test), sprtConfigOf(spec.sprt())).decision;
        if (decision == stats::Decision::AcceptH1) return "H1 accepted";
        if (decision == stats::Decision::AcceptH0) return "H0 accepted";
    }
    if (test.pairsDone() >= test.pairsTarget)
        // The result says how it ended, not again that it did ("finished: finished").
        return spec.has_sprt() ? "no verdict within the game cap"
                               : "all " + xq::counted(2 * test.pairsDone(), "game") + " played";
    return std::nullopt;
}

void MatchKind::summarize(const TestRow& t, const v1::TestSpec& spec, v1::TestSummary& s) {
    s.set_is_sprt(spec.has_sprt());
    if (spec.has_sprt()) {
        auto cfg = sprtConfigOf(spec.sprt());
        s.set_llr(t.llr);
        s.set_lower_bound(cfg.lowerBound());
        s.set_upper_bound(cfg.upperBound());
    }
}

std::vector<std::pair<std::string, std::string>> matchArtifacts(const v1::MatchSpec& m) {
    std::vector<std::pair<std::string, std::string>> out;
    engineArtifacts(m.base(), "base", out);
    engineArtifacts(m.dev(), "dev", out);
    if (!m.openings_sha256().empty()) out.emplace_back("opening book", m.openings_sha256());
    return out;
}

std::vector<std::pair<std::string, std::string>> MatchKind::artifacts(const v1::TestSpec& spec) const {
    return matchArtifacts(spec.match());
}

}  // namespace xq::coord
