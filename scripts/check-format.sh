#!/usr/bin/env bash
# Fails when a C++ file of the project differs from .clang-format's style. Generated sources (the
# compiled-in evaluation weights and search parameters, written by `xq-engine weights source` and
# `xq-engine tune source`) are left as generated.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v -e '^engine/weights_default.cpp$' -e '^engine/search_params_default.cpp$')
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: these files need clang-format -i:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
