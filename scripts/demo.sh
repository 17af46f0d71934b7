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
echo "== checking against onnxruntime"
.venv/bin/python - "$OUT" <<'PY'
import sys, numpy as np, onnxruntime as ort
out = sys.argv[1]
want = ort.InferenceSession(f"{out}/mlp.onnx").run(None, {"x": np.load(f"{out}/x.npy")})[0]
got = np.load(f"{out}/y.npy")
ok = np.allclose(got, want, rtol=1e-4, atol=1e-5)
print(f"max |ours - onnxruntime| = {np.abs(got - want).max():.2e}: {'match' if ok else 'MISMATCH'}")
sys.exit(0 if ok else 1)
PY
echo "== the compiled artifact is $OUT/mlp.$TARGET.otsa; every stage can be"
echo "   printed, e.g.: $BIN/onnx-tosa-compile $OUT/mlp.onnx --emit=tosa"
echo "   (or --emit=onnx, linalg, gpu, ptx, spirv)"
