// Helpers of the chess tests: a position from a FEN, and moves played on it in UCI text, both failing the
// test (with the reason) when the text is refused.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "chess/notation.h"

namespace xq::chess::testing {

inline Position at(const char* fen) {
    Position pos;
    std::string error;
    EXPECT_TRUE(pos.setFen(fen, &error)) << error;
    return pos;
}

inline void play(Position& pos, std::initializer_list<const char*> moves) {
    for (const char* t : moves) {
        std::string error;
        auto m = parseUciMove(pos, t, &error);
        ASSERT_TRUE(m) << error;
        pos.doMove(*m);
    }
}

}  // namespace xq::chess::testing
