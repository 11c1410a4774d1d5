// Process-wide settings of the gRPC runtime, made once by every process that creates a channel or a
// server (Client and CoordinatorServer call it; calling it again does nothing).
//
// Debian builds Abseil without NDEBUG, so every absl::Mutex that gRPC locks also updates a global graph of
// lock orders to detect deadlocks: a hash lookup under one process-wide spin lock on each lock and unlock.
// With thousands of channels and calls that cost 12% of the load bench's CPU and serialised its threads.
// Release builds of Abseil (and of gRPC elsewhere) never do it; we turn it off the same way.
#pragma once

namespace xq::coord {

void configureGrpcRuntime();

}  // namespace xq::coord
