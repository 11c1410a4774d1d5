// SGF (FF[4], GM[1]) for Capture Go and Go game records: a writer, and one parser that reads the main line
// of a game tree (following the first variation at every branch; other variations are ignored) back into a
// Game: of the first game tree of a file (readSgf, parseSgfMainLine), or of every game tree of a collection,
// as `xq match --pgnout` appends one per game (readSgfCollection, parseSgfCollection).
//
// Written properties, in the root node:
//   FF[4] GM[1] CA[UTF-8] AP[xq-capturego:1] SZ[n] KM[komi]
//   RU[capture:<target>] XT[<target>] GC[...]   capture rule set (XT: private property holding the target,
//                                               so that the rules survive tools that rewrite RU)
//   RU[Tromp-Taylor]                            go rule set
//   PB PW DT EV (when set), RE (when the game is over: see result.h)
//   AB AW for a non-empty start, PL[W] when White moves first, and the private XB[n] XW[n] XP[n] for a
//   start position with captures (black's, white's) or consecutive passes already counted
// then one node per move: ;B[dd] ;W[] (a pass is written empty; "tt" is read as a pass too).
// Points: column letter a.. from the left, row letter a.. from the TOP (SGF's convention, unlike GTP).
//
// Reading: game information (SZ KM RU XT PB PW DT EV RE) comes from the root node. Escapes in values are
// handled (\] \\ and soft line breaks), lowercase letters in property names are ignored (FF[3] style). The
// rule set is capture when RU is "capture:<n>" or XT is present, otherwise go (any other RU, e.g. Japanese or
// Chinese, is read as the go rule set: this library scores by Tromp-Taylor area). KM defaults to the rule
// set's komi (0 capture, 7.5 go) when absent; SZ to 19. Setup (AB AW AE PL) is accepted in the nodes before
// the first move. The side to move first is PL, else the colour of the first move, else Black. Moves must
// alternate. The ending comes from the moves (capture target, two passes); a RE of resignation, time or
// forfeit is applied to a game the moves leave unfinished; any other RE is ignored (GNU Go, for instance,
// scores by its own rules).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "capturego/game.h"

namespace xq::capturego {

struct SgfProperty {
    std::string id;                   // upper-case letters only
    std::vector<std::string> values;  // unescaped
};

struct SgfNode {
    std::vector<SgfProperty> properties;  // a name given twice in one node has its values merged
    const SgfProperty* find(std::string_view id) const;
};

// A move of a record that cannot be played: not the player's turn, an occupied point, suicide, a superko
// repetition, a move after the game has ended. what() is ParseError's ("SGF move 12 (white D4): D4 is
// occupied"); the parts are given apart for reports.
struct SgfMoveError : ParseError {
    SgfMoveError(const std::string& what, int number, std::string played, std::string reason)
        : ParseError(what), moveNumber(number), move(std::move(played)), why(std::move(reason)) {}
    int moveNumber;    // 1 for the record's first move (B or W node), counting passes
    std::string move;  // "white D4", "black pass"
    std::string why;   // "D4 is occupied"
};

// The nodes of the main line of the first game tree. Throws ParseError with the line and column of a
// syntax error ("SGF line 3, column 7: unterminated value of property C").
std::vector<SgfNode> parseSgfMainLine(std::string_view text);

// One game tree of a collection: the line of its '(' and the nodes of its main line.
struct SgfGameTree {
    int line = 1;
    std::vector<SgfNode> mainLine;
};
// Every game tree of a collection, in order. Anything before the first '(' is ignored (as by
// parseSgfMainLine); between and after the trees only white space may stand. Throws ParseError with the
// line and column of a syntax error, or "SGF: no game tree ..." when there is none.
std::vector<SgfGameTree> parseSgfCollection(std::string_view text);

std::string writeSgf(const Game& game);
// Throws ParseError naming the node that is wrong ("SGF node 3: B[zz] is off the 9x9 board"), or
// SgfMoveError for a move that cannot be played ("SGF move 12 (white D4): D4 is occupied").
Game readSgf(std::string_view text);
Game readSgf(const SgfGameTree& tree);  // the same, for one tree of a collection
// Every game of a collection; the errors as readSgf's, prefixed with the game ("SGF game 3 (line 5): ...").
std::vector<Game> readSgfCollection(std::string_view text);

}  // namespace xq::capturego
