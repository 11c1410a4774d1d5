#include "metrics.h"

#include <cstdio>

namespace xq::coord {

namespace {

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

void header(std::string& out, const char* name, const char* type, const char* help) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

void sample(std::string& out, const std::string& name, const std::string& labels, double v) {
    out += name + (labels.empty() ? "" : "{" + labels + "}") + " " + number(v) + "\n";
}

}  // namespace

std::string promLabel(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

void Histogram::observe(double seconds) {
    std::size_t i = 0;
    while (i < Bounds.size() && seconds > Bounds[i]) ++i;
    ++counts_[i];
    sum_ += seconds;
    ++count_;
}

void Histogram::render(std::string& out, const std::string& name, const std::string& labels) const {
    std::uint64_t cumulative = 0;
    std::string prefix = labels.empty() ? "" : labels + ",";
    for (std::size_t i = 0; i <= Bounds.size(); ++i) {
        cumulative += counts_[i];
        std::string le = i < Bounds.size() ? number(Bounds[i]) : "+Inf";
        sample(out, name + "_bucket", prefix + "le=\"" + le + "\"", double(cumulative));
    }
    sample(out, name + "_sum", labels, sum_);
    sample(out, name + "_count", labels, double(count_));
}

void Metrics::observeRpc(const std::string& method, double seconds, bool ok) {
    std::lock_guard lock(mutex_);
    rpc_[method].observe(seconds);
    if (!ok) ++rpcErrors_[method];
}

void Metrics::observeHttp(const std::string& route, double seconds) {
    std::lock_guard lock(mutex_);
    http_[route].observe(seconds);
}

std::string Metrics::render(const Gauges& g) const {
    std::string out;
    header(out, "xq_tests", "gauge", "Tests by state.");
    sample(out, "xq_tests", "state=\"running\"", double(g.testsRunning));
    sample(out, "xq_tests", "state=\"finished\"", double(g.testsFinished));
    sample(out, "xq_tests", "state=\"stopped\"", double(g.testsStopped));
    sample(out, "xq_tests", "state=\"pending\"", double(g.testsPending));
    sample(out, "xq_tests", "state=\"failed\"", double(g.testsFailed));
    header(out, "xq_runs", "gauge", "Runs (generations of self-play, training and gating) by state.");
    sample(out, "xq_runs", "state=\"running\"", double(g.runsRunning));
    sample(out, "xq_runs", "state=\"finished\"", double(g.runsFinished));
    sample(out, "xq_runs", "state=\"stopped\"", double(g.runsStopped));
    sample(out, "xq_runs", "state=\"failed\"", double(g.runsFailed));
    header(out, "xq_workers_active", "gauge", "Workers seen within twice the lease timeout.");
    sample(out, "xq_workers_active", "", double(g.workersActive));
    header(out, "xq_job_requests_waiting", "gauge",
           "Job requests that found no job and wait for one (idle workers).");
    sample(out, "xq_job_requests_waiting", "", double(g.jobRequestsWaiting));
    header(out, "xq_store_bytes", "gauge", "Size of the coordinator database with its write-ahead log.");
    sample(out, "xq_store_bytes", "", double(g.storeBytes));
    header(out, "xq_artifact_bytes", "gauge", "Size of the stored artifacts.");
    sample(out, "xq_artifact_bytes", "", double(g.artifactBytes));
    header(out, "xq_reports_total", "counter", "Result reports counted since start (repeats excluded).");
    sample(out, "xq_reports_total", "", double(reports.load()));
    header(out, "xq_games_total", "counter", "Games in the counted reports since start.");
    sample(out, "xq_games_total", "", double(games.load()));
    header(out, "xq_lease_grants_total", "counter", "Leases handed to workers since start.");
    sample(out, "xq_lease_grants_total", "", double(leaseGrants.load()));
    header(out, "xq_lease_expiries_total", "counter", "Leases expired without a heartbeat since start.");
    sample(out, "xq_lease_expiries_total", "", double(leaseExpiries.load()));
    header(out, "xq_report_pgn_dropped_total", "counter",
           "Report PGN refused (bad gzip, over the limit, wrong game count); the results still counted.");
    sample(out, "xq_report_pgn_dropped_total", "", double(pgnDropped.load()));

    std::lock_guard lock(mutex_);
    header(out, "xq_rpc_duration_seconds", "histogram", "gRPC call latency by method.");
    for (const auto& [method, h] : rpc_)
        h.render(out, "xq_rpc_duration_seconds", "method=\"" + promLabel(method) + "\"");
    header(out, "xq_rpc_errors_total", "counter", "gRPC calls that ended with a status other than OK.");
    for (const auto& [method, n] : rpcErrors_)
        sample(out, "xq_rpc_errors_total", "method=\"" + promLabel(method) + "\"", double(n));
    header(out, "xq_http_duration_seconds", "histogram", "Web request latency by route.");
    for (const auto& [route, h] : http_)
        h.render(out, "xq_http_duration_seconds", "route=\"" + promLabel(route) + "\"");
    return out;
}

}  // namespace xq::coord
