#!/usr/bin/env bash
# Fuzzes what users hand the project:
#  - the readers of artifacts, .npy and .npz inputs and inline input values
#    (test/fuzz/*_fuzz.cpp), with
#    libFuzzer under AddressSanitizer and UndefinedBehaviorSanitizer
#    (clang-22, libclang-rt-22-dev); seeds are real artifacts and .npy files
#    of every dtype, made here; crashes go to build-fuzz/crashes/;
#  - the compiler and runtime, with malformed models: the e2e models mutated
#    at the ONNX level (test/fuzz/mutate_models.py); failing mutants go to
#    build-fuzz/models/.
# Any crash fails the script.
#
#   scripts/fuzz.sh                # 20 s per reader (3), 150 models, fixed seeds (CI)
#   scripts/fuzz.sh 3600 20000     # the long run, on demand
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-20}
MODEL_COUNT=${2:-150}
OUT=${FUZZ_DIR:-build-fuzz}
BIN_DIR=${BUILD_DIR:-build}/bin
CXX=${FUZZ_CXX:-clang++-22}
mkdir -p "$OUT/crashes"

if ! command -v "$CXX" >/dev/null; then
  echo "fuzz: $CXX not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi

flags=(-std=c++17 -g -O1 -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -Iruntime/include -Iruntime/src -DONNX_TOSA_VERSION='"fuzz"')
common=(runtime/src/artifact.cpp runtime/src/npy.cpp runtime/src/file_io.cpp)
# onnx-tosa-run's .npz and inline-value readers (and zlib, which inflates).
run_inputs=(-Itools/onnx-tosa-run tools/onnx-tosa-run/input_values.cpp
            tools/onnx-tosa-run/half.cpp -lz)
TARGETS=(artifact npy inputs)
for target in "${TARGETS[@]}"; do
  echo "fuzz: building ${target}_fuzz"
  extra=()
  [[ $target == inputs ]] && extra=("${run_inputs[@]}")
  "$CXX" "${flags[@]}" "test/fuzz/${target}_fuzz.cpp" "${common[@]}" \
    "${extra[@]}" -o "$OUT/${target}_fuzz" || exit 1
done

# Seeds: an artifact of the example model (when the compiler is built) and
# .npy files of every dtype the reader takes, in each format version.
mkdir -p "$OUT/seeds/artifact" "$OUT/seeds/npy" "$OUT/seeds/inputs"
PY=.venv/bin/python
[[ -x $PY ]] || PY=python3
if [[ -x "$BIN_DIR/onnx-tosa-compile" ]] &&
   "$PY" test/models/make_models.py "$OUT/seeds/models" --only mlp lenet \
     >/dev/null 2>&1; then
  for m in mlp lenet; do
    "$BIN_DIR/onnx-tosa-compile" "$OUT/seeds/models/$m.onnx" --target=vulkan \
      -o "$OUT/seeds/artifact/$m.otsa" >/dev/null 2>&1 || true
  done
fi
"$PY" - "$OUT/seeds/npy" <<'PYEOF' || true
import sys, numpy as np
out = sys.argv[1]
for i, dt in enumerate(["<f4", "<f2", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1",
                        "<u2", "<u4", "<u8", "|b1"]):
    a = (np.arange(6) % 3).astype(dt).reshape(2, 3)
    np.save(f"{out}/{i}.npy", a)
np.save(f"{out}/scalar.npy", np.float32(1.5))
np.save(f"{out}/empty.npy", np.zeros((0, 4), np.int32))
with open(f"{out}/v2.npy", "wb") as f:
    np.lib.format.write_array(f, np.ones((2, 2), np.float32), version=(2, 0))
inputs = out.replace("/npy", "/inputs")
np.savez(f"{inputs}/stored.npz", x=np.ones((2, 3), np.float32),
         ids=np.arange(4, dtype=np.int64))
np.savez_compressed(f"{inputs}/compressed.npz", x=np.arange(6, dtype=np.float16))
for i, spec in enumerate(["2x3xf32=1", "3xi64=1,2,3", "f32=0.5", "2xi1=true,0"]):
    open(f"{inputs}/inline{i}.txt", "w").write(spec)
PYEOF

status=0
for target in "${TARGETS[@]}"; do
  corpus="$OUT/corpus/$target"
  mkdir -p "$corpus"
  echo "fuzz: ${target}_fuzz for ${SECONDS_PER_TARGET} s"
  if ! "$OUT/${target}_fuzz" "$corpus" "$OUT/seeds/$target" -seed=1 \
      -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -timeout=10 \
      -rss_limit_mb=2048 -artifact_prefix="$OUT/crashes/${target}-" \
      -print_final_stats=1 > "$OUT/$target.log" 2>&1; then
    echo "fuzz: ${target}_fuzz FAILED (input in $OUT/crashes/):" >&2
    tail -40 "$OUT/$target.log" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$OUT/$target.log" | tail -2
  fi
done
echo "fuzz: $MODEL_COUNT malformed models through the compiler and runtime"
"$PY" test/fuzz/mutate_models.py --count "$MODEL_COUNT" --seed 1 \
  --bin-dir "$BIN_DIR" --out "$OUT/models" || status=1
exit $status
