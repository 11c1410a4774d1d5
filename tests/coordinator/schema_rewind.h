// Takes a store back to an older schema version, as an older coordinator left it: for the tests of
// migrations. Each version's step undoes that version's migration (coordinator/store.cpp); a new migration
// adds its step here.
#pragma once

#include "database.h"

namespace xq::coord::testing {

inline void rewindSchema(Database& db, int version) {
    const bool pg = db.dialect() == Dialect::Postgres;
    for (int v = db.userVersion(); v > version; --v) {
        switch (v) {
            case 13:
                db.exec(
                    "DROP TABLE runs; DROP TABLE run_generations; DROP TABLE run_events; DROP TABLE "
                    "training_state;");
                break;
            case 12:
                db.exec("DROP TABLE webhook_secrets; DROP TABLE webhook_deliveries;");
                break;
            case 11:
                db.exec("ALTER TABLE tests DROP COLUMN failed_leases;");
                break;
            case 10:
                db.exec(
                    "DROP TABLE test_artifacts; DROP INDEX artifacts_kind; ALTER TABLE artifacts DROP COLUMN "
                    "kind;");
                break;
            case 9:
                db.exec("DROP TABLE spsa_state; DROP TABLE spsa_leases; DROP TABLE spsa_history;");
                break;
            case 8:
                db.exec("DROP TABLE web_sessions;");
                break;
            case 7:
                db.exec(pg ? "DROP TRIGGER leases_load ON leases; DROP FUNCTION xq_lease_load;"
                           : "DROP TRIGGER leases_load_insert; DROP TRIGGER leases_load_update;");
                db.exec(
                    "ALTER TABLE tests DROP COLUMN active_cores; ALTER TABLE tests DROP COLUMN "
                    "outstanding_pairs; "
                    "CREATE INDEX leases_deadline ON leases(state, deadline_ms); "
                    "CREATE INDEX leases_load ON leases(state, test_id, concurrency, pair_count, "
                    "pairs_done);");
                break;
            case 6:
                db.exec(
                    "DROP INDEX leases_deadline; DROP INDEX leases_worker; DROP INDEX leases_load; "
                    "ALTER TABLE leases DROP COLUMN deadline_ms;");
                break;
            case 5:
                db.exec("DROP INDEX tests_ladder; ALTER TABLE tests DROP COLUMN ladder;");
                break;
            default:
                throw DatabaseError("rewindSchema: no step for version " + std::to_string(v), false);
        }
    }
    db.setUserVersion(version);
}

}  // namespace xq::coord::testing
