#include "client.h"

#include <arpa/inet.h>
#include <grpcpp/grpcpp.h>
#include <netdb.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "grpc_runtime.h"
#include "util/sha256.h"
#include "util/text.h"

namespace xq::coord {

namespace {

// Small enough for any sensible --max-message-bytes on the coordinator (at least 64 KiB).
constexpr std::size_t ChunkBytes = 32 << 10;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path + "'");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

Endpoint resolveEndpoint(Endpoint e) {
    auto env = [](const char* name) {
        const char* v = std::getenv(name);
        return std::string(v ? v : "");
    };
    if (e.address.empty()) e.address = env("XQ_COORDINATOR");
    if (e.token.empty()) e.token = env("XQ_TOKEN");
    if (e.tlsCaPath.empty()) e.tlsCaPath = env("XQ_TLS_CA");
    std::string configPath = env("XQ_CONFIG");
    if (configPath.empty() && !env("HOME").empty()) configPath = env("HOME") + "/.config/xq/config";
    if ((e.address.empty() || e.token.empty()) && !configPath.empty() &&
        std::filesystem::exists(configPath)) {
        std::ifstream in(configPath);
        std::string line;
        while (std::getline(in, line)) {
            auto eq = line.find('=');
            if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
            std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
            if (key == "coordinator" && e.address.empty()) e.address = value;
            if (key == "token" && e.token.empty()) e.token = value;
            if (key == "tls_ca" && e.tlsCaPath.empty()) e.tlsCaPath = value;
        }
    }
    if (e.address.empty())
        throw std::invalid_argument(
            "no coordinator address: give --coordinator HOST:PORT or set XQ_COORDINATOR");
    if (e.token.empty()) throw std::invalid_argument("no token: give --token T or set XQ_TOKEN");
    return e;
}

const char* statusCodeName(int code) {
    static const char* names[] = {
        "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED"};
    return code >= 0 && code <= 16 ? names[code] : "UNKNOWN";
}

void check(const grpc::Status& status, const std::string& action) {
    if (status.ok()) return;
    throw RpcError(int(status.error_code()),
                   action + ": " + statusCodeName(int(status.error_code())) + ": " + status.error_message());
}

std::string channelTarget(const std::string& address) {
    if (address.find(',') == std::string::npos) return address;
    std::vector<std::string> v4, v6;
    std::size_t start = 0;
    while (start <= address.size()) {
        std::size_t comma = std::min(address.find(',', start), address.size());
        std::string entry = trim(address.substr(start, comma - start));
        start = comma + 1;
        if (entry.empty()) continue;
        auto colon = entry.rfind(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == entry.size())
            throw std::invalid_argument("coordinator address '" + entry + "' is not HOST:PORT");
        std::string host = entry.substr(0, colon), port = entry.substr(colon + 1);
        if (host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
        addrinfo hints{}, *found = nullptr;
        hints.ai_socktype = SOCK_STREAM;
        if (int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
            throw std::invalid_argument("coordinator address '" + entry + "': " + gai_strerror(rc));
        for (auto* a = found; a; a = a->ai_next) {
            char text[INET6_ADDRSTRLEN] = {};
            if (a->ai_family == AF_INET) {
                inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr, text, sizeof text);
                v4.push_back(std::string(text) + ":" + port);
            } else if (a->ai_family == AF_INET6) {
                inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_addr, text,
                          sizeof text);
                v6.push_back("[" + std::string(text) + "]:" + port);
            }
        }
        freeaddrinfo(found);
    }
    // gRPC's address lists are of one family; IPv4 wins when both are there.
    const auto& list = v4.empty() ? v6 : v4;
    if (list.empty()) throw std::invalid_argument("no coordinator address in '" + address + "'");
    std::string target = v4.empty() ? "ipv6:" : "ipv4:";
    for (std::size_t i = 0; i < list.size(); ++i) target += (i ? "," : "") + list[i];
    return target;
}

Client::Client(Endpoint endpoint) : endpoint_(std::move(endpoint)) {
    configureGrpcRuntime();
    std::shared_ptr<grpc::ChannelCredentials> creds;
    if (!endpoint_.tlsCaPath.empty()) {
        grpc::SslCredentialsOptions ssl;
        ssl.pem_root_certs = readAll(endpoint_.tlsCaPath);
        creds = grpc::SslCredentials(ssl);
    } else {
        creds = grpc::InsecureChannelCredentials();
    }
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(16 << 20);
    // Reconnect quickly after a coordinator restart instead of gRPC's default back-off of up to 2 min;
    // the callers add their own jittered back-off.
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
    // Every call goes to the next replica that answers; one that stops is left out until it is back.
    args.SetLoadBalancingPolicyName("round_robin");
    std::string target = channelTarget(endpoint_.address);
    if (target != endpoint_.address) {
        // Certificates name the host, not the addresses it resolved to: the first entry's host name.
        std::string first = endpoint_.address.substr(0, endpoint_.address.find(','));
        std::string host = trim(first.substr(0, first.rfind(':')));
        args.SetString(GRPC_ARG_DEFAULT_AUTHORITY, trim(first));
        if (!endpoint_.tlsCaPath.empty()) args.SetSslTargetNameOverride(host);
    }
    channel_ = grpc::CreateCustomChannel(target, creds, args);
    worker_ = xq::v1::WorkerService::NewStub(channel_);
    user_ = xq::v1::UserService::NewStub(channel_);
    runs_ = xq::v1::RunService::NewStub(channel_);
    training_ = xq::v1::TrainingService::NewStub(channel_);
}

std::unique_ptr<grpc::ClientContext> Client::context(int timeoutSeconds) const {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization", "Bearer " + endpoint_.token);
    ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(timeoutSeconds));
    return ctx;
}

