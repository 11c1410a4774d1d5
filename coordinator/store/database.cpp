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

Statement Database::prepare(std::string_view sql) {
    {
        std::lock_guard lock(cacheMutex_);
        if (auto it = idle_.find(sql); it != idle_.end()) {
            auto impl = std::move(it->second);
            idle_.erase(it);
            return Statement(std::move(impl), this, std::string(sql));
        }
    }
    return Statement(conn_->prepare(sql), this, std::string(sql));
}

void Database::recycle(std::string sql, std::unique_ptr<detail::StatementImpl> impl) {
    std::lock_guard lock(cacheMutex_);
    // One idle copy per text is what a caller's nesting needs; web filters build a few texts each.
    if (idle_.count(sql) < 2 && idle_.size() < 512) idle_.emplace(std::move(sql), std::move(impl));
}

Statement::~Statement() {
    if (!impl_ || !cache_) return;
    try {
        impl_->reset();
        cache_->recycle(std::move(sql_), std::move(impl_));
    } catch (...) {  // a statement that cannot be reset is dropped
    }
}

Transaction::Transaction(Database& db) : db_(db), group_(db.groupCommit()) {
    if (!group_) {
        db_.connection().begin();
        return;
    }
    if (!group_->open_) {
        db_.connection().begin();
        group_->open_ = true;
        ++group_->opened_;
        group_->joined_ = 0;
        group_->depth_ = 0;
    }
    db_.exec("SAVEPOINT xq_tx");
    ++group_->depth_;
}

Transaction::~Transaction() {
    if (done_) return;
    try {
        if (!group_) {
            db_.connection().rollback();
        } else {
            --group_->depth_;
            db_.exec("ROLLBACK TO SAVEPOINT xq_tx");
            db_.exec("RELEASE SAVEPOINT xq_tx");
            if (group_->depth_ == 0 && group_->joined_ == 0) {  // nothing in the batch to keep: end it
                group_->open_ = false;
                db_.connection().rollback();
            }
        }
    } catch (...) {
        if (group_) {
            // The batch cannot be saved in part (its connection is gone): it fails whole, and the writers who
            // joined it hear so from waitDurable.
            try {
                db_.connection().rollback();
            } catch (...) {
            }
            group_->fail(group_->opened_, "the batch of writes was lost with its transaction");
            group_->open_ = false;
        }
    }
}

void Transaction::commit() {
    if (!group_) {
        db_.connection().commit();
    } else {
        db_.exec("RELEASE SAVEPOINT xq_tx");
        --group_->depth_;
        ++group_->joined_;
        GroupCommit::pendingBatch() = group_->opened_;
    }
    done_ = true;
}

void GroupCommit::fail(std::uint64_t batch, const std::string& why) {
    std::lock_guard lock(mutex_);
    failed_[batch] = why;
    while (failed_.size() > 64) failed_.erase(failed_.begin());
    committedCv_.notify_all();
}

std::uint64_t& GroupCommit::pendingBatch() {
    thread_local std::uint64_t batch = 0;
    return batch;
}

void GroupCommit::waitDurable(Database& db, std::uint64_t batch) {
    std::unique_lock lock(mutex_);
    while (committed_ < batch && !failed_.count(batch)) {
        if (committing_) {
            committedCv_.wait(lock);
            continue;
        }
        committing_ = true;
        lock.unlock();
        std::uint64_t closing = 0;
        std::string error;
        {
            std::lock_guard writers(writers_);
            if (open_) {
                closing = opened_;
                open_ = false;
                try {
                    db.connection().commit();
                } catch (const std::exception& e) {
                    error = e.what();
                    try {
                        db.connection().rollback();
                    } catch (...) {
                    }
                }
            }
        }
        lock.lock();
        committing_ = false;
        if (!error.empty()) {
            failed_[closing] = error;
            while (failed_.size() > 64) failed_.erase(failed_.begin());
        } else if (closing) {
            committed_ = std::max(committed_, closing);
        } else if (!failed_.count(batch)) {
            committed_ = std::max(committed_, batch);  // nothing was open: committed before we looked
        }
        committedCv_.notify_all();
    }
    if (auto f = failed_.find(batch); f != failed_.end())
        throw DatabaseError("store: commit failed, nothing of this call was kept: " + f->second, true);
}

}  // namespace xq::coord
