#include "sql_dialect.h"

#include <gtest/gtest.h>

using xq::coord::toPostgres;

TEST(SqlDialect, NumbersBareAndNumberedParametersAsPostgresDoes) {
    EXPECT_EQ(toPostgres("SELECT a FROM t WHERE b = ? AND c = ?"), "SELECT a FROM t WHERE b = $1 AND c = $2");
    EXPECT_EQ(toPostgres("UPDATE t SET a = a + ?3 WHERE id = ?1 OR id = ?2"),
              "UPDATE t SET a = a + $3 WHERE id = $1 OR id = $2");
    EXPECT_EQ(toPostgres("SELECT ?2, ?"), "SELECT $2, $3");
}

TEST(SqlDialect, LeavesQuotedTextAlone) {
    EXPECT_EQ(toPostgres("SELECT 'a ? INTEGER ''b''' FROM t WHERE x = ?"),
              "SELECT 'a ? INTEGER ''b''' FROM t WHERE x = $1");
}

TEST(SqlDialect, InsertOrIgnoreBecomesOnConflictDoNothing) {
    EXPECT_EQ(toPostgres("INSERT OR IGNORE INTO r (a, b) VALUES (?, ?)"),
              "INSERT INTO r (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING");
    EXPECT_EQ(toPostgres("INSERT INTO r (a) VALUES (?)"), "INSERT INTO r (a) VALUES ($1)");
}

TEST(SqlDialect, RewritesColumnTypesAndDropsForeignKeys) {
    EXPECT_EQ(toPostgres("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, b BLOB, r REAL)"),
              "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, n BIGINT NOT NULL, b BYTEA, r DOUBLE PRECISION)");
    EXPECT_EQ(toPostgres("CREATE TABLE l (test_id INTEGER NOT NULL REFERENCES tests(id), k INTEGER)"),
              "CREATE TABLE l (test_id BIGINT NOT NULL, k BIGINT)");
    // A composite key is not an id the database assigns.
    EXPECT_EQ(toPostgres("a INTEGER, PRIMARY KEY (a)"), "a BIGINT, PRIMARY KEY (a)");
}
