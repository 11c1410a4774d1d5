// How `xq runs` and `xq show run` print a run (coordinator/client/run_report.h): the generations table's
// figures, losses not yet known as "-" (null in JSON), the gate's W/D/L, Elo and LLR, and the list's columns.
#include "run_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace {

// A run in generation 2's gate, after generation 1 was promoted.
xq::v1::RunView twoGenerations() {
    xq::v1::RunView view;
    auto* s = view.mutable_summary();
    s->set_id(7);
    s->set_state(xq::v1::RUN_STATE_RUNNING);
    s->set_description("two generations");
    s->set_generation(2);
    s->set_step("gate");
    s->set_step_test_id(12);
    s->set_best_net_sha256(std::string(12, 'b') + std::string(52, '0'));
    s->set_best_generation(1);
    s->set_promotions(1);
    s->set_elo(12.34);
    s->set_elo_error(20.06);
    auto* spec = view.mutable_spec();
    (*spec->mutable_recipe())["lr"] = "0.0005";
    (*spec->mutable_recipe())["epochs"] = "4";
    spec->mutable_gate()->mutable_base()->set_tc("nodes=20000");
    spec->set_max_failed_gates(3);
    auto* g1 = view.add_generations();
    g1->set_generation(1);
    g1->set_step("done");
    g1->set_promoted(true);
    g1->set_positions(120000);
    g1->set_window_positions(120000);
    g1->set_train_loss(0.012345);
    g1->set_validation_loss(0.013);
    g1->set_training_seconds(42.5);
    auto* gate = g1->mutable_gate();
    gate->set_id(9);
    gate->set_is_sprt(true);
    gate->set_llr(2.951);
    gate->set_elo(12.34);
    gate->set_elo_error(20.06);
    for (auto n : {40, 50, 30}) gate->add_wdl(std::uint64_t(n));
    auto* g2 = view.add_generations();
    g2->set_generation(2);
    g2->set_step("gate");
    g2->set_positions(118000);
    g2->set_window_positions(238000);
    g2->set_train_loss(std::nan(""));
    g2->set_validation_loss(std::nan(""));
    view.add_events("generation 1: promoted");
    return view;
}

}  // namespace

TEST(RunReport, ShowRunPrintsTheGenerationsTableAndTheStepNow) {
    const std::string text = xq::coord::runViewText(twoGenerations(), "generation 2 gate, test 12: games 10");
    EXPECT_NE(text.find("run 7 running: generation 2, gate (test 12)"), std::string::npos) << text;
    EXPECT_NE(text.find("xq-bbbbbbbbbbbb.nnue (gen 1), Elo over the start +12.3 +- 20.1, 1 promotion"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("training     epochs=4,lr=0.0005"), std::string::npos) << text;
    EXPECT_NE(
        text.find(
            "   1     120000     120000    0.01235    0.01300      42.5       40/50/30     +12.3 +- 20.1    "
            "2.95 yes"),
        std::string::npos)
        << text;
    EXPECT_NE(
        text.find("   2     118000     238000          -          -         -              -                 "
                  "-       - (gate)"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("now: generation 2 gate, test 12: games 10"), std::string::npos) << text;
    EXPECT_NE(text.find("events\n  generation 1: promoted\n"), std::string::npos) << text;
}

TEST(RunReport, JsonHasEveryGenerationWithNullForLossesNotYetKnown) {
    auto j = nlohmann::json::parse(xq::coord::runViewJson(twoGenerations()));
    EXPECT_EQ(j["id"], 7);
    EXPECT_EQ(j["state"], "running");
    EXPECT_EQ(j["best_generation"], 1);
    ASSERT_EQ(j["generations"].size(), 2u);
    EXPECT_EQ(j["generations"][0]["promoted"], true);
    EXPECT_DOUBLE_EQ(j["generations"][0]["train_loss"].get<double>(), 0.012345);
    EXPECT_EQ(j["generations"][0]["gate"]["wdl"], nlohmann::json({40, 50, 30}));
    EXPECT_TRUE(j["generations"][1]["train_loss"].is_null());
    EXPECT_FALSE(j["generations"][1].contains("gate")) << "no gate test yet";
    EXPECT_EQ(j["spec"]["recipe"]["epochs"], "4");
    EXPECT_EQ(j["events"][0], "generation 1: promoted");
}

TEST(RunReport, RunsListsEachRunOnALine) {
    xq::v1::ListRunsResponse list;
    EXPECT_EQ(xq::coord::runListText(list), "no runs\n");
    *list.add_runs() = twoGenerations().summary();
    auto* hce = list.add_runs();
    hce->set_id(3);
    hce->set_state(xq::v1::RUN_STATE_STOPPED);
    hce->set_generation(1);
    hce->set_step("selfplay");
    const std::string text = xq::coord::runListText(list);
    EXPECT_NE(
        text.find(
            "    7  running   2 gate       xq-bbbbbbbbbbbb.nnue (gen 1)   +12.3 +- 20.1    two generations"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("    3  stopped   1 selfplay   hand-written (start)           0.0 +- 0.0"),
              std::string::npos)
        << text;
    EXPECT_EQ(nlohmann::json::parse(xq::coord::runListJson(list))[1]["state"], "stopped");
}
