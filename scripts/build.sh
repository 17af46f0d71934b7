#!/usr/bin/env bash
# Configures and builds onnx-tosa into build/ (installs dependencies first).
#   scripts/build.sh [ninja targets...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR="$(llvm-config-22 --prefix)/lib/cmake/mlir"
fi
ninja -C "$BUILD_DIR" -j "$JOBS" "$@"
