// Helpers shared by the coordinator tests: temporary directories and files, and counting a text in a page.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace xq::coord::testing {

// A fresh directory under the system temp dir, removed when the object dies.
struct TempDir {
    std::string path;
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "xq-coord-test-XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return path + "/" + name; }
};

// How many times `what` occurs in `text` (overlapping ones too).
inline int countOf(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
    return n;
}

inline void writeFile(const std::string& path, const std::string& content) {
    std::ofstream(path, std::ios::binary) << content;
}

// The whole file, or "" when it cannot be read (a process that wrote nothing yet).
inline std::string readFileOrEmpty(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace xq::coord::testing
