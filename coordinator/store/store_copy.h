// Moves a coordinator's store from SQLite to PostgreSQL (`xq-coordinator store copy`): every table, row
// for row, into an empty database at the same schema version, in one transaction, so that a copy is whole
// or absent. Row order is kept where it carries meaning (pairs and games are read in arrival order), and
// PostgreSQL's id sequences continue after the copied ids. Files (artifacts/, data/) are not copied: the
// replicas use the same --data directory (see deploy/README.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace xq::coord {

struct TableCopy {
    std::string table;
    std::int64_t rows = 0;
};

// Copies the SQLite store at `sqlitePath` (migrated first to this coordinator's schema) into the empty
// PostgreSQL database at `postgresUrl`. Throws std::runtime_error naming what is wrong: a source that is
// not a SQLite store, a destination that already holds data. `progress` hears of each table when done.
std::vector<TableCopy> copyStore(const std::string& sqlitePath, const std::string& postgresUrl,
                                 const std::function<void(const TableCopy&)>& progress = {});

}  // namespace xq::coord
