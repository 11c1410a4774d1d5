// The worker's benchmarks: cluster bench runs asked by the coordinator (xq.v1.BenchService), and the
// checks before a match job: each engine's bench signature against the submitted one, and the measured
// speed that scales clocks stated for a reference nps.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "artifact_cache.h"
#include "client.h"
#include "job_player.h"
#include "xq/v1/bench.grpc.pb.h"

namespace xq::worker {

// Asks the coordinator for a pending bench run and, if there is one, runs it and reports. Returns true
// when a run was reported (the caller polls again right away). gRPC errors are returned as false with
// `error` set; a coordinator without BenchService gives UNIMPLEMENTED, which callers may ignore.
bool runPendingBench(coord::Client& client, xq::v1::BenchService::Stub& stub, ArtifactCache& cache,
                     std::uint64_t workerId, const std::function<void(const std::string&)>& log,
                     std::string& error, const Sandbox* sandbox = nullptr);

// Before a match job: runs `<engine> bench` on each engine whose spec carries a bench signature and
// compares; when the spec states a reference nps, measures the base engine's speed and sets
// env.clockScale. Keeps the job's lease alive with heartbeats meanwhile. Returns an empty string when
// the job may be played, else the reason it may not.
std::string prepareMatchJob(const xq::v1::Job& job, JobEnvironment& env);

}  // namespace xq::worker
