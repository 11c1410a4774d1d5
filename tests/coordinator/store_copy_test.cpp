// Moving a SQLite coordinator to PostgreSQL (`xq-coordinator store copy`): runs where the tests have a
// PostgreSQL server (the pg. run; test_store.h).
#include "store_copy.h"

#include <gtest/gtest.h>

#include "data_chunk.h"
#include "fixture.h"

using namespace xq::coord;
using xq::coord::testing::Fixture;
using xq::coord::testing::pgnOfGames;
using xq::coord::testing::TestStore;
namespace v1 = xq::v1;

namespace {

std::string allGames(Coordinator& coord, std::int64_t testId) {
    std::string gz;
    for (std::int64_t cursor = 0;;) {
        auto page = coord.gamesPage(testId, cursor, 1);
        if (page.members.empty()) break;
        cursor = page.cursor;
        for (const auto& m : page.members) gz += m;
    }
    return gunzipText(gz, 1 << 24, true);
}

}  // namespace

TEST(StoreCopy, ASqliteCoordinatorMovesToPostgresWithEverythingAndGoesOn) {
    TestStore pg;
    if (!pg.postgres()) GTEST_SKIP() << "needs a PostgreSQL server: runs as pg.StoreCopy.*";
    Fixture f;
    CoordinatorOptions o = f.options();
    o.store = "";  // SQLite in the data directory
    f.coord = std::make_unique<Coordinator>(o);
    std::string userToken = f.coord->createToken(Role::User, "alice");
    std::string workerToken = f.coord->createToken(Role::Worker, "box");
    f.user = f.coord->authenticate(userToken);
    f.worker = f.coord->authenticate(workerToken);
    auto id = std::int64_t(f.coord->submit(f.user, f.request(40, true)).test_id());
    auto w = f.registerWorker();
    auto job = f.job(w).job();
    auto r1 = f.reportOf(job, w, 1, 0, 2, 3);
    r1.set_pgn_gz(gzipText(pgnOfGames(4, " first")));
    f.coord->report(f.worker, r1);
    auto r2 = f.reportOf(job, w, 2, 2, 1, 1);
    r2.set_pgn_gz(gzipText(pgnOfGames(2, " second")));
    f.coord->report(f.worker, r2);
    auto before = f.coord->showTest(id);
    auto history = f.coord->testHistory(id);
    std::string games = allGames(*f.coord, id);
    f.coord.reset();

    std::vector<std::string> heard;
    auto tables = copyStore(o.dataDir + "/coordinator.db", pg.url,
                            [&](const TableCopy& t) { heard.push_back(t.table); });
    EXPECT_EQ(heard.size(), tables.size());
    auto rowsOf = [&](const std::string& table) {
        for (const auto& t : tables)
            if (t.table == table) return t.rows;
        return std::int64_t(-1);
    };
    EXPECT_EQ(rowsOf("tests"), 1);
    EXPECT_EQ(rowsOf("pairs"), 3);
    EXPECT_EQ(rowsOf("games"), 2);
    EXPECT_EQ(rowsOf("tokens"), 2);

    // The same coordinator on PostgreSQL: the same test, charts and games; the same tokens and worker.
    o.store = pg.url;
    f.coord = std::make_unique<Coordinator>(o);
    auto after = f.coord->showTest(id);
    EXPECT_EQ(after.DebugString(), before.DebugString());
    auto historyAfter = f.coord->testHistory(id);
    ASSERT_EQ(historyAfter.size(), history.size());
    for (std::size_t i = 0; i < history.size(); ++i) EXPECT_DOUBLE_EQ(historyAfter[i].llr, history[i].llr);
    EXPECT_EQ(allGames(*f.coord, id), games);
    f.user = f.coord->authenticate(userToken);
    f.worker = f.coord->authenticate(workerToken);

    // It goes on: the lease takes its last pair, new rows get ids after the copied ones.
    auto r3 = f.reportOf(job, w, 3, 3, 1, 4);
    f.coord->report(f.worker, r3);
    EXPECT_EQ(f.coord->showTest(id).summary().games(), before.summary().games() + 2);
    auto second = std::int64_t(f.coord->submit(f.user, f.request(10, false)).test_id());
    EXPECT_EQ(second, id + 1);
    EXPECT_GT(f.registerWorker(), w);

    // A database that holds data is refused: a copy never mixes two stores.
    f.coord.reset();
    try {
        copyStore(o.dataDir + "/coordinator.db", pg.url);
        ADD_FAILURE() << "copied into a database that holds data";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("already holds"), std::string::npos) << e.what();
    }
    EXPECT_THROW(copyStore(o.dataDir + "/nothing.db", pg.url), std::runtime_error);
}
