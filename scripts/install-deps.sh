#!/usr/bin/env bash
# Installs every Debian package the project needs. Idempotent and quiet when all is present.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git clang-format ccache
  libgrpc++-dev libgrpc-dev protobuf-compiler protobuf-compiler-grpc libprotobuf-dev
  libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libsqlite3-dev libpq-dev postgresql libcli11-dev nlohmann-json3-dev libspdlog-dev libcpp-httplib-dev
  zlib1g-dev clang-14 libclang-rt-14-dev
  fairy-stockfish stockfish gnugo jq openssl bubblewrap libseccomp-dev
  chromium chromium-driver fonts-wqy-zenhei prometheus python3-yaml
)
# kubectl renders deploy/k8s (kustomize) in the tests: Debian's kubernetes-client, unless a kubectl is
# already installed from elsewhere (the two packages would collide).
if ! command -v kubectl >/dev/null 2>&1; then PACKAGES+=(kubernetes-client); fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -o DPkg::Lock::Timeout=300 -qq >/dev/null
$SUDO apt-get install -o DPkg::Lock::Timeout=300 -y -qq --no-install-recommends "${missing[@]}" >/dev/null
