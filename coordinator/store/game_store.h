// The games of match tests (schema version 4): the PGN a worker sends with a report, gzip-compressed,
// one row per report beside it and written in the report's transaction, so a game record lasts as long
// as the result it belongs to. Gzip members concatenate into one valid gzip file, which is how a test's
// games are downloaded. Works on the Coordinator's connection and opens no transactions itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "database.h"
#include "report_games.h"

namespace xq::coord {

struct GameTotals {
    std::int64_t reports = 0, games = 0, bytes = 0;
};

class GameStore {
  public:
    explicit GameStore(Database& db) : db_(db) {}

    void insert(std::int64_t leaseId, std::int64_t sequence, std::int64_t testId, std::int64_t games,
                std::string_view pgnGz);
    GameTotals totals(std::int64_t testId);
    // The stored gzip members of the test in the order the reports arrived, from after `cursor` (0: the
    // first) up to about maxBytes; an empty page is the end. Reading page by page lets a download release
    // the coordinator between pages.
    struct Page {
        std::vector<std::string> members;
        std::int64_t cursor = 0;  // pass back for the next page
    };
    Page page(std::int64_t testId, std::int64_t cursor, std::size_t maxBytes);

  private:
    Database& db_;
};

}  // namespace xq::coord
