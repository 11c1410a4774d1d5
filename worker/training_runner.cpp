#include "training_runner.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "backoff.h"
#include "child_process.h"
#include "data_client.h"
#include "lease_heartbeat.h"
#include "nnue_checkpoint.h"
#include "util/sha256.h"

namespace xq::worker {

namespace v1 = xq::v1;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t UploadPieceBytes = 1 << 20;
constexpr int DownloadAttempts = 5;

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string describe(const grpc::Status& status) {
    return std::string(coord::statusCodeName(int(status.error_code()))) + ": " + status.error_message();
}

class TrainingSession {
  public:
    TrainingSession(const v1::Job& job, const JobEnvironment& env, ArtifactCache& cache,
                    const TrainingSettings& settings)
        : job_(job), env_(env), cache_(cache), settings_(settings) {}

    TrainingOutcome run() {
        std::thread heartbeat([this] {
            heartbeatLease(env_, job_.lease_id(), heartbeatDone_, abandon_,
                           [this](const std::string& why) { stopByCoordinator(why); });
        });
        try {
            prepare();
            train();
        } catch (const std::exception& e) {
            std::lock_guard lock(mutex_);
            if (!stopping() && outcome_.error.empty()) outcome_.error = e.what();
        }
        heartbeatDone_ = true;
        heartbeat.join();
        std::error_code ec;
        if (!workDir_.empty()) fs::remove_all(workDir_, ec);
        std::lock_guard lock(mutex_);
        outcome_.stoppedByCoordinator = stoppedByCoordinator_;
        return outcome_;
    }

  private:
    std::string lease() const { return "lease " + std::to_string(job_.lease_id()); }
    bool stopping() const { return stop_ || abandon_ || *env_.shutdown; }

    void stopByCoordinator(const std::string& why) {
        if (!stoppedByCoordinator_.exchange(true)) env_.log(lease() + ": stop: " + why);
        stop_ = true;
    }

    // The window's chunks as files named by hash under the cache, downloaded when missing or damaged.
    std::vector<std::string> fetchChunks() {
        const fs::path dir = fs::path(cache_.dir()) / "chunks";
        fs::create_directories(dir);
        std::vector<std::string> files;
        for (const auto& c : job_.training().spec().chunks()) {
            if (stopping()) throw std::runtime_error("stopped while fetching the data");
            if (!xq::isSha256Hex(c.sha256()))
                throw std::runtime_error("chunk " + std::to_string(c.chunk_id()) + " has a malformed hash");
            const std::string path = (dir / (c.sha256() + ".txt.gz")).string();
            std::error_code ec;
            if (fs::exists(path, ec) && xq::sha256File(path) == c.sha256()) {
                ++outcome_.chunksCached;
                files.push_back(path);
                continue;
            }
            std::string data = download(c);
            const std::string temp = path + ".part-" + std::to_string(job_.lease_id());
            {
                std::ofstream out(temp, std::ios::binary | std::ios::trunc);
                out.write(data.data(), std::streamsize(data.size()));
                if (!out.flush()) throw std::runtime_error("cannot write " + temp);
            }
            fs::rename(temp, path);
            ++outcome_.chunksDownloaded;
            files.push_back(path);
        }
        return files;
    }

