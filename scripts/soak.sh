#!/usr/bin/env bash
# A chaos soak of the cluster: a coordinator and four workers on 127.0.0.1 play an SPRT and a datagen test
# while the script kills, pauses, cuts, fills the coordinator's disk and corrupts an artifact at random
# seeded moments, then checks that nothing acknowledged was lost or counted twice (scripts/soak.py says
# exactly what). Prints the figures and keeps them in DIR/soak.json; exits 1 on any violation.
#   scripts/soak.sh [--minutes N] [--seed S] [--dir DIR]     default 10 minutes, a random seed
# Filling the disk needs root (the data directory becomes a small tmpfs); without it that event is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=10 seed=$((RANDOM * 32768 + RANDOM)) dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="${2:?--minutes needs a number}"; shift 2 ;;
    --seed) seed="${2:?--seed needs a number}"; shift 2 ;;
    --dir) dir="${2:?--dir needs a path}"; shift 2 ;;
    *) echo "soak.sh: unknown argument '$1' (--minutes N, --seed S, --dir DIR)" >&2; exit 2 ;;
  esac
done
bash scripts/install-deps.sh
for b in xq xq-engine xq-coordinator xq-worker; do
  [ -x "build/bin/$b" ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null &&
                             cmake --build build --target xq xq-engine xq-coordinator xq-worker >/dev/null; break; }
done
[ -n "$dir" ] || dir=$(mktemp -d /tmp/xq-soak-XXXXXX)
mkdir -p "$dir/data"
disk=()
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=384m xq-soak "$dir/data" 2>/dev/null; then
  disk=(--disk-full)
  trap 'umount "$dir/data" 2>/dev/null || true' EXIT
else
  echo "soak.sh: not root (or no tmpfs): the disk-full event is left out" >&2
fi
echo "soak.sh: $minutes minutes, seed $seed, in $dir"
python3 scripts/soak.py --dir "$dir" --minutes "$minutes" --seed "$seed" "${disk[@]}"
