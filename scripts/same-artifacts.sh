#!/usr/bin/env bash
# Whether two compilers make the same programs: compiles the benchmark-like
# models of test/models/make_layer_models.py (a BERT-base layer and a
# ResNet-50-like block, batch 1 and 8) for Vulkan and CUDA (sm_90a, PTX) in
# fp32, fp16 and tf32 with both, and compares the artifacts' content hashes
# (onnx-tosa-run --inspect: the program, not who made it). For refactorings
# that must change nothing: keep the old build's bin folder, rebuild, run
#
#   scripts/same-artifacts.sh OLD_BIN_DIR [NEW_BIN_DIR (default build/bin)]
#
# Prints one line per compile and exits 1 if any differs.
set -uo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?usage: same-artifacts.sh OLD_BIN_DIR [NEW_BIN_DIR]}
NEW=${2:-build/bin}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
.venv/bin/python test/models/make_layer_models.py "$WORK" || exit 2
hash_of() {
  "$NEW/onnx-tosa-run" --inspect "$1" 2>/dev/null | awk '/^content:/ {print $2}'
}
status=0
for m in bert_b1 bert_b8 resnet_b1 resnet_b8; do
  for opts in "--target=vulkan" "--target=vulkan --precision=fp16" \
              "--target=cuda:sm_90a" "--target=cuda:sm_90a --precision=fp16" \
              "--target=cuda:sm_90a --precision=tf32"; do
    for side in old new; do
      bin=$OLD
      [[ $side == new ]] && bin=$NEW
      # (compilers from before --target=cuda:CHIP took --chip)
      args=$opts
      if ! "$bin/onnx-tosa-compile" --list-targets > /dev/null 2>&1; then
        args=${opts/--target=cuda:sm_90a/--target=cuda --chip=sm_90a}
      fi
      # shellcheck disable=SC2086
      if ! "$bin/onnx-tosa-compile" "$WORK/$m.onnx" $args --cuda-format=ptx \
          -o "$WORK/$m.$side.otsa" > /dev/null 2> "$WORK/err"; then
        echo "FAILED $side $m $opts: $(tail -1 "$WORK/err")"
        status=1
      fi
    done
    a=$(hash_of "$WORK/$m.old.otsa")
    b=$(hash_of "$WORK/$m.new.otsa")
    if [[ -n $a && $a == "$b" ]]; then
      echo "same    $m $opts ($a)"
    else
      echo "DIFFERS $m $opts (${a:-none} / ${b:-none})"
      status=1
    fi
  done
done
exit $status