    std::string download(const v1::TrainingChunk& c) {
        Backoff backoff(250, 5'000);
        for (int attempt = 1;; ++attempt) {
            try {
                return coord::downloadDataChunk(*env_.client, c.test_id(), c.chunk_id(), c.sha256());
            } catch (const coord::RpcError& e) {
                if (!isTransient(grpc::StatusCode(e.code)) || attempt >= DownloadAttempts || stopping())
                    throw std::runtime_error("cannot download the data: " + std::string(e.what()));
            } catch (const std::runtime_error& e) {  // arrived damaged
                if (attempt >= DownloadAttempts || stopping())
                    throw std::runtime_error("cannot download the data: " + std::string(e.what()));
            }
            sleepUnless(abandon_, backoff.nextMs());
        }
    }

    void prepare() {
        const auto& tj = job_.training();
        workDir_ =
            (fs::path(cache_.dir()) / "training" / ("lease-" + std::to_string(job_.lease_id()))).string();
        fs::remove_all(workDir_);
        fs::create_directories(fs::path(workDir_) / "out");
        checkpoint_ = workDir_ + "/checkpoint";
        chunkFiles_ = fetchChunks();
        if (!tj.spec().init_net_sha256().empty())
            initNet_ = cache_.get(*env_.client, tj.spec().init_net_sha256(), false);
        if (!tj.checkpoint_sha256().empty()) {
            // A copy: the trainer replaces the file after each epoch, and the cached one must stay whole.
            fs::copy_file(cache_.get(*env_.client, tj.checkpoint_sha256(), false), checkpoint_);
            uploaded_ = ArtifactCache::stampOf(checkpoint_);
        }
        env_.log(lease() + ": training test " + std::to_string(job_.test_id()) + " on " +
                 std::to_string(settings_.threads) + " thread(s), " + std::to_string(chunkFiles_.size()) +
                 " chunks (" + std::to_string(outcome_.chunksCached) + " cached)" +
                 (tj.checkpoint_sha256().empty()
                      ? ""
                      : ", resuming after epoch " + std::to_string(tj.checkpoint_epochs())));
    }

    void train() {
        if (stopping()) return;
        ChildSpec child;
        child.argv = trainerArguments(job_.training(), settings_, chunkFiles_, initNet_, checkpoint_,
                                      workDir_ + "/out");
        child.dir = workDir_;
        child.stdoutPath = workDir_ + "/report.json";
        child.stderrPath = workDir_ + "/trainer.log";
        // Measured (tuner/README.md): with OpenMP's default spinning, 2 threads on a busy 2-core machine
        // are 2-4x slower than 1.
        child.environment = {"OMP_WAIT_POLICY=passive"};
        child.niceness = 10;
        auto nextPoll = std::chrono::steady_clock::now();
        ChildResult result = runChild(child, [&] {
            if (std::chrono::steady_clock::now() >= nextPoll) {
                nextPoll = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
                uploadCheckpointIfNew();
            }
            return !stopping();
        });
        if (result.stopped || stopping()) {
            env_.log(lease() + ": trainer stopped");
            return;
        }
        if (result.exitCode != 0) {
            std::string tail = lastLines(child.stderrPath, 6);
            while (!tail.empty() && tail.back() == '\n') tail.pop_back();
            throw std::runtime_error("xq-tuner exited with code " + std::to_string(result.exitCode) +
                                     (tail.empty() ? std::string(" and said nothing") : ": " + tail));
        }
        retryAt_ = {};
        uploadCheckpointIfNew();  // the last epoch's, if the trainer ended before it was seen
        if (!stopping()) uploadNetwork(readFile(child.stdoutPath));
    }

    // Sends one file in pieces of at most 1 MiB, the first carrying the header.
    grpc::Status send(v1::TrainingFileChunk header, const std::string& bytes, v1::TrainingFileAck& ack) {
        header.set_worker_id(env_.workerId);
        header.set_lease_id(job_.lease_id());
        header.set_sha256(xq::sha256Hex(bytes));
        header.set_total_size(bytes.size());
        auto ctx = env_.client->context(300);
        auto writer = env_.client->training().UploadTrainingFile(ctx.get(), &ack);
        header.set_data(bytes.substr(0, UploadPieceBytes));
        bool open = writer->Write(header);
        for (std::size_t at = UploadPieceBytes; open && at < bytes.size(); at += UploadPieceBytes) {
            v1::TrainingFileChunk piece;
            piece.set_data(bytes.substr(at, UploadPieceBytes));
            open = writer->Write(piece);  // false: the server answered early (an error)
        }
        writer->WritesDone();
        return writer->Finish();
    }

    // Called between waits on the trainer: a checkpoint the trainer has replaced since the last upload
    // goes up (a transient failure is tried again later, with the newest file).
    void uploadCheckpointIfNew() {
        auto stamp = ArtifactCache::stampOf(checkpoint_);
        if (!stamp || stamp == uploaded_ || std::chrono::steady_clock::now() < retryAt_) return;
        std::string bytes;
        int epochs = 0;
        try {
            bytes = readFile(checkpoint_);
            if (ArtifactCache::stampOf(checkpoint_) != stamp) return;  // replaced while read: next time
            epochs = tuner::nnue::parseCheckpoint(bytes, checkpoint_).epochsDone;
        } catch (const std::exception& e) {
            env_.log(lease() + ": checkpoint not uploaded: " + e.what());
            uploaded_ = stamp;
            return;
        }
        v1::TrainingFileChunk header;
        header.set_kind("checkpoint");
        header.set_epochs_done(std::uint32_t(epochs));
        v1::TrainingFileAck ack;
        grpc::Status status = send(header, bytes, ack);
        if (status.ok()) {
            uploaded_ = stamp;
            checkpointBackoff_.reset();
            ++outcome_.checkpointsUploaded;
            env_.log(lease() + ": checkpoint after epoch " + std::to_string(epochs) + " uploaded");
            if (ack.command() == v1::LEASE_STOP) stopByCoordinator(ack.reason());
        } else if (isTransient(status.error_code())) {
            retryAt_ =
                std::chrono::steady_clock::now() + std::chrono::milliseconds(checkpointBackoff_.nextMs());
            env_.log(lease() + ": checkpoint not delivered (" + status.error_message() + "); trying again");
        } else if (status.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
                   status.error_code() == grpc::StatusCode::NOT_FOUND) {
            stopByCoordinator("checkpoint not taken: " + describe(status));  // the lease is over
        } else {
            uploaded_ = stamp;  // refused for good: the next epoch's may pass
            env_.log(lease() + ": checkpoint refused: " + describe(status));
        }
    }

    void uploadNetwork(const std::string& report) {
        std::string net;
        for (const auto& entry : fs::directory_iterator(workDir_ + "/out"))
            if (entry.path().extension() == ".nnue") net = entry.path().string();
        if (net.empty()) throw std::runtime_error("xq-tuner exited 0 but wrote no network");
        const std::string bytes = readFile(net);
        v1::TrainingFileChunk header;
        header.set_kind("network");
        header.set_report_json(report);
        v1::TrainingFileAck ack;
        Backoff backoff(250, 30'000);
        std::optional<std::chrono::steady_clock::time_point> giveUpAt;
        while (true) {
            grpc::Status status = send(header, bytes, ack);
            if (status.ok()) break;
            if (!isTransient(status.error_code()))
                throw std::runtime_error("network refused: " + describe(status));
            if (*env_.shutdown && !giveUpAt)
                giveUpAt = std::chrono::steady_clock::now() + std::chrono::seconds(env_.shutdownGraceSeconds);
            if (giveUpAt && std::chrono::steady_clock::now() > *giveUpAt)
                throw std::runtime_error("network not delivered: " + describe(status));
            if (stop_) return;  // the coordinator ended the lease meanwhile
            std::int64_t delay = backoff.nextMs();
            env_.log(lease() + ": network not delivered (" + status.error_message() + "); retrying in " +
                     std::to_string(delay) + " ms");
            std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        }
        std::lock_guard lock(mutex_);
        if (ack.reason() == "trained") {
            outcome_.trained = true;
            env_.log(lease() + ": network " + fs::path(net).filename().string() + " uploaded");
        } else {
            stopByCoordinator(ack.reason());
        }
    }

    const v1::Job& job_;
    const JobEnvironment& env_;
    ArtifactCache& cache_;
    const TrainingSettings& settings_;
    std::string workDir_, checkpoint_, initNet_;
    std::vector<std::string> chunkFiles_;
    std::optional<ArtifactCache::FileStamp> uploaded_;  // the checkpoint's state last uploaded (or given)
    std::chrono::steady_clock::time_point retryAt_{};
    Backoff checkpointBackoff_{1000, 30'000};
    std::mutex mutex_;
    std::atomic<bool> stop_{false}, abandon_{false}, heartbeatDone_{false}, stoppedByCoordinator_{false};
    TrainingOutcome outcome_;
};

}  // namespace

std::vector<std::string> trainerArguments(const v1::TrainingJob& job, const TrainingSettings& settings,
                                          const std::vector<std::string>& chunkFiles,
                                          const std::string& initNet, const std::string& checkpoint,
                                          const std::string& outDir) {
    std::vector<std::string> argv = {settings.tunerPath, "nnue"};
    argv.insert(argv.end(), chunkFiles.begin(), chunkFiles.end());  // in the spec's order: a resume checks it
    argv.insert(argv.end(),
                {"--json", "--out", outDir, "--checkpoint", checkpoint, "--threads",
                 std::to_string(std::max(1, settings.threads)), "--validation-split", "tail", "--dedup"});
    if (!initNet.empty()) argv.insert(argv.end(), {"--init", initNet});
    // Sorted by name, so the same job gives the same command line (a protobuf map has no order).
    std::map<std::string, std::string> recipe(job.spec().recipe().begin(), job.spec().recipe().end());
    for (const auto& [name, value] : recipe) argv.insert(argv.end(), {"--" + name, value});
    return argv;
}

TrainingOutcome runTrainingLease(const v1::Job& job, const JobEnvironment& env, ArtifactCache& cache,
                                 const TrainingSettings& settings) {
    TrainingSession session(job, env, cache, settings);
    TrainingOutcome outcome = session.run();
    if (!outcome.trained && !outcome.stoppedByCoordinator) {
        // An error counts as a failed lease (the third fails the test); a shutdown hands it back cleanly.
        releaseLease(env, job.lease_id(), outcome.error);
    }
    return outcome;
}

}  // namespace xq::worker