std::string Client::upload(const std::string& path, const std::string& kind, bool* alreadyPresent) {
    std::string sha = sha256File(path);
    auto size = std::uint64_t(std::filesystem::file_size(path));
    auto ctx = context(600);
    xq::v1::UploadResponse resp;
    auto writer = user_->UploadArtifact(ctx.get(), &resp);
    xq::v1::UploadChunk header;
    header.set_sha256(sha);
    header.set_total_size(size);
    header.set_name(std::filesystem::path(path).filename().string());
    header.set_kind(kind);
    if (writer->Write(header)) {
        std::ifstream in(path, std::ios::binary);
        std::vector<char> buf(ChunkBytes);
        while (in) {
            in.read(buf.data(), std::streamsize(buf.size()));
            if (in.gcount() == 0) break;
            xq::v1::UploadChunk chunk;
            chunk.set_data(buf.data(), std::size_t(in.gcount()));
            if (!writer->Write(chunk)) break;  // the server answered early (already present, or an error)
        }
        writer->WritesDone();
    }
    check(writer->Finish(), "upload of " + path);
    if (alreadyPresent) *alreadyPresent = resp.already_present();
    return sha;
}

void Client::download(const std::string& sha256, const std::string& destPath) {
    auto ctx = context(600);
    xq::v1::ArtifactRequest req;
    req.set_sha256(sha256);
    auto reader = worker_->FetchArtifact(ctx.get(), req);
    // Unique per download: several workers may share a cache directory.
    static std::atomic<unsigned> counter{0};
    std::string temp = destPath + ".part-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error("cannot write '" + temp + "'");
        Sha256 hash;
        xq::v1::ArtifactChunk chunk;
        while (reader->Read(&chunk)) {
            hash.update(chunk.data());
            out.write(chunk.data().data(), std::streamsize(chunk.data().size()));
        }
        check(reader->Finish(), "download of artifact " + sha256);
        out.close();
        if (!out) throw std::runtime_error("cannot write '" + temp + "'");
        std::string actual = hash.finishHex();
        if (actual != sha256) {
            std::filesystem::remove(temp);
            throw std::runtime_error("artifact " + sha256 + " failed verification: its content hashes to " +
                                     actual);
        }
    }
    std::filesystem::rename(temp, destPath);
}

SubmittedTest submitted(const v1::SubmitResponse& resp) {
    return {resp.test_id(), resp.state() == v1::TEST_STATE_PENDING};
}

std::string pendingHint(std::uint64_t id) {
    return "test " + std::to_string(id) +
           " waits for an approver: no worker plays it until someone with an approver token runs 'xq "
           "approve " +
           std::to_string(id) + "' (or presses Approve on its web page)";
}

}  // namespace xq::coord
