#!/usr/bin/env bash
# The newcomer's first command: builds onnx-tosa, compiles the bundled example
# model (a small MLP) for the default device (a CUDA GPU if one is present,
# else Vulkan, which is Mesa's software lavapipe on a machine without a GPU),
# runs it and prints its outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
BIN=${BUILD_DIR:-build}/bin
OUT=out/example
mkdir -p "$OUT"
.venv/bin/python examples/make_example.py "$OUT"

TARGET=vulkan
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  TARGET=cuda
fi
echo "== compiling $OUT/mlp.onnx for $TARGET"
"$BIN/onnx-tosa-compile" "$OUT/mlp.onnx" --target=$TARGET -o "$OUT/mlp.$TARGET.otsa"
echo "== running it"
"$BIN/onnx-tosa-run" "$OUT/mlp.$TARGET.otsa" --device=$TARGET \
  --input x="$OUT/x.npy" --output-dir="$OUT"
echo "== the compiled artifact is $OUT/mlp.$TARGET.otsa; every stage can be"
echo "   printed with: $BIN/onnx-tosa-compile $OUT/mlp.onnx --emit=onnx|tosa|linalg|gpu|ptx|spirv"
