// The SQL side of SPSA tests (schema version 9): each test's parameters now (an SpsaPoint: iterations
// counted and values), the iteration and perturbation signs each of its leases was given, and its
// parameters over iterations for charts. Works on the Coordinator's connection and opens no transactions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "database.h"
#include "xq/v1/coordinator.pb.h"

namespace xq::coord {

struct SpsaLeaseRow {
    std::int64_t iteration = 0;  // iterations counted when the lease was made
    std::string flips;           // one '+' or '-' per parameter
};

class SpsaStore {
  public:
    explicit SpsaStore(Database& db) : db_(db) {}

    void insertState(std::int64_t testId, const xq::v1::SpsaPoint& point);
    // Throws DatabaseError when the test has no state (a store damaged by hand).
    xq::v1::SpsaPoint state(std::int64_t testId);
    void saveState(std::int64_t testId, const xq::v1::SpsaPoint& point);

    void insertLease(std::int64_t leaseId, const SpsaLeaseRow& row);
    std::optional<SpsaLeaseRow> lease(std::int64_t leaseId);

    void addHistory(std::int64_t testId, const xq::v1::SpsaPoint& point);
    std::vector<xq::v1::SpsaPoint> history(std::int64_t testId);

  private:
    Database& db_;
};

}  // namespace xq::coord
