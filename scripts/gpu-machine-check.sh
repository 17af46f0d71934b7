#!/usr/bin/env bash
# The whole check on a GPU machine that has the NVIDIA driver, python3 with
# onnx/onnxruntime/numpy, and no LLVM/MLIR. Everything is compiled here first:
#   scripts/make_device_bundle.sh .devcarry/bundle
#   cp build/bin/onnx-tosa-run build/bin/runtime-tests .devcarry/
#   cp -r build/test/runtime/kernels .devcarry/
#   scripts/conformance.sh --no-build --target=cuda --compile-only
#   scripts/conformance.sh --no-build --target=vulkan --compile-only
#   scripts/tosa-conformance.sh --target=cuda --compile-only
#   scripts/tosa-conformance.sh --target=vulkan --compile-only
# and, since the compiled caches are thousands of small files, packed:
#   tar -cJf .devcarry/compiled.tar.xz build/conformance/cache \
#       build/tosa-conformance
# then, on the GPU machine, with .devcarry brought along:
#   scripts/gpu-machine-check.sh OUTDIR
# It runs the runtime tests (CUDA execution included), the end-to-end models
# on CUDA and on Vulkan against onnxruntime, the ONNX conformance suite and
# the TOSA conformance cases on both, and a few latencies; results and logs
# go to OUTDIR.
set -uo pipefail
cd "$(dirname "$0")/.."
OUTDIR=${1:?usage: gpu-machine-check.sh OUTDIR}
mkdir -p "$OUTDIR"
export PYTHONUNBUFFERED=1
JOBS=$(nproc)

if [[ -f .devcarry/compiled.tar.xz ]]; then
  tar -xJf .devcarry/compiled.tar.xz
fi

# The runtime tests look for their kernels and the run tool where the build
# put them.
kernels_dir=$(python3 -c "import re; m = re.search(rb'/[\\w./-]*/test/runtime/kernels', open('.devcarry/runtime-tests', 'rb').read()); print(m.group().decode() if m else '')")
if [[ -n $kernels_dir ]]; then
  mkdir -p "$kernels_dir" && cp .devcarry/kernels/* "$kernels_dir/"
  mkdir -p "${kernels_dir%/test/runtime/kernels}/bin"
  cp .devcarry/onnx-tosa-run "${kernels_dir%/test/runtime/kernels}/bin/"
fi

echo "== runtime tests"
.devcarry/runtime-tests --gtest_brief=1 2>&1 | tail -6

echo "== end-to-end models (CUDA and Vulkan) against onnxruntime"
python3 scripts/device_check.py --bundle .devcarry/bundle \
  --run-tool .devcarry/onnx-tosa-run --device cuda:0 --device vulkan \
  > "$OUTDIR/e2e.log" 2>&1
grep -v '^ok' "$OUTDIR/e2e.log"

echo "== ONNX conformance, cuda"
scripts/conformance.sh --no-build --target=cuda --precompiled --update-xfail \
  -j "$JOBS" 2>&1 | tail -5
cp build/conformance-cuda.json test/conformance/xfail-cuda.txt "$OUTDIR/"

echo "== TOSA conformance, cuda"
# References and artifacts come from the build machine (--compile-only);
# only onnx-tosa-run and compliance.py (numpy) run here.
scripts/tosa-conformance.sh --target=cuda --precompiled --update-xfail \
  --run-bin=.devcarry/onnx-tosa-run -j "$JOBS" \
  --table="$OUTDIR/tosa-conformance-cuda.md" \
  --results="$OUTDIR/tosa-conformance-cuda.json" 2>&1 | tail -5
cp test/tosa/xfail-cuda.txt "$OUTDIR/tosa-xfail-cuda.txt"

echo "== TOSA conformance, vulkan on this GPU"
scripts/tosa-conformance.sh --target=vulkan --precompiled \
  --run-bin=.devcarry/onnx-tosa-run -j "$JOBS" \
  --table="$OUTDIR/tosa-conformance-vulkan-gpu.md" \
  --results="$OUTDIR/tosa-conformance-vulkan-gpu.json" 2>&1 | tail -5

echo "== latency (median of 200 runs after one warm-up)"
for m in mlp lenet cnn_misc; do
  for g in 1 0; do
    ONNX_TOSA_CUDA_GRAPHS=$g .devcarry/onnx-tosa-run .devcarry/bundle/$m.cuda.otsa \
      --device=cuda --random-inputs --output-dir=/tmp/bench --quiet --benchmark=200 |
      sed "s/^/$m cuda graphs=$g: /"
  done
  .devcarry/onnx-tosa-run .devcarry/bundle/$m.vulkan.otsa --device=vulkan \
    --random-inputs --output-dir=/tmp/bench --quiet --benchmark=200 |
    sed "s/^/$m vulkan: /"
done

echo "== ONNX conformance, vulkan on this GPU"
scripts/conformance.sh --no-build --target=vulkan --precompiled -j "$JOBS" \
  --results="$OUTDIR/conformance-vulkan-gpu.json" 2>&1 | tail -5
