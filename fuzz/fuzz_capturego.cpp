// Capture Go's texts: the position text, SGF game records, GTP move names and a GTP engine's genmove
// answer. A malformed text is refused with ParseError (any other exception or a crash is a finding); a
// position that is read prints back as a text that reads to the same position, whose legal moves can all
// be played; an SGF that is read writes back as an SGF that reads to the same game.
#include <cstdint>
#include <string>
#include <string_view>

#include "capturego/game.h"
#include "capturego/notation.h"
#include "capturego/position_text.h"
#include "capturego/sgf.h"
#include "gtp_session.h"

namespace cg = xq::capturego;

namespace {

void positionText(std::string_view text) {
    cg::Position pos;
    try {
        pos = cg::parsePositionText(text);
    } catch (const cg::ParseError& e) {
        if (std::string_view(e.what()).empty()) __builtin_trap();  // a refusal names its reason
        return;
    }
    const std::string back = cg::positionText(pos);
    if (cg::positionText(cg::parsePositionText(back)) != back) __builtin_trap();
    for (cg::Move m : pos.legalMoves()) {
        cg::Position next = pos;
        std::string why;
        if (!next.play(m, &why)) __builtin_trap();  // a listed move is legal
        (void)cg::positionText(next);
    }
}

void sgf(std::string_view text) {
    cg::Game game;
    try {
        game = cg::readSgf(text);
    } catch (const cg::ParseError& e) {
        if (std::string_view(e.what()).empty()) __builtin_trap();
        return;
    }
    const std::string written = cg::writeSgf(game);
    const cg::Game again = cg::readSgf(written);
    if (again.moves().size() != game.moves().size() ||
        cg::positionText(again.position()) != cg::positionText(game.position()))
        __builtin_trap();
}

// Every game tree of a collection (as xq judge --game capturego and xq rate read them): a syntax error or
// a tree's own error names what is wrong; a parsed collection holds at least one tree.
void sgfCollection(std::string_view text) {
    std::vector<cg::SgfGameTree> trees;
    try {
        trees = cg::parseSgfCollection(text);
    } catch (const cg::ParseError& e) {
        if (std::string_view(e.what()).empty()) __builtin_trap();
        return;
    }
    if (trees.empty()) __builtin_trap();
    for (const cg::SgfGameTree& tree : trees) {
        if (tree.mainLine.empty() || tree.line < 1) __builtin_trap();
        try {
            (void)cg::readSgf(tree);
        } catch (const cg::ParseError& e) {
            if (std::string_view(e.what()).empty()) __builtin_trap();
        }
    }
}

void moveNames(std::string_view text) {
    for (int size : {cg::kMinBoardSize, 9, cg::kMaxBoardSize}) {
        try {
            const cg::Move m = cg::parseMove(text, size);
            if (cg::parseMove(cg::moveName(m), size) != m) __builtin_trap();
        } catch (const cg::ParseError&) {
        }
        const std::string fromEngine = xq::match::gtpMoveFromEngine(text, size);
        if (!fromEngine.empty() && fromEngine != "resign") {
            try {
                (void)cg::parseMove(fromEngine, size);  // what the runner accepts names a move
            } catch (const cg::ParseError&) {
                __builtin_trap();
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    positionText(text);
    sgf(text);
    sgfCollection(text);
    if (size <= 16) moveNames(text);
    return 0;
}
