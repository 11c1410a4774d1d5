// Chinese move notation, as players write Xiangqi moves: piece, file, direction, then a file or a
// distance ("炮二平五", "马8进7"). Red's files are numbered 一 to 九 from its right (file i to a), Black's
// 1 to 9 from its right (file a to i); 进 is forward, 退 back, 平 sideways. Pieces of one kind on one file
// are told apart by 前/后 (two), 前/中/后 (three) or 一 to 五 from the front (pawns, four or five);
// when pawns stand several on more than one file, the file follows (前兵七进一).
#pragma once

#include <string>

#include "position.h"

namespace xq {

// The move `m`, legal in `pos`, in Chinese notation (UTF-8, simplified characters; Black's numbers are
// written with full-width digits ("马８进７")).
std::string chineseNotation(const Position& pos, Move m);

}  // namespace xq
