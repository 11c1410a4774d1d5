// The engine's UCI command reader (engine/uci.h): any bytes as command lines, to a real UciLoop whose
// searches are kept short (every `go` also gets a node limit and is followed by `stop`). What the reader
// promises: it never throws and never crashes, however wrong the input, and answers `isready` with
// `readyok` to the end. Options that would take the machine (a Hash of terabytes, 200 threads, reading
// any file as weights) are bounded before they reach it; their own parsers have targets of their own.
#include <cstdint>
#include <sstream>
#include <string>

#include "uci.h"

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream raw(std::string(reinterpret_cast<const char*>(data), size));
    std::string script, line;
    int lines = 0;
    while (std::getline(raw, line) && ++lines < 200) {
        std::string l = lower(line);
        if (l.find("setoption") != std::string::npos &&
            (l.find("hash") != std::string::npos || l.find("threads") != std::string::npos ||
             l.find("evalfile") != std::string::npos || l.find("paramsfile") != std::string::npos))
            continue;
        std::istringstream words(l);
        std::string first;
        words >> first;
        script += line + (first == "go" ? " nodes 500\nstop\n" : "\n");
    }
    script += "isready\n";
    std::istringstream in(script);
    std::ostringstream out;
    {
        xq::uci::UciLoop loop(in, out);
        loop.run();  // ends at the input's end (or quit) with every search stopped
    }
    const std::string text = out.str();
    // Unless the input quit first, the last answer is readyok.
    if (script.find("quit") == std::string::npos && text.rfind("readyok\n") == std::string::npos)
        __builtin_trap();
    return 0;
}
