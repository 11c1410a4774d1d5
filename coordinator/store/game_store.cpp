#include "game_store.h"

#include <stdexcept>

namespace xq::coord {

void GameStore::insert(std::int64_t leaseId, std::int64_t sequence, std::int64_t testId, std::int64_t games,
                       std::string_view pgnGz) {
    db_.prepare(
           "INSERT OR IGNORE INTO games (lease_id, sequence, test_id, games, pgn_gz) VALUES (?, ?, ?, ?, ?)")
        .bind(1, leaseId)
        .bind(2, sequence)
        .bind(3, testId)
        .bind(4, games)
        .bindBlob(5, pgnGz)
        .run();
}

GameTotals GameStore::totals(std::int64_t testId) {
    auto s = db_.prepare(
        "SELECT COUNT(*), COALESCE(SUM(games), 0), COALESCE(SUM(LENGTH(pgn_gz)), 0) FROM games WHERE test_id "
        "= ?");
    s.bind(1, testId);
    s.step();
    return {s.int64(0), s.int64(1), s.int64(2)};
}

GameStore::Page GameStore::page(std::int64_t testId, std::int64_t cursor, std::size_t maxBytes) {
    auto s = db_.prepare("SELECT rowid, pgn_gz FROM games WHERE test_id = ? AND rowid > ? ORDER BY rowid");
    s.bind(1, testId).bind(2, cursor);
    Page page;
    page.cursor = cursor;
    std::size_t bytes = 0;
    while (bytes < maxBytes && s.step()) {
        page.cursor = s.int64(0);
        page.members.push_back(s.blob(1));
        bytes += page.members.back().size();
    }
    return page;
}

}  // namespace xq::coord
