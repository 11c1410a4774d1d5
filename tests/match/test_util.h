// Shared helpers for the match runner's tests: the mock engine and scratch files.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "match.h"

namespace xq::match::test {

inline std::string mockEngine() {
    return std::string(XQ_BIN_DIR) + "/mock-engine";
}

inline EngineConfig mock(const std::string& name, std::vector<std::string> args = {},
                         const char* tc = "nodes=1") {
    EngineConfig e;
    e.name = name;
    e.cmd = mockEngine();
    e.args = std::move(args);
    e.tc = TimeControl::parse(tc);
    return e;
}

// A fresh file name under the system temp directory, removed at scope exit.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& stem) {
        static int counter = 0;
        path = (std::filesystem::temp_directory_path() /
                ("xq-match-" + stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                   .string();
        std::filesystem::remove(path);
    }
    ~TempFile() { std::filesystem::remove(path); }
    std::string read() const {
        std::ifstream in(path);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    std::vector<std::string> lines() const {
        std::vector<std::string> out;
        std::ifstream in(path);
        for (std::string l; std::getline(in, l);) out.push_back(l);
        return out;
    }
};

inline bool fileExists(const std::string& p) {
    return std::filesystem::exists(p);
}

}  // namespace xq::match::test
