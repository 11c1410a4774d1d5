// Training positions: the `FEN ; result` text format shared by self-play data, the coordinator's
// export and positions a user brings from elsewhere.
//
// One position per line: a FEN, a semicolon, and the game's result from the first player's view (Red in
// Xiangqi, White in chess, Black in Capture Go, whose position text stands for the FEN): 1.0 / 0.5 / 0.0 (any
// number in [0, 1]) or 1-0 / 1/2-1/2 / 0-1. Optionally a second semicolon and the search score of the
// position in centipawns, also from the first player's view
// (`FEN ; 0.5 ; -37`): self-play records the score of the engine's search there, which a network trainer
// blends with the result. The FEN is a Xiangqi FEN (ten ranks) or a chess FEN (eight ranks). Blank lines
// and lines starting with `#` are skipped.
// A file may be gzip-compressed (read transparently; written compressed when the name ends in .gz).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board.h"

namespace xq {
class Position;
}

namespace xq::tuner {

struct LabeledPosition {
    std::string fen;
    float result = 0.5f;  // the first player's score (Red, White): 1 win, 0.5 draw, 0 loss
    // The search score in centipawns from the first player's view, when the data has one.
    std::optional<int> score;

    LabeledPosition() = default;
    LabeledPosition(std::string f, float r, std::optional<int> s = std::nullopt)
        : fen(std::move(f)), result(r), score(s) {}
};

// Scores beyond this are refused: a data line carries an evaluation, not a mate announcement.
constexpr int MaxDataScore = 30000;

// A file that cannot be read, or a line that is not a position; what() names file:line and the reason.
struct DataError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses "1.0", "0.5", "0", "1-0", "0-1", "1/2-1/2"; nullopt for anything else.
std::optional<float> parseResult(std::string_view text);
// "1.0", "0.5", "0.0" (other fractions with 3 decimals).
std::string formatResult(float result);

// `FEN ; result` or `FEN ; result ; score`, without a newline.
std::string formatDataLine(const LabeledPosition& p);

// Parses one line; returns false for a blank or comment line. Throws DataError (without file:line,
// the reader adds it) for a line that is not `FEN ; result` or whose FEN the rules of its game reject.
bool parseDataLine(std::string_view line, LabeledPosition& out);
// The same, and for a Xiangqi line *xiangqi becomes the position its FEN was checked as, so that a reader
// that needs the board (the network trainer's) does not parse the FEN a second time.
bool parseDataLine(std::string_view line, LabeledPosition& out, Position* xiangqi);

// True for a chess FEN (eight ranks), false for Xiangqi's: a data line's FEN says its game.
bool isChessFen(std::string_view fen);
// True for a Capture Go or Go position text (capturego/position_text.h: seven fields, the sixth `go` or
// `capture:N`), which stands where a FEN would; its result is Black's, the first player's.
bool isCaptureGoText(std::string_view fen);
// The game of a data line's FEN: Capture Go for a position text, chess for eight ranks, else Xiangqi.
games::Game dataGame(std::string_view fen);

// The rules' Zobrist key of a FEN that parseDataLine accepted (Xiangqi's, chess's or a Capture Go position
// text), to find repeats.
std::uint64_t positionKey(const std::string& fen);

// Reads every position of a file (plain or gzip); throws DataError naming file:line.
// onPosition returns false to stop early.
void readDataFile(const std::string& path, const std::function<bool(const LabeledPosition&)>& onPosition);
std::vector<LabeledPosition> readDataFile(const std::string& path);

// Writes positions as `FEN ; result` lines; gzip when the path ends in ".gz". Throws DataError when the
// file cannot be written.
class DataWriter {
  public:
    explicit DataWriter(const std::string& path, bool append = false);
    ~DataWriter();
    DataWriter(const DataWriter&) = delete;
    DataWriter& operator=(const DataWriter&) = delete;

    void write(const LabeledPosition& p);
    void write(const std::vector<LabeledPosition>& ps) {
        for (const auto& p : ps) write(p);
    }
    std::int64_t count() const { return count_; }
    void close();  // flushes; throws DataError if the data could not be written

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::string path_;
    std::int64_t count_ = 0;
};

bool endsWith(std::string_view s, std::string_view suffix);

}  // namespace xq::tuner
