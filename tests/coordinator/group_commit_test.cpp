// Group commit (coordinator/database.h): writers share one batch and one durable COMMIT, and a batch whose
// writers all rolled back ends at once instead of holding the database's write lock.
#include <gtest/gtest.h>

#include <mutex>
#include <utility>

#include "database.h"
#include "test_util.h"

using namespace xq::coord;
using xq::coord::testing::TempDir;

namespace {

// Whether another connection can take the write lock at once (no waiting: busy timeout 0).
bool writeLockIsFree(const std::string& path) {
    Database other(path);
    other.exec("PRAGMA busy_timeout = 0");
    try {
        other.exec("BEGIN IMMEDIATE");
    } catch (const DatabaseError&) {
        return false;
    }
    other.exec("ROLLBACK");
    return true;
}

std::int64_t rows(Database& db) {
    auto s = db.prepare("SELECT COUNT(*) FROM t");
    s.step();
    return s.int64(0);
}

}  // namespace

TEST(GroupCommit, ABatchWhoseOnlyWriterRolledBackReleasesTheWriteLock) {
    TempDir dir;
    const std::string path = dir.file("g.db");
    Database db(path);
    db.exec("CREATE TABLE t (x INTEGER)");
    std::mutex writers;
    GroupCommit group(writers);
    db.setGroupCommit(&group);
    {
        std::lock_guard lock(writers);
        Transaction tx(db);
        db.exec("INSERT INTO t VALUES (1)");
        // A refused request: no commit.
    }
    EXPECT_TRUE(writeLockIsFree(path)) << "the rolled-back batch still holds the write lock";
    EXPECT_EQ(rows(db), 0);
}

TEST(GroupCommit, ARollbackAfterACommitInTheSameBatchKeepsTheCommitForItsWaiter) {
    TempDir dir;
    const std::string path = dir.file("g.db");
    Database db(path);
    db.exec("CREATE TABLE t (x INTEGER)");
    std::mutex writers;
    GroupCommit group(writers);
    db.setGroupCommit(&group);
    std::uint64_t batch = 0;
    {
        std::lock_guard lock(writers);
        {
            Transaction tx(db);
            db.exec("INSERT INTO t VALUES (1)");
            tx.commit();
            batch = std::exchange(GroupCommit::pendingBatch(), 0);
        }
        Transaction refused(db);
        db.exec("INSERT INTO t VALUES (2)");
    }
    EXPECT_FALSE(writeLockIsFree(path)) << "the batch holds a commit not yet durable";
    group.waitDurable(db, batch);
    EXPECT_TRUE(writeLockIsFree(path));
    EXPECT_EQ(rows(db), 1);
    Database reopened(path);
    EXPECT_EQ(rows(reopened), 1);
}
