#include "spsa_store.h"

namespace xq::coord {

namespace {

xq::v1::SpsaPoint parsePoint(const std::string& bytes, std::int64_t testId) {
    xq::v1::SpsaPoint p;
    if (!p.ParseFromString(bytes))
        throw DatabaseError("store: SPSA state of test " + std::to_string(testId) + " is corrupt", false);
    return p;
}

}  // namespace

void SpsaStore::insertState(std::int64_t testId, const xq::v1::SpsaPoint& point) {
    db_.prepare("INSERT INTO spsa_state (test_id, point) VALUES (?, ?)")
        .bind(1, testId)
        .bindBlob(2, point.SerializeAsString())
        .run();
}

xq::v1::SpsaPoint SpsaStore::state(std::int64_t testId) {
    auto s = db_.prepare("SELECT point FROM spsa_state WHERE test_id = ?");
    s.bind(1, testId);
    if (!s.step()) throw DatabaseError("store: test " + std::to_string(testId) + " has no SPSA state", false);
    return parsePoint(s.blob(0), testId);
}

void SpsaStore::saveState(std::int64_t testId, const xq::v1::SpsaPoint& point) {
    db_.prepare("UPDATE spsa_state SET point = ? WHERE test_id = ?")
        .bindBlob(1, point.SerializeAsString())
        .bind(2, testId)
        .run();
}

void SpsaStore::insertLease(std::int64_t leaseId, const SpsaLeaseRow& row) {
    db_.prepare("INSERT INTO spsa_leases (lease_id, iteration, flips) VALUES (?, ?, ?)")
        .bind(1, leaseId)
        .bind(2, row.iteration)
        .bind(3, row.flips)
        .run();
}

std::optional<SpsaLeaseRow> SpsaStore::lease(std::int64_t leaseId) {
    auto s = db_.prepare("SELECT iteration, flips FROM spsa_leases WHERE lease_id = ?");
    s.bind(1, leaseId);
    if (!s.step()) return std::nullopt;
    return SpsaLeaseRow{s.int64(0), s.text(1)};
}

void SpsaStore::addHistory(std::int64_t testId, const xq::v1::SpsaPoint& point) {
    db_.prepare("INSERT OR IGNORE INTO spsa_history (test_id, iteration, point) VALUES (?, ?, ?)")
        .bind(1, testId)
        .bind(2, std::int64_t(point.iteration()))
        .bindBlob(3, point.SerializeAsString())
        .run();
}

std::vector<xq::v1::SpsaPoint> SpsaStore::history(std::int64_t testId) {
    auto s = db_.prepare("SELECT point FROM spsa_history WHERE test_id = ? ORDER BY iteration");
    s.bind(1, testId);
    std::vector<xq::v1::SpsaPoint> out;
    while (s.step()) out.push_back(parsePoint(s.blob(0), testId));
    return out;
}

}  // namespace xq::coord
