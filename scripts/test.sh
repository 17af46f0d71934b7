#!/usr/bin/env bash
# Runs every test: unit tests and per-stage lit tests (ctest), then the
# end-to-end model tests against onnxruntime (pytest) on the default device.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh || exit 1
BUILD_DIR=${BUILD_DIR:-build}

echo "== unit and lit tests (ctest)"
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)")
ctest_rc=$?

echo "== end-to-end tests (pytest, target ${ONNX_TOSA_TARGET:-vulkan})"
export ONNX_TOSA_BIN_DIR="$PWD/$BUILD_DIR/bin"
.venv/bin/python -m pytest -q test/e2e
pytest_rc=$?

if ((ctest_rc != 0 || pytest_rc != 0)); then
  echo "FAILED: ctest exit $ctest_rc, pytest exit $pytest_rc" >&2
  exit 1
fi
