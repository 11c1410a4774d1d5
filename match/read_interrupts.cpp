#include "read_interrupts.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <mutex>

namespace xq::match {

namespace {

thread_local bool interrupted = false;

void ignoreSignal(int) {}

// The signal of the interrupts, a real-time one nothing else in the system uses; installed once. False
// when something else handles it already.
bool installHandler(int signal) {
    static std::once_flag once;
    static bool installed = false;
    std::call_once(once, [signal] {
        struct sigaction current {};
        if (::sigaction(signal, nullptr, &current) != 0) return;
        if (current.sa_handler != SIG_DFL) return;
        struct sigaction action {};
        action.sa_handler = ignoreSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR
        installed = ::sigaction(signal, &action, nullptr) == 0;
    });
    return installed;
}

}  // namespace

ScopedReadInterrupts::ScopedReadInterrupts() {
    if (interrupted) return;  // an outer one serves this thread already
    const int signal = SIGRTMIN + 9;
    if (!installHandler(signal)) return;
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = signal;
    event._sigev_un._tid = pid_t(::syscall(SYS_gettid));
    timer_t timer{};
    if (::timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) return;
    constexpr long ns = ReadInterruptMs * 1000000L;
    const itimerspec every{{ns / 1000000000L, ns % 1000000000L}, {ns / 1000000000L, ns % 1000000000L}};
    if (::timer_settime(timer, 0, &every, nullptr) != 0) {
        ::timer_delete(timer);
        return;
    }
    timer_ = timer;
    active_ = true;
    interrupted = true;
}

ScopedReadInterrupts::~ScopedReadInterrupts() {
    if (!active_) return;
    ::timer_delete(static_cast<timer_t>(timer_));
    interrupted = false;
}

bool readsInterruptedHere() {
    return interrupted;
}

}  // namespace xq::match
