#!/usr/bin/env bash
# Links onnx-tosa-compile statically against LLVM/MLIR (and protobuf) so that
# it runs on a machine without them, such as the GPU machine the benchmark
# runs on, and xz-compresses it:
#   scripts/make_portable_compiler.sh OUTDIR     -> OUTDIR/onnx-tosa-compile.xz
# It reuses the objects of the normal build (run scripts/build.sh first); the
# result needs only glibc, libstdc++ and libzstd at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: make_portable_compiler.sh OUTDIR}
BUILD_DIR=${BUILD_DIR:-build}
mkdir -p "$OUT"
ninja -C "$BUILD_DIR" onnx-tosa-compile > /dev/null
LLVM_LIB=$(llvm-config-22 --libdir)
MULTIARCH=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

# The project's own archives, in the order the normal link uses them.
link=$(ninja -C "$BUILD_DIR" -t commands bin/onnx-tosa-compile | tail -1)
own=()
for word in $link; do
  case $word in
    *.cpp.o | */lib*.a) own+=("$BUILD_DIR/$word") ;;
  esac
done
# Every LLVM/MLIR archive but test, tablegen and tool-driver ones; the
# linker keeps only what the compiler reaches.
mapfile -t llvm < <(ls "$LLVM_LIB"/libMLIR*.a "$LLVM_LIB"/libLLVM*.a |
  grep -v -E 'Test|TableGen|Tblgen|Exegesis|OrcDebugging|CAPI|gtest|Fuzz|Diff|LspServer|MlirOptMain|TranslateLib|Python|OptLib|Reduce')

bin="$OUT/onnx-tosa-compile"
clang++-22 -fuse-ld=lld -O2 -Wl,--gc-sections -s -o "$bin" "${own[@]}" \
  -Wl,--start-group "${llvm[@]}" -Wl,--end-group \
  "/usr/lib/$MULTIARCH/libprotobuf.a" -Wl,-Bstatic -lz -ltinfo -Wl,-Bdynamic \
  "/usr/lib/$MULTIARCH/libzstd.so.1" -lpthread -ldl
"$bin" --version > /dev/null
xz -6 -T0 -f "$bin"
echo "portable compiler: $bin.xz ($(du -h "$bin.xz" | cut -f1))"
