#include "database.h"

namespace xq::coord {

bool isPostgresUrl(std::string_view url) {
    return url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
}

std::string redactUrl(const std::string& url) {
    // scheme://user:password@host...: the password is what lies between the first ':' after the scheme
    // and the '@'.
    auto scheme = url.find("://");
    auto at = url.find('@');
    if (scheme == std::string::npos || at == std::string::npos || at < scheme) return url;
    auto colon = url.find(':', scheme + 3);
    if (colon == std::string::npos || colon > at) return url;
    return url.substr(0, colon + 1) + "***" + url.substr(at);
}

Database::Database(const std::string& pathOrUrl)
    : conn_(isPostgresUrl(pathOrUrl) ? detail::openPostgres(pathOrUrl) : detail::openSqlite(pathOrUrl)) {}

Transaction::Transaction(Database& db) : db_(db) {
    db_.connection().begin();
}

Transaction::~Transaction() {
    if (!done_) {
        try {
            db_.connection().rollback();
        } catch (...) {
        }
    }
}

void Transaction::commit() {
    db_.connection().commit();
    done_ = true;
}

}  // namespace xq::coord
