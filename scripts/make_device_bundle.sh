#!/usr/bin/env bash
# Compiles the end-to-end test models for CUDA and Vulkan into a bundle that
# scripts/device_check.py runs on a GPU machine (which needs only the small
# runtime there, no LLVM/MLIR):  scripts/make_device_bundle.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: make_device_bundle.sh OUTDIR}
BIN=${BUILD_DIR:-build}/bin
mkdir -p "$OUT"
.venv/bin/python test/models/make_models.py "$OUT" > /dev/null
.venv/bin/python - "$OUT" <<'PY'
import pathlib, sys
import numpy as np, onnx
out = pathlib.Path(sys.argv[1])
for i, model in enumerate(sorted(out.glob("*.onnx"))):
    g = onnx.load(str(model)).graph
    inits = {t.name for t in g.initializer}
    d = out / f"{model.stem}.inputs"
    d.mkdir(exist_ok=True)
    rng = np.random.default_rng(1000 + i)
    for vi in g.input:
        if vi.name in inits:
            continue
        shape = [x.dim_value for x in vi.type.tensor_type.shape.dim]
        np.save(d / f"{vi.name}.npy", rng.uniform(-1, 1, shape).astype(np.float32))
PY
for m in "$OUT"/*.onnx; do
  for t in cuda vulkan; do
    "$BIN/onnx-tosa-compile" "$m" --target=$t -o "${m%.onnx}.$t.otsa" > /dev/null
  done
done
echo "bundle: $(ls "$OUT"/*.onnx | wc -l) models in $OUT"
