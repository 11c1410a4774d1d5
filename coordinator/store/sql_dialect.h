// The store's SQL is written once, in SQLite's syntax; this rewrites a statement for PostgreSQL. It knows
// only what the store uses, outside quoted strings:
// - `?` and `?N` parameters become `$N` (a bare `?` takes the next number after the largest so far);
// - `INSERT OR IGNORE INTO ...` becomes `INSERT INTO ... ON CONFLICT DO NOTHING`;
// - `REFERENCES table(column)` is dropped (SQLite, by default, does not enforce foreign keys);
// - column types: `INTEGER PRIMARY KEY` becomes `BIGSERIAL PRIMARY KEY` (an id the database assigns),
//   `INTEGER` `BIGINT`, `BLOB` `BYTEA` and `REAL` `DOUBLE PRECISION`.
// `rowid` stays as it is: the migrations give PostgreSQL's tables that read it a column of that name.
#pragma once

#include <string>
#include <string_view>

namespace xq::coord {

std::string toPostgres(std::string_view sqliteSql);

}  // namespace xq::coord
