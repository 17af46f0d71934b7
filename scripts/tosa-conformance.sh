#!/usr/bin/env bash
# TOSA conformance of the lowering: every generated single-op TOSA case is
# compiled and run on the target and judged against the reference evaluator
# with the TOSA 1.0 compliance modes (test/tosa/run.py).
#
#   scripts/tosa-conformance.sh [--target=vulkan|cuda] [--device=NAME] [--table]
#                               [--update-xfail] [-j N] [--filter=REGEX] [-v]
#   scripts/tosa-conformance.sh --model=model.onnx [--target=...] [--device=...]
#   scripts/tosa-conformance.sh --target=T --compile-only
#   scripts/tosa-conformance.sh --target=T --precompiled [--run-bin=PATH] ...
#
# --table rewrites docs/tosa-conformance.md (--table=FILE writes FILE),
# --results=FILE.json writes every case's status. --compile-only prepares
# the cases for target T (references, artifacts) in
# $BUILD_DIR/tosa-conformance/T; carried to a GPU machine without LLVM/MLIR,
# --precompiled runs and judges them there with onnx-tosa-run alone (see
# scripts/gpu-machine-check.sh). Exit status: 0 when every case ends as
# test/tosa/xfail-<target>.txt expects (or --compile-only is done), 1 on any
# change, 2 when the tools or the prepared cases are missing (build first:
# scripts/build.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
PYTHON=python3
[[ -x .venv/bin/python ]] && PYTHON=.venv/bin/python

args=()
for a in "$@"; do
  case $a in
    --table) args+=(--table docs/tosa-conformance.md) ;;
    *) args+=("$a") ;;
  esac
done
exec "$PYTHON" test/tosa/run.py --bin-dir "$BUILD_DIR/bin" \
  --artifacts "$BUILD_DIR/tosa-conformance" "${args[@]}"
