#!/usr/bin/env bash
# Checks the formatting, builds everything (warnings are errors) and runs the test suite; the
# slow-labelled tests are left out (run them with `ctest --test-dir build -L slow`). Installs the
# Debian packages it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/check-format.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
ctest --test-dir build -LE slow --output-on-failure -j"$(nproc)" --timeout 600
