#!/usr/bin/env bash
# Installs everything onnx-tosa needs to build and test on a fresh Debian 12 machine:
# LLVM/MLIR 22 (Debian; clang's sanitizer and fuzzer runtimes for scripts/fuzz.sh), protobuf, zlib (.npz inputs), Vulkan loader + Mesa lavapipe, SPIR-V tools, GoogleTest,
# and Python virtual environments: .venv with the test tooling (onnx, onnxruntime, numpy, lit), .venv-tosa
# with the official TOSA tools, .venv-serve with NVIDIA Triton Inference Server (PyTriton) and its clients.
# Safe to run repeatedly: it skips what is already present.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  cmake ninja-build g++ pkg-config
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22 clang-22
  libclang-rt-22-dev
  libprotobuf-dev protobuf-compiler zlib1g-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-tools spirv-tools
  libgtest-dev
  python3-venv
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  echo "install-deps: apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PY=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  echo "install-deps: creating .venv"
  "$PY" -m venv .venv
fi
if ! .venv/bin/python -c "import onnx, onnxruntime, numpy, lit, pytest" 2>/dev/null; then
  echo "install-deps: pip install test tooling into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -r scripts/requirements-test.txt
fi
# The official TOSA tools, apart (see scripts/requirements-tosa.txt).
if ! .venv-tosa/bin/python -c "import tosa_tools_cli" 2>/dev/null; then
  echo "install-deps: pip install the TOSA tools into .venv-tosa"
  "$PY" -m venv .venv-tosa
  .venv-tosa/bin/python -m pip install -q --upgrade pip
  .venv-tosa/bin/python -m pip install -q -r scripts/requirements-tosa.txt
fi
# NVIDIA Triton Inference Server (PyTriton) for the serving tests, apart
# (see scripts/requirements-serve.txt).
if ! .venv-serve/bin/python -c "import pytriton, tritonclient.grpc, onnxruntime" 2>/dev/null; then
  echo "install-deps: pip install Triton Inference Server (PyTriton) into .venv-serve"
  "$PY" -m venv .venv-serve
  .venv-serve/bin/python -m pip install -q --upgrade pip
  .venv-serve/bin/python -m pip install -q -r scripts/requirements-serve.txt
fi
echo "install-deps: ok"
