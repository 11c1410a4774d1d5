// Not a test of its own: tests/harness/oracle_test.cpp runs this binary to see what a test whose oracle is
// missing reports, with and without XQ_REQUIRE_ORACLES.
#include <filesystem>

#include "oracle.h"

TEST(OracleProbe, NeedsAProgramThatIsNotInstalled) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists("/nonexistent/oracle-probe-engine"),
                      "the probe's engine (/nonexistent/oracle-probe-engine)");
    SUCCEED() << "unreachable: the probe's engine does not exist";
}

TEST(OracleProbe, HasItsOracle) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists("/"), "the root folder");
}
