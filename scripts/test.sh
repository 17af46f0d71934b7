#!/usr/bin/env bash
# Runs every test: unit and per-stage lit tests (ctest), the ONNX backend
# conformance suite against its expected-failure list, every case's TOSA
# through the official TOSA reference model against its list, a sample of
# the official TOSA conformance tests compiled and run by us and its
# negative (ERROR_IF) tests refused by our compiler, then the
# end-to-end model tests against onnxruntime and the harness tests
# (pytest), on the default target (vulkan: lavapipe on a machine without a
# GPU); in between, a short fuzzing run (the artifact and .npy readers, and
# malformed models through the compiler and runtime) and the runtime built
# with ASan and UBSan running the conformance artifacts; last, the model
# served by Triton Inference Server under load.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh || exit 1
BUILD_DIR=${BUILD_DIR:-build}
TARGET=${ONNX_TOSA_TARGET:-vulkan}
failed=()

echo "== unit and lit tests (ctest)"
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)") || failed+=(ctest)

# Models run with malloc'd memory filled with a pattern (glibc; lavapipe's
# device memory comes from malloc): a kernel that reads a buffer before
# anything wrote it gets garbage every time instead of the zeros fresh
# memory usually holds (a row kernel once dropped a neighbour's fill and
# passed every test but one, intermittently).
export MALLOC_PERTURB_=${MALLOC_PERTURB_:-165}

echo "== ONNX backend conformance ($TARGET)"
scripts/conformance.sh --no-build --target="$TARGET" || failed+=(conformance)

echo "== every ONNX case's TOSA run by the official TOSA reference model"
.venv/bin/python test/tosa/reference_model.py -j "$(nproc)" \
  --bin-dir "$BUILD_DIR/bin" --build-dir "$BUILD_DIR" \
  --gpu-results "$BUILD_DIR/conformance-$TARGET.json" \
  || failed+=(tosa-reference-model)

echo "== the official TOSA conformance tests (a sample of operators) on our pipeline ($TARGET)"
.venv/bin/python test/tosa/cts.py -j "$(nproc)" --bin-dir "$BUILD_DIR/bin" \
  --target "$TARGET" --out "$BUILD_DIR/tosa-cts" || failed+=(tosa-cts)

echo "== the official TOSA conformance suite's negative tests (every ERROR_IF graph): refused by our compiler"
.venv/bin/python test/tosa/cts.py --test-type negative -j "$(nproc)" \
  --bin-dir "$BUILD_DIR/bin" --target "$TARGET" \
  --out "$BUILD_DIR/tosa-cts-negative" || failed+=(tosa-cts-negative)

echo "== fuzzing: the artifact, .npy, .npz and inline-input readers (20 s each; ASan, UBSan), 150 malformed models"
BUILD_DIR="$BUILD_DIR" scripts/fuzz.sh 20 || failed+=(fuzz)

echo "== the runtime under AddressSanitizer and UndefinedBehaviorSanitizer: its unit tests and the conformance artifacts"
BUILD_DIR="$BUILD_DIR" scripts/sanitize.sh --target="$TARGET" || failed+=(sanitize)

echo "== end-to-end and harness tests (pytest, target $TARGET)"
export ONNX_TOSA_BIN_DIR="$PWD/$BUILD_DIR/bin"
.venv/bin/python -m pytest -q -p no:cacheprovider test/e2e test/conformance \
  || failed+=(pytest)

echo "== serving: onnx-tosa behind Triton Inference Server (HTTP, gRPC, 2000 requests, faults, shutdown)"
ONNX_TOSA_SERVE_DEVICE=$TARGET .venv-serve/bin/python -m pytest -q -p no:cacheprovider \
  test/serving || failed+=(serving)

if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
