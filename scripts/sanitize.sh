#!/usr/bin/env bash
# The runtime (what runs on users' machines: it reads artifacts and inputs
# and drives the GPU drivers) built with AddressSanitizer and
# UndefinedBehaviorSanitizer (clang-22), then run: its unit tests, and every
# case of the ONNX conformance suite from the artifacts that
# scripts/conformance.sh compiled into BUILD_DIR/conformance/cache (run it
# first). Any sanitizer report fails the script.
#   -fno-sanitize=enum: the C API takes enums from C callers, for whom any
#     int is a value; the runtime checks them (runtime-tests passes it an
#     unknown dtype 999), but C++ calls loading such a value undefined.
#   detect_leaks=0: lavapipe's JIT-compiled shaders keep small allocations
#     that LeakSanitizer cannot attribute (their frames are unnamed JIT
#     code); the readers' leaks are checked by scripts/fuzz.sh.
#
#   scripts/sanitize.sh [--target=vulkan|cuda]
set -uo pipefail
cd "$(dirname "$0")/.."
TARGET=vulkan
for a in "$@"; do
  case $a in
    --target=*) TARGET=${a#--target=} ;;
    *) echo "sanitize: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
OUT=${SANITIZE_DIR:-build-sanitize}
BUILD_DIR=${BUILD_DIR:-build}
flags="-fsanitize=address,undefined -fno-sanitize=enum"
flags+=" -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
echo "sanitize: building the runtime with $flags"
mkdir -p "$OUT"
cmake -S . -B "$OUT" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DONNX_TOSA_BUILD_COMPILER=OFF -DONNX_TOSA_BUILD_TESTS=ON \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
  "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined" \
  > "$OUT/cmake.log" 2>&1 || { cat "$OUT/cmake.log" >&2; exit 1; }
ninja -C "$OUT" onnx-tosa-run runtime-tests > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log" >&2; exit 1; }
export ASAN_OPTIONS=detect_leaks=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
echo "sanitize: runtime-tests"
"$OUT/bin/runtime-tests" --gtest_brief=1 || status=1
echo "sanitize: the ONNX conformance suite's artifacts ($TARGET) through the sanitized onnx-tosa-run"
.venv/bin/python test/conformance/run_conformance.py --target="$TARGET" \
  --precompiled --bin-dir "$OUT/bin" --build-dir "$BUILD_DIR" \
  --results "$OUT/conformance-$TARGET.json" || status=1
exit $status
