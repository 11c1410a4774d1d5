#include "affinity.h"

#include <pthread.h>
#include <sched.h>

namespace xq::match {

namespace {

bool toMask(const CpuSet& cpus, cpu_set_t& mask) {
    CPU_ZERO(&mask);
    for (int cpu : cpus) {
        if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
        CPU_SET(cpu, &mask);
    }
    return !cpus.empty();
}

CpuSet fromMask(const cpu_set_t& mask) {
    CpuSet cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &mask)) cpus.push_back(cpu);
    return cpus;
}

}  // namespace

CpuSet usableCpus() {
    cpu_set_t mask;
    if (::sched_getaffinity(0, sizeof mask, &mask) != 0) return {};
    return fromMask(mask);
}

std::vector<CpuSet> planSlotCpus(int slots, int width, const CpuSet& cpus) {
    if (slots < 1 || width < 1 || std::size_t(slots) * std::size_t(width) > cpus.size()) return {};
    std::vector<CpuSet> plan(static_cast<std::size_t>(slots));
    for (int slot = 0; slot < slots; ++slot)
        plan[std::size_t(slot)].assign(cpus.begin() + slot * width, cpus.begin() + (slot + 1) * width);
    return plan;
}

bool pinCurrentThread(const CpuSet& cpus) {
    cpu_set_t mask;
    return toMask(cpus, mask) && ::pthread_setaffinity_np(::pthread_self(), sizeof mask, &mask) == 0;
}

namespace {
thread_local bool batchByUs = false;  // preferNotToPreempt set this thread's SCHED_BATCH
}  // namespace

bool preferNotToPreempt() {
    sched_param param{};
    batchByUs = ::pthread_setschedparam(::pthread_self(), SCHED_BATCH, &param) == 0;
    return batchByUs;
}

ScopedNormalPolicy::ScopedNormalPolicy() {
    sched_param param{};
    restore_ = batchByUs && ::pthread_setschedparam(::pthread_self(), SCHED_OTHER, &param) == 0;
}

ScopedNormalPolicy::~ScopedNormalPolicy() {
    sched_param param{};
    if (restore_) ::pthread_setschedparam(::pthread_self(), SCHED_BATCH, &param);
}

ScopedThreadPinning::ScopedThreadPinning(const CpuSet& cpus) {
    if (cpus.empty()) return;
    cpu_set_t mask;
    if (::pthread_getaffinity_np(::pthread_self(), sizeof mask, &mask) != 0) return;
    previous_ = fromMask(mask);
    pinned_ = pinCurrentThread(cpus);
}

ScopedThreadPinning::~ScopedThreadPinning() {
    if (pinned_) pinCurrentThread(previous_);
}

}  // namespace xq::match
