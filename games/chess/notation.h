// Chess move text: UCI's long algebraic notation (e2e4, e7e8q, e1g1 for castling), as engines speak it,
// and Standard Algebraic Notation (Nf3, exd6, O-O, e8=Q+), as PGN writes it. Reading either checks the
// move against the legal ones and says what was wrong.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "position.h"

namespace xq::chess {

std::string uciMove(Move m);
std::string squareText(Square s);
// The legal move `text` names in UCI notation; nullopt and the reason otherwise. Castling is also read as
// the king taking its own rook (e1h1), as some engines write it.
std::optional<Move> parseUciMove(const Position& pos, std::string_view text, std::string* error = nullptr);

// The SAN of legal move `m` in `pos`, with + or # when it checks or mates.
std::string san(const Position& pos, Move m);
// The legal move `text` names in SAN; also read: 0-0 for O-O, a missing or extra '=' before the promotion
// piece, a missing 'x', and annotations (+, #, !, ?) after it.
std::optional<Move> parseSan(const Position& pos, std::string_view text, std::string* error = nullptr);

}  // namespace xq::chess
