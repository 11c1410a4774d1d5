#include "artifact_check.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <stdexcept>

#include "net_file.h"
#include "openings.h"

namespace xq::coord {

namespace {

#if defined(__x86_64__)
constexpr unsigned HostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned HostMachine = EM_AARCH64;
#elif defined(__i386__)
constexpr unsigned HostMachine = EM_386;
#elif defined(__arm__)
constexpr unsigned HostMachine = EM_ARM;
#elif defined(__riscv)
constexpr unsigned HostMachine = EM_RISCV;
#else
constexpr unsigned HostMachine = EM_NONE;  // unknown: any ELF machine passes
#endif

std::string machineName(unsigned machine) {
    switch (machine) {
        case EM_X86_64:
            return "x86-64";
        case EM_AARCH64:
            return "aarch64";
        case EM_386:
            return "i386";
        case EM_ARM:
            return "arm";
        case EM_RISCV:
            return "riscv";
        case EM_PPC64:
            return "ppc64";
        case EM_S390:
            return "s390";
        default:
            return "machine " + std::to_string(machine);
    }
}

std::string head(const std::string& path, std::size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string out(bytes, '\0');
    in.read(out.data(), std::streamsize(bytes));
    out.resize(std::size_t(in.gcount()));
    return out;
}

std::string engineProblem(const std::string& path) {
    const std::string h = head(path, sizeof(Elf64_Ehdr));
    if (h.empty()) return "not an engine: the file is empty";
    if (h.rfind("#!", 0) == 0) return {};
    if (h.size() < SELFMAG || std::memcmp(h.data(), ELFMAG, SELFMAG) != 0)
        return "not an engine: neither an executable (ELF) nor a script starting with #!";
    // e_type and e_machine sit at the same offsets in 32- and 64-bit headers, in the file's byte order.
    if (h.size() < 20) return "not an engine: its ELF header is cut short";
    const bool big = h[EI_DATA] == ELFDATA2MSB;
    auto half = [&](std::size_t at) {
        auto b0 = unsigned(std::uint8_t(h[at])), b1 = unsigned(std::uint8_t(h[at + 1]));
        return big ? (b0 << 8 | b1) : (b1 << 8 | b0);
    };
    const unsigned type = half(16), machine = half(18);
    if (type != ET_EXEC && type != ET_DYN)
        return "not an engine: an ELF file that is not an executable (an object file or a core dump)";
    if (HostMachine != EM_NONE && machine != HostMachine)
        return "not an engine for this platform: an ELF executable for " + machineName(machine) +
               ", and the workers run " + machineName(HostMachine);
    return {};
}

std::string openingsProblem(const std::string& path) {
    std::string first;
    for (auto game : {games::Game::Xiangqi, games::Game::Chess, games::Game::CaptureGo}) {
        try {
            match::loadOpenings(path, game);
            return {};
        } catch (const std::exception& e) {
            if (first.empty()) first = e.what();
        }
    }
    return "not an opening book of Xiangqi, chess or Capture Go (as Xiangqi: " + first.substr(0, 300) + ")";
}

}  // namespace

bool isArtifactKind(const std::string& kind) {
    return kind.empty() || kind == ArtifactKindEngine || kind == ArtifactKindWeights ||
           kind == ArtifactKindOpenings || kind == ArtifactKindNet;
}

std::string artifactProblem(const std::string& kind, const std::string& path) {
    if (kind == ArtifactKindEngine) return engineProblem(path);
    if (kind == ArtifactKindOpenings) return openingsProblem(path);
    if (kind == ArtifactKindNet) {
        std::string problem = networkFileProblem(path);
        return problem.empty() || problem.starts_with("not ") ? problem : "not a valid network: " + problem;
    }
    return {};
}

std::string artifactKindOfRole(const std::string& role) {
    if (role.ends_with(" engine binary")) return ArtifactKindEngine;
    if (role.ends_with(" weights")) return ArtifactKindWeights;
    if (role.ends_with(" network")) return ArtifactKindNet;
    if (role == "opening book") return ArtifactKindOpenings;
    return {};
}

bool looksExecutable(const std::string& path) {
    try {
        const std::string h = head(path, SELFMAG);
        return h.rfind("#!", 0) == 0 || (h.size() == SELFMAG && std::memcmp(h.data(), ELFMAG, SELFMAG) == 0);
    } catch (const std::runtime_error&) {
        return false;
    }
}

}  // namespace xq::coord
