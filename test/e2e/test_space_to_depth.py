"""onnx-tosa-pad-conv-channels turns a stride-2 f16 CONV2D over fewer than
8 channels into a stride-1 one over the input's space-to-depth. Both forms
are evaluated by onnx-tosa-eval (the TOSA reference evaluator, fp64
without intermediate rounding), which must give the same outputs: every
product of the original is in the rewrite once, at the tap and channel it
was moved to. Runs on every machine (no GPU: the rewrite only happens on
CUDA's tensor-core path, where the GPU tests check the values)."""
import numpy as np
import pytest

import e2e_support as S

# n, h, w, c, filters, kh, kw, padding (top, bottom, left, right): a stem,
# odd sizes, a 3x3, a rectangular filter, asymmetric and no padding.
CASES = [(1, 20, 22, 3, 8, 7, 7, (3, 4, 3, 4)),
         (2, 21, 17, 3, 4, 3, 3, (1, 1, 1, 1)),
         (1, 16, 16, 1, 8, 5, 4, (2, 1, 1, 3)),
         (1, 9, 12, 2, 8, 2, 2, (0, 1, 0, 0)),
         (1, 11, 11, 5, 8, 3, 3, (0, 2, 0, 0))]


def dense(a):
    return "dense<" + np.array2string(
        a.astype(np.float32), separator=", ", threshold=a.size + 1,
        max_line_width=1 << 30, floatmode="unique") + ">"


def conv_function(x_shape, weights, bias, pad, out_shape):
    t = lambda shape: "tensor<" + "x".join(map(str, shape)) + "xf16>"
    w, b, x, y = t(weights.shape), t(bias.shape), t(x_shape), t(out_shape)
    return f"""func.func @main(%x: {x}) -> {y} {{
  %w = "tosa.const"() <{{values = {dense(weights)} : {w}}}> : () -> {w}
  %b = "tosa.const"() <{{values = {dense(bias)} : {b}}}> : () -> {b}
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf16>}}> : () -> tensor<1xf16>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: {", ".join(map(str, pad))}>, stride = array<i64: 2, 2>}} : ({x}, {w}, {b}, tensor<1xf16>, tensor<1xf16>) -> {y}
  return %y : {y}
}}
"""


def evaluate(eval_tool, source, x, out_dir):
    out_dir.mkdir()
    proc = S.call([eval_tool, source, f"--input=input0={x}",
                   f"--output-dir={out_dir}", "--no-intermediate-rounding"])
    assert proc.returncode == 0, f"evaluating failed{S.describe(proc)}"
    (result,) = out_dir.glob("*.npy")
    return np.load(result)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[:7])))
def test_space_to_depth_keeps_the_outputs(case, tmp_path):
    opt, eval_tool = S.tool_path("onnx-tosa-opt"), S.tool_path("onnx-tosa-eval")
    n, h, w, c, filters, kh, kw, pad = case
    oh = (h + pad[0] + pad[1] - kh) // 2 + 1
    ow = (w + pad[2] + pad[3] - kw) // 2 + 1
    rng = np.random.default_rng(CASES.index(case))
    weights = rng.uniform(-1, 1, (filters, kh, kw, c)).astype(np.float16)
    bias = rng.uniform(-1, 1, (filters,)).astype(np.float16)
    x = tmp_path / "x.npy"
    np.save(x, rng.uniform(-1, 1, (n, h, w, c)).astype(np.float16))
    original = tmp_path / "original.mlir"
    original.write_text(conv_function((n, h, w, c), weights, bias, pad,
                                      (n, oh, ow, filters)))
    rewritten = tmp_path / "rewritten.mlir"
    proc = S.call([opt, original, "--onnx-tosa-pad-conv-channels", "-o",
                   rewritten])
    assert proc.returncode == 0, f"the rewrite failed{S.describe(proc)}"
    assert "tosa.transpose" in rewritten.read_text(), "not rewritten"
    expected = evaluate(eval_tool, original, x, tmp_path / "a")
    got = evaluate(eval_tool, rewritten, x, tmp_path / "b")
    assert got.shape == expected.shape
    # Sums of the same f16 products in fp64: exact in either order.
    np.testing.assert_array_equal(got, expected)
