#include "store_copy.h"

#include <filesystem>
#include <stdexcept>

#include "store.h"

namespace xq::coord {

namespace {

struct Column {
    std::string name, type;  // type as declared: INTEGER, REAL, TEXT or BLOB
};

std::vector<std::string> tablesOf(Database& db) {
    auto s = db.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    std::vector<std::string> out;
    while (s.step()) out.push_back(s.text(0));
    return out;
}

std::vector<Column> columnsOf(Database& db, const std::string& table) {
    auto s = db.prepare("SELECT name, UPPER(type) FROM pragma_table_info(?) ORDER BY cid");
    s.bind(1, table);
    std::vector<Column> out;
    while (s.step()) out.push_back({s.text(0), s.text(1)});
    return out;
}

std::int64_t rowCount(Database& db, const std::string& table) {
    auto s = db.prepare("SELECT COUNT(*) FROM " + table);
    s.step();
    return s.int64(0);
}

// Tables whose row order is read back (pairs for charts, games for downloads): copied with their rowid.
bool keepsRowid(const std::string& table) {
    return table == "pairs" || table == "games";
}

}  // namespace

std::vector<TableCopy> copyStore(const std::string& sqlitePath, const std::string& postgresUrl,
                                 const std::function<void(const TableCopy&)>& progress) {
    if (isPostgresUrl(sqlitePath)) throw std::runtime_error("copy from: give the SQLite file, not a URL");
    if (!isPostgresUrl(postgresUrl)) throw std::runtime_error("copy to: give a postgresql:// URL");
    if (!std::filesystem::is_regular_file(sqlitePath))
        throw std::runtime_error("copy from: no SQLite store at '" + sqlitePath + "'");
    Store from(sqlitePath);
    Store to(postgresUrl);
    Database& src = from.db();
    Database& dst = to.db();

    std::vector<std::string> tables = tablesOf(src);
    for (const auto& table : tables)
        if (std::int64_t n = rowCount(dst, table); n > 0)
            throw std::runtime_error("copy to: the database already holds " + std::to_string(n) +
                                     " rows in " + table + "; copy into an empty database");

    std::vector<TableCopy> report;
    Transaction tx(dst);
    for (const auto& table : tables) {
        std::vector<Column> columns = columnsOf(src, table);
        if (keepsRowid(table)) columns.insert(columns.begin(), {"rowid", "INTEGER"});
        std::string names;
        for (std::size_t i = 0; i < columns.size(); ++i) names += (i ? ", " : "") + columns[i].name;
        auto read =
            src.prepare("SELECT " + names + " FROM " + table + (keepsRowid(table) ? " ORDER BY rowid" : ""));
        // Rows go in batches of one multi-row INSERT, well under PostgreSQL's 65,535 parameters.
        const std::size_t batchRows = std::max<std::size_t>(1, 8000 / columns.size());
        auto flush = [&](std::vector<std::vector<std::string>>& rows, std::vector<std::vector<bool>>& nulls) {
            if (rows.empty()) return;
            std::string sql = "INSERT INTO " + table + " (" + names + ") VALUES ";
            int param = 0;
            for (std::size_t r = 0; r < rows.size(); ++r) {
                sql += r ? ", (" : "(";
                for (std::size_t c = 0; c < columns.size(); ++c)
                    sql += (c ? ", ?" : "?") + std::to_string(++param);
                sql += ")";
            }
            auto insert = dst.prepare(sql);
            param = 0;
            for (std::size_t r = 0; r < rows.size(); ++r)
                for (std::size_t c = 0; c < columns.size(); ++c) {
                    ++param;
                    const std::string& v = rows[r][c];
                    const std::string& type = columns[c].type;
                    if (nulls[r][c])
                        insert.bindNull(param);
                    else if (type == "INTEGER")
                        insert.bind(param, std::int64_t(std::stoll(v)));
                    else if (type == "REAL")
                        insert.bind(param, std::stod(v));
                    else if (type == "BLOB")
                        insert.bindBlob(param, v);
                    else
                        insert.bind(param, std::string_view(v));
                }
            insert.run();
            rows.clear();
            nulls.clear();
        };
        std::vector<std::vector<std::string>> rows;
        std::vector<std::vector<bool>> nulls;
        TableCopy done{table, 0};
        while (read.step()) {
            std::vector<std::string> row;
            std::vector<bool> null;
            for (std::size_t c = 0; c < columns.size(); ++c) {
                int col = int(c);
                null.push_back(read.isNull(col));
                if (columns[c].type == "INTEGER")
                    row.push_back(std::to_string(read.int64(col)));
                else if (columns[c].type == "REAL") {
                    char buf[40];
                    std::snprintf(buf, sizeof buf, "%.17g", read.real(col));
                    row.push_back(buf);
                } else if (columns[c].type == "BLOB")
                    row.push_back(read.blob(col));
                else
                    row.push_back(read.text(col));
            }
            rows.push_back(std::move(row));
            nulls.push_back(std::move(null));
            ++done.rows;
            if (rows.size() >= batchRows) flush(rows, nulls);
        }
        flush(rows, nulls);
        // Ids the database assigns continue after the copied ones.
        for (const char* key : {"id", "rowid"}) {
            bool has = false;
            for (const auto& c : columns) has |= c.name == key && (c.name == "rowid" || c.type == "INTEGER");
            auto seq = dst.prepare("SELECT pg_get_serial_sequence(?, ?)");
            seq.bind(1, table).bind(2, std::string(key));
            if (!has || !seq.step() || seq.isNull(0)) continue;
            dst.exec("SELECT setval('" + seq.text(0) + "', COALESCE((SELECT MAX(" + key + ") FROM " + table +
                     "), 0) + 1, false)");
        }
        report.push_back(done);
        if (progress) progress(done);
    }
    // The leases' triggers counted each copied active lease into its test's load, on top of the copied
    // counts (or before the test was there): count again from the leases.
    to.recountLoad();
    tx.commit();
    return report;
}

}  // namespace xq::coord
