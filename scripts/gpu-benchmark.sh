#!/usr/bin/env bash
# The benchmark against PyTorch, on a GPU machine with the NVIDIA driver and
# python3 with torch, torchvision and onnx, and no LLVM/MLIR. Here first:
#   scripts/build.sh
#   scripts/make_portable_compiler.sh .devcarry     # -> onnx-tosa-compile.xz
#   cp build/bin/onnx-tosa-run .devcarry/
# then, on the GPU machine, with .devcarry brought along:
#   scripts/gpu-benchmark.sh OUTDIR [--models=resnet50_b1,...] [--micro] ...
# (arguments after OUTDIR go to benchmarks/torch_comparison.py). It writes
# OUTDIR/benchmark.md (the table) and OUTDIR/benchmark.json. The Vulkan
# columns need the Vulkan loader and the GL vendor-neutral dispatch
# libraries (Debian's libvulkan1 and libglvnd0 with its GL/EGL packages)
# there: with the loader alone NVIDIA's driver refuses the instance
# (VK_ERROR_INCOMPATIBLE_DRIVER); VK_DRIVER_FILES names the driver's ICD
# file where the loader does not find it.
set -euo pipefail
cd "$(dirname "$0")/.."
OUTDIR=${1:?usage: gpu-benchmark.sh OUTDIR [benchmark options]}
shift
mkdir -p "$OUTDIR"
tools=$(mktemp -d)
xz -dc .devcarry/onnx-tosa-compile.xz > "$tools/onnx-tosa-compile"
chmod +x "$tools/onnx-tosa-compile"
export PYTHONUNBUFFERED=1
python3 benchmarks/torch_comparison.py --compiler "$tools/onnx-tosa-compile" \
  --runner .devcarry/onnx-tosa-run --out "$OUTDIR" "$@"
