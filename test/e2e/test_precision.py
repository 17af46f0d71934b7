"""--precision: a conv + matmul + layer-norm + softmax model compiled with
fp16 (bf16 on CUDA) computation matches onnxruntime's fp32 within the
16-bit type's error; the default stays fp32, unchanged."""
import re

import numpy as np
import onnx
import pytest

import e2e_support as S
from e2e_support import assert_clean_error, assert_mentions

# Tolerances, on outputs of order one (the layer norm) and on
# probabilities (the softmax over 64, each about 1/64).
# fp16 keeps 11 significant bits: each rounding is off by at most
# 2^-11 ~ 4.9e-4 relatively. The input, the weights and every intermediate
# tensor are rounded once (about ten roundings from input to output); dot
# products (27 terms in the convolution, 256 in the matmul) and the row sums
# accumulate in f32 and add little. Measured worst absolute errors, fp16:
# 3.3e-3 (lavapipe) and 4.2e-3 (H200) on the layer norm, whose values reach
# 4.6; 3.5e-4 on the probabilities (up to 0.27). rtol = atol = 1e-2 (about
# 20 ulps of fp16 at 1) leaves room for other devices' exp/rsqrt while a
# wrong result (a lost bias, an unscaled row) is off by far more; the
# probabilities get atol 1e-3, a sixteenth of their mean (1/64).
# bf16 keeps 8 significant bits (2^-8 ~ 3.9e-3 per rounding), 8x fp16's
# error: 3.0e-2 and 3.1e-3 measured on the H200; tolerances 8x fp16's.
TOLERANCES = {
    "fp16": {"ln": (1e-2, 1e-2), "y": (1e-2, 1e-3)},
    "bf16": {"ln": (8e-2, 8e-2), "y": (8e-2, 8e-3)},
}


def build_model(name="precision_net"):
    g = S.make_models.Graph(name)
    x = g.input("x", [2, 3, 16, 16])
    h = g.node("Conv", [x, g.weight("conv_w", [16, 3, 3, 3]),
                        g.weight("conv_b", [16])],
               name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    h = g.node("Relu", [h], name="relu")
    shape = g.const("rows", np.array([2, 16, 256], dtype=np.int64))
    h = g.node("Reshape", [h, shape], name="to_rows")
    # MatMul weights are [K, N]: the fan-in is the first dimension.
    w = g.weight("mm_w", [256, 64], scale=1 / np.sqrt(256))
    h = g.node("MatMul", [h, w], name="matmul")
    ln = g.node("LayerNormalization",
                [h, g.weight("ln_scale", [64], scale=1.0, low=0.5, high=1.5),
                 g.weight("ln_bias", [64], scale=0.5)],
                outputs=["ln"], name="layer_norm", axis=-1, epsilon=1e-5)
    y = g.node("Softmax", [ln], outputs=["y"], name="softmax", axis=-1)
    g.output(ln, y)
    return g.model()


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    path = tmp_path_factory.mktemp("precision") / "precision_net.onnx"
    onnx.save_model(build_model(), path)
    return path


@pytest.fixture(scope="module")
def feeds(model):
    return S.make_models.make_inputs(onnx.load(model),
                                     S.make_models.name_seed("precision_net"))


def weight_bytes(proc):
    """The weight size that onnx-tosa-compile reports."""
    m = re.search(r"(\d+) bytes of weights", proc.stdout)
    assert m, f"no weight size reported{S.describe(proc)}"
    return int(m.group(1))


@pytest.mark.parametrize("precision", ["fp16", "bf16"])
def test_low_precision_matches_onnxruntime(compile_tool, run_tool, model,
                                           feeds, tmp_path, precision):
    if precision == "bf16" and S.TARGET != "cuda":
        pytest.skip("bf16 runs on the CUDA target only")
    proc, _, got = S.compile_and_run(compile_tool, run_tool, model, feeds,
                                     tmp_path, f"--precision={precision}",
                                     outputs=("ln", "y"))
    expected = S.onnxruntime_outputs(model, feeds)
    for name, ref in expected.items():
        # Inputs and outputs keep their declared type.
        assert got[name].dtype == ref.dtype == np.float32
        assert got[name].shape == ref.shape
        rtol, atol = TOLERANCES[precision][name]
        np.testing.assert_allclose(
            got[name], ref, rtol=rtol, atol=atol,
            err_msg=f"--precision={precision}: output {name!r} differs from "
                    "onnxruntime beyond the 16-bit type's error")


def test_fp16_halves_the_weights(compile_tool, model, tmp_path):
    fp32 = S.compile_model(compile_tool, model, tmp_path / "a.otsa")
    fp16 = S.compile_model(compile_tool, model, tmp_path / "b.otsa",
                           "--precision=fp16")
    assert fp32.returncode == 0, f"compiling failed{S.describe(fp32)}"
    assert fp16.returncode == 0, f"compiling failed{S.describe(fp16)}"
    # The int64 reshape target is folded away; every weight is f32.
    assert weight_bytes(fp16) * 2 == pytest.approx(weight_bytes(fp32),
                                                   rel=0.05)


def test_fp32_default_unchanged(compile_tool, run_tool, model, feeds,
                                tmp_path):
    _, default, got = S.compile_and_run(compile_tool, run_tool, model, feeds,
                                        tmp_path, outputs=("ln", "y"))
    explicit = tmp_path / "fp32.otsa"
    proc = S.compile_model(compile_tool, model, explicit, "--precision=fp32")
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    # The same program; only the recorded options differ.
    assert S.content_hash(run_tool, explicit) == \
        S.content_hash(run_tool, default), (
        "--precision=fp32 gives another artifact than the default")
    for name, ref in S.onnxruntime_outputs(model, feeds).items():
        np.testing.assert_allclose(
            got[name], ref, rtol=S.RTOL, atol=S.ATOL,
            err_msg=f"fp32: output {name!r} differs from onnxruntime")


def test_bf16_on_vulkan_is_refused(compile_tool, model, tmp_path):
    proc = S.call([compile_tool, model, "--target=vulkan",
                   "--precision=bf16", "-o", tmp_path / "a.otsa"])
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, r"bf16", "the precision")
    assert_mentions(proc, r"--target=cuda", "the way out")
    assert not (tmp_path / "a.otsa").exists()
