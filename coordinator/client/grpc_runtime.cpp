#include "grpc_runtime.h"

#include <absl/synchronization/mutex.h>

#include <mutex>

namespace xq::coord {

void configureGrpcRuntime() {
    static std::once_flag once;
    std::call_once(once, [] { absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore); });
}

}  // namespace xq::coord
