// SGF (FF[4], GM[1]) for Capture Go and Go game records: a writer, and one parser that reads the main line
// of an SGF file (the first game tree, following the first variation at every branch; other variations and
// further game trees are ignored) back into a Game.
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

// The nodes of the main line of the first game tree. Throws ParseError with the line and column of a
// syntax error ("SGF line 3, column 7: unterminated value of property C").
std::vector<SgfNode> parseSgfMainLine(std::string_view text);

std::string writeSgf(const Game& game);
// Throws ParseError naming the node or move that is wrong ("SGF move 12 (white D4): D4 is occupied").
Game readSgf(std::string_view text);

}  // namespace xq::capturego
