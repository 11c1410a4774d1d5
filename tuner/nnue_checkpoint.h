// Checkpoints of the network trainer: the whole TrainerState (hyper-parameters, float weights, Adam's
// moments, step count, loss history, which data, the --init network it started from) in one little-endian
// binary file ending with an FNV-1a 64 hash of the bytes before it, so training resumes where it stopped, on
// the same data.
#pragma once

#include <stdexcept>
#include <string>

#include "nnue_trainer.h"

namespace xq::tuner::nnue {

// A checkpoint that cannot be written, read or trusted; what() names the file and the reason.
struct CheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string serializeCheckpoint(const TrainerState& state);
TrainerState parseCheckpoint(const std::string& bytes, const std::string& name = "checkpoint");

// Written to a temporary file and renamed, so a crash leaves the previous checkpoint whole.
void saveCheckpoint(const std::string& path, const TrainerState& state);
TrainerState loadCheckpoint(const std::string& path);

}  // namespace xq::tuner::nnue
