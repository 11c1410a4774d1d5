#include "dataset.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "board.h"
#include "capturego/position_text.h"
#include "chess/position.h"
#include "util/text.h"
#include "xiangqi/position.h"

namespace xq::tuner {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

}  // namespace

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::optional<float> parseResult(std::string_view text) {
    text = trim(text);
    if (text == "1-0") return 1.0f;
    if (text == "0-1") return 0.0f;
    if (text == "1/2-1/2" || text == "1/2") return 0.5f;
    if (text.empty()) return std::nullopt;
    // Read straight into a float (from_chars for floating point is in libstdc++ 11+), so the value
    // formatResult prints reads back to the same float.
    float v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0 || v > 1)
        return std::nullopt;
    return v;
}

std::string formatResult(float result) {
    if (result == 1.0f) return "1.0";
    if (result == 0.5f) return "0.5";
    if (result == 0.0f) return "0.0";
    // The shortest text that reads back to this float: a blended label such as 0.45555555 must not
    // come back from a chunk or a data file as 0.456.
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, result);
    if (ec != std::errc()) throw std::logic_error("formatResult: no room for a float");
    return std::string(buf, end);
}

// Eight ranks: chess; otherwise Xiangqi's ten (whose reader names what is wrong with anything else).
bool isChessFen(std::string_view fen) {
    const std::string_view board = fen.substr(0, fen.find(' '));
    return std::count(board.begin(), board.end(), '/') == 7;
}

bool isCaptureGoText(std::string_view fen) {
    // Views, not strings: the network trainer asks this of every line it reads.
    thread_local std::vector<std::string_view> fields;
    xq::wordViews(fen, fields);
    return fields.size() == 7 && (fields[5] == "go" || fields[5].starts_with("capture:"));
}

games::Game dataGame(std::string_view fen) {
    return isCaptureGoText(fen) ? games::Game::CaptureGo
           : isChessFen(fen)    ? games::Game::Chess
                                : games::Game::Xiangqi;
}

std::uint64_t positionKey(const std::string& fen) {
    if (isCaptureGoText(fen)) return games::makeBoard(games::Game::CaptureGo, fen)->key();
    if (isChessFen(fen)) {
        chess::Position pos;
        pos.setFen(fen);
        return pos.key();
    }
    return Position(fen).key();
}

std::string formatDataLine(const LabeledPosition& p) {
    std::string line = p.fen + " ; " + formatResult(p.result);
    if (p.score) line += " ; " + std::to_string(*p.score);
    return line;
}

bool parseDataLine(std::string_view line, LabeledPosition& out) {
    return parseDataLine(line, out, nullptr);
}

bool parseDataLine(std::string_view line, LabeledPosition& out, Position* xiangqi) {
    std::string_view s = trim(line);
    if (s.empty() || s.front() == '#') return false;
    auto semi = s.find(';');
    if (semi == std::string_view::npos) throw DataError("expected 'FEN ; result' (no ';' on the line)");
    std::string_view fen = trim(s.substr(0, semi));
    std::string_view rest = s.substr(semi + 1);
    auto second = rest.find(';');
    std::string_view resultText = trim(rest.substr(0, second));
    if (fen.empty()) throw DataError("no FEN before ';'");
    auto result = parseResult(resultText);
    if (!result)
        throw DataError("bad result '" + std::string(resultText) +
                        "' (expected 1.0, 0.5, 0.0, a number in [0,1], 1-0, 0-1 or 1/2-1/2)");
    std::optional<int> score;
    if (second != std::string_view::npos) {
        std::string_view scoreText = trim(rest.substr(second + 1));
        int v = 0;
        auto [end, ec] = std::from_chars(scoreText.data(), scoreText.data() + scoreText.size(), v);
        if (scoreText.empty() || ec != std::errc() || end != scoreText.data() + scoreText.size() ||
            v < -MaxDataScore || v > MaxDataScore)
            throw DataError("bad score '" + std::string(scoreText) +
                            "' (expected centipawns, an integer within +-" + std::to_string(MaxDataScore) +
                            ")");
        score = v;
    }
    if (isCaptureGoText(fen)) {
        try {
            capturego::parsePositionText(fen);
        } catch (const capturego::ParseError& e) {
            throw DataError(std::string("bad Capture Go position: ") + e.what());
        }
    } else if (isChessFen(fen)) {
        chess::Position pos;
        std::string error;
        if (!pos.setFen(fen, &error)) throw DataError("bad chess FEN: " + error);
    } else {
        try {
            if (xiangqi)
                xiangqi->setFen(fen);
            else
                Position pos(fen);
        } catch (const FenError& e) {
            throw DataError(std::string("bad FEN: ") + e.what());
        }
    }
    out.fen.assign(fen);
    out.result = *result;
    out.score = score;
    return true;
}

