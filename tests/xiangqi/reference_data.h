// Reads the public reference cases the project carries in tests/xiangqi/data.
#pragma once

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace xq::testdata {

struct PerftCase {
    std::string fen;
    int depth;
    std::uint64_t nodes;
};

struct RepetitionCase {
    std::string fen, moves, result;
};

inline std::string trim(const std::string& s) {
    auto b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Splits a data line on `sep`; comment and empty lines give an empty list.
inline std::vector<std::string> fields(const std::string& line, char sep) {
    std::vector<std::string> out;
    if (trim(line).empty() || trim(line)[0] == '#') return out;
    std::size_t start = 0, pos;
    while ((pos = line.find(sep, start)) != std::string::npos) {
        out.push_back(trim(line.substr(start, pos - start)));
        start = pos + 1;
    }
    out.push_back(trim(line.substr(start)));
    return out;
}

inline std::vector<std::string> lines(const std::string& name) {
    std::ifstream in(std::string(XQ_SOURCE_DIR) + "/tests/xiangqi/data/" + name);
    if (!in) throw std::runtime_error("cannot open test data " + name);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

inline std::vector<PerftCase> perftCases() {
    std::vector<PerftCase> cases;
    for (const auto& line : lines("xiangqi_perft.txt")) {
        auto f = fields(line, ';');
        if (f.size() == 3) cases.push_back({f[0], std::stoi(f[1]), std::stoull(f[2])});
    }
    return cases;
}

inline std::vector<RepetitionCase> repetitionCases() {
    std::vector<RepetitionCase> cases;
    for (const auto& line : lines("xiangqi_repetition.txt")) {
        auto f = fields(line, '|');
        if (f.size() == 3) cases.push_back({f[0], f[1], f[2]});
    }
    return cases;
}

// A repetition verdict under one rule set: `rules | FEN | moves | result | note` (repetition_public.txt,
// the public cases; repetition_rules.txt, our own).
struct RuleCase {
    std::string rules, fen, moves, result, note;
};

inline std::vector<RuleCase> ruleCases(const std::string& file) {
    std::vector<RuleCase> cases;
    for (const auto& line : lines(file)) {
        auto f = fields(line, '|');
        if (f.size() == 5) cases.push_back({f[0], f[1], f[2], f[3], f[4]});
    }
    return cases;
}

}  // namespace xq::testdata
