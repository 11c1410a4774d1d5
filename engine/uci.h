// The UCI protocol as Pikafish speaks it, plus `eval` and `d` for humans.
#pragma once

#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>

#include "nnue_default.h"
#include "thread.h"
#include "xiangqi/position.h"

namespace xq::uci {

constexpr const char* ENGINE_NAME = "xq-engine 1.0";

// "cp 35", "mate 3", "mate -2" for an internal score.
std::string formatScore(int value);
// One `info` line.
std::string formatInfo(const search::InfoLine& line);

class UciLoop {
  public:
    UciLoop(std::istream& in, std::ostream& out);
    // Reads commands until `quit` or the end of the input. Never throws on bad input.
    void run();
    // Handles one command line; returns false for `quit`.
    bool handle(const std::string& line);

  private:
    void send(const std::string& text);  // one or more lines, atomically
    void error(const std::string& what) { send("info string error: " + what); }
    void cmdUci();
    void cmdSetOption(std::istream& args);
    void cmdPosition(std::istream& args);
    void cmdGo(std::istream& args);
    void cmdEval();
    void setEvalFile(const std::string& value);
    void applyEvaluation();

    std::istream& in_;
    std::ostream& out_;
    std::mutex outMutex_;
    Position pos_;
    ThreadPool pool_;
    std::string evalFile_ = "<default>";  // the hand-written weights' file
    // The network EvalFile loaded (the embedded one until then, or none), and the Use NNUE option.
    std::shared_ptr<const nnue::Network> network_ = nnue::defaultNetwork();
    bool useNnue_ = nnue::hasDefaultNetwork();
};

}  // namespace xq::uci