void readDataFile(const std::string& path, const std::function<bool(const LabeledPosition&)>& onPosition) {
    // gzopen reads plain files unchanged, so one path serves both.
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file) throw DataError(path + ": cannot open: " + std::strerror(errno));
    gzbuffer(file, 1 << 17);
    std::string line;
    std::vector<char> buf(1 << 12);
    long lineNo = 0;
    LabeledPosition p;
    auto finish = [&] { gzclose(file); };
    while (true) {
        line.clear();
        bool gotAny = false;
        // A line longer than the buffer arrives in pieces.
        while (gzgets(file, buf.data(), int(buf.size()))) {
            gotAny = true;
            line += buf.data();
            if (!line.empty() && line.back() == '\n') break;
        }
        if (!gotAny) break;
        ++lineNo;
        try {
            if (!parseDataLine(line, p)) continue;
        } catch (const DataError& e) {
            finish();
            throw DataError(path + ":" + std::to_string(lineNo) + ": " + e.what());
        }
        if (!onPosition(p)) break;
    }
    int err = 0;
    const char* msg = gzerror(file, &err);
    std::string why = err != Z_OK && err != Z_STREAM_END ? std::string(msg ? msg : "read error") : "";
    finish();
    if (!why.empty()) throw DataError(path + ":" + std::to_string(lineNo + 1) + ": " + why);
}

std::vector<LabeledPosition> readDataFile(const std::string& path) {
    std::vector<LabeledPosition> out;
    readDataFile(path, [&](const LabeledPosition& p) {
        out.push_back(p);
        return true;
    });
    return out;
}

struct DataWriter::Impl {
    gzFile gz = nullptr;
    std::FILE* plain = nullptr;
};

DataWriter::DataWriter(const std::string& path, bool append) : impl_(std::make_unique<Impl>()), path_(path) {
    if (endsWith(path, ".gz")) {
        impl_->gz = gzopen(path.c_str(), append ? "ab6" : "wb6");
        if (!impl_->gz) throw DataError(path + ": cannot write: " + std::strerror(errno));
    } else {
        impl_->plain = std::fopen(path.c_str(), append ? "a" : "w");
        if (!impl_->plain) throw DataError(path + ": cannot write: " + std::strerror(errno));
    }
}

DataWriter::~DataWriter() {
    try {
        close();
    } catch (const DataError&) {
        // A destructor cannot report; callers that care call close() themselves.
    }
}

void DataWriter::write(const LabeledPosition& p) {
    std::string line = formatDataLine(p) + "\n";
    bool ok = impl_->gz
                  ? gzwrite(impl_->gz, line.data(), unsigned(line.size())) == int(line.size())
                  : impl_->plain && std::fwrite(line.data(), 1, line.size(), impl_->plain) == line.size();
    if (!ok) throw DataError(path_ + ": write failed");
    ++count_;
}

void DataWriter::close() {
    bool ok = true;
    if (impl_->gz) {
        ok = gzclose(impl_->gz) == Z_OK;
        impl_->gz = nullptr;
    }
    if (impl_->plain) {
        ok = std::fclose(impl_->plain) == 0;
        impl_->plain = nullptr;
    }
    if (!ok) throw DataError(path_ + ": could not finish writing (disk full?)");
}

}  // namespace xq::tuner
