#!/usr/bin/env bash
# The ONNX backend conformance suite (see docs/conformance.md):
#   scripts/conformance.sh [--target=vulkan|cuda] [--update-xfail] [--scoreboard]
#                          [--no-build] [more options of the runner: --help]
# Builds onnx-tosa-compile and onnx-tosa-run (unless --no-build), then runs
# test/conformance/run_conformance.py with the other options.
# Exit status: 0 every case as test/conformance/xfail-<target>.txt expects
# (or --update-xfail / --compile-only / --scoreboard-only done); 1 a case not
# on the list failed or a listed case passed; 2 the suite could not run.
set -uo pipefail
cd "$(dirname "$0")/.."

build=1
args=()
for a in "$@"; do
  case "$a" in
    --no-build) build=0 ;;
    --scoreboard-only|--precompiled|--list|-h|--help) build=0; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done

if ((build)); then
  scripts/build.sh onnx-tosa-compile onnx-tosa-run || exit 2
fi
# The project's virtual environment; elsewhere (a GPU machine without it)
# a python3 that has onnx and numpy.
PY=${PYTHON:-.venv/bin/python}
[[ -x $PY ]] || PY=python3
exec "$PY" test/conformance/run_conformance.py "${args[@]}"
