// `xq-tuner nnue`: trains the engine's network on `FEN ; result ; score` data and writes it in the
// engine's file format (docs/nnue.md). The rest of xq-tuner (the hand-written weights' Texel fit) is
// untouched: main.cpp hands over when the first argument is `nnue`.
//
//   xq-tuner nnue DATA... --out DIR [--hidden N] [--epochs N] [--batch N] [--lr X] [--wd X] [--lambda X]
//                 [--validation FRACTION|FILE] [--threads N] [--seed N] [--checkpoint FILE] [--json]
//                 [--init NET] [--dedup]
//
// Progress goes to stderr; stdout has a summary, or with --json only the JSON report. Exit codes: 0 done,
// 1 bad data, checkpoint or output (the message names the file, and the line for data), 2 bad options.
#pragma once

namespace xq::tuner::nnue {

// argv[0] is "nnue"; returns the process's exit code.
int runNnueCommand(int argc, char** argv);

}  // namespace xq::tuner::nnue
