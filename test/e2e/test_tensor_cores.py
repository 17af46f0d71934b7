"""--precision=fp16 and tf32 on the shapes the tensor-core kernels handle
(CUDA), and fp32 on the same kernel's tiles on CUDA cores (every target):
matmuls with full and cut row tiles and batched operands, convolutions as
implicit GEMMs with padding, strides, dilations and a cut last tile. Each
model's CUDA code is checked to use them (compiled here, whatever the
target), and its outputs on the test target match onnxruntime's fp32 within
each precision's error (on Vulkan the fp16 models run the scalar fp16
kernels; tf32 is CUDA only)."""
import numpy as np
import onnx
import pytest

import e2e_support as S

# fp16 keeps 11 significant bits (each rounding within 2^-11 ~ 4.9e-4
# relative); inputs and weights are rounded once, products are exact in f32
# and K <= 3072 of them are summed in f32. Weights scaled by 1/sqrt(K) keep
# outputs of order one; the largest error measured (lavapipe) was 3.6e-3
# on outputs up to 12.5. 1e-2 (as test_precision.py) leaves room, while a
# wrong tile, row or filter position is off by the size of the outputs
# themselves. tf32 keeps the same 10 explicit mantissa bits as fp16 (and
# f32's range), so the same bound.
# fp32 on CUDA cores sums the same products as onnxruntime in another
# order (and split K in slices): K <= 3072 roundings of 2^-24 relative
# each, on sums of order one, grow like sqrt(K) x 2^-24 (~3e-6); the
# largest error measured (lavapipe) was 2.4e-6. 1e-4 leaves room, while a
# wrong element is off by the output's own size.
TOLERANCE = {"fp16": 1e-2, "tf32": 1e-2, "fp32": 1e-4}
# The PTX instruction each precision's kernels must use: fp16 GEMMs use
# warpgroup MMA (the default sm_90a target; see test_warpgroup_mma.py),
# GEMVs and convolutions whose tiles leave the GPU idle WMMA.
MMA = {"fp16": ("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32",
                "wgmma.mma_async.sync.aligned.m64n"),
       "tf32": ("wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32",)}


def matmul(name, a_shape, b_shape, weight=True):
    g = S.make_models.Graph(name)
    a = g.input("a", a_shape)
    b = (g.weight("b", b_shape, scale=1 / np.sqrt(b_shape[-2]))
         if weight else g.input("b", b_shape))
    g.output(g.node("MatMul", [a, b], outputs=["y"]))
    return g.model()


def conv(name, x_shape, w_shape, **attrs):
    g = S.make_models.Graph(name)
    x = g.input("x", x_shape)
    w = g.weight("w", w_shape)  # scaled by 1/sqrt(C*KH*KW)
    bias = g.weight("bias", [w_shape[0]], scale=1.0)
    g.output(g.node("Conv", [x, w, bias], outputs=["y"], **attrs))
    return g.model()


def matmul_bias_relu(name, a_shape, b_shape):
    """MatMul, Add and Relu: the tensor-core kernel's epilogue."""
    g = S.make_models.Graph(name)
    a = g.input("a", a_shape)
    b = g.weight("b", b_shape, scale=1 / np.sqrt(b_shape[-2]))
    bias = g.weight("bias", [b_shape[-1]], scale=1.0)
    y = g.node("Add", [g.node("MatMul", [a, b]), bias])
    g.output(g.node("Relu", [y], outputs=["y"]))
    return g.model()


def conv_relu(name, x_shape, w_shape):
    g = S.make_models.Graph(name)
    x = g.input("x", x_shape)
    w = g.weight("w", w_shape)
    bias = g.weight("bias", [w_shape[0]], scale=1.0)
    g.output(g.node("Relu", [g.node("Conv", [x, w, bias])], outputs=["y"]))
    return g.model()


def attention(name, seq=128, heads=4, dim=64):
    """BERT's attention as exported from PyTorch: heads split by Reshape
    and Transpose, scores, Softmax, context, heads merged again."""
    g = S.make_models.Graph(name)
    hidden = heads * dim
    split = g.const("split", np.array([1, seq, heads, dim], np.int64))
    merge = g.const("merge", np.array([1, seq, hidden], np.int64))
    scale = g.const("scale", np.array(np.sqrt(dim), np.float32))

    def head_view(x, perm):
        return g.node("Transpose", [g.node("Reshape", [x, split])],
                      perm=perm)

    q = head_view(g.input("q", [1, seq, hidden]), [0, 2, 1, 3])
    k = head_view(g.input("k", [1, seq, hidden]), [0, 2, 3, 1])
    v = head_view(g.input("v", [1, seq, hidden]), [0, 2, 1, 3])
    scores = g.node("Div", [g.node("MatMul", [q, k]), scale])
    ctx = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
    g.output(g.node("Reshape",
                    [g.node("Transpose", [ctx], perm=[0, 2, 1, 3]), merge],
                    outputs=["y"]))
    return g.model()


def attention_qkv(name, batch=2, seq=128, heads=4, dim=64):
    """BERT's attention after one QKV projection: Q, K and V are the
    thirds of each row of one tensor (slices of it), split into heads as in
    attention(). The kernels read the heads where they are, in place of the
    transposes (Q, V and the merged context on every target, K on warpgroup
    MMA's K-major B tiles)."""
    g = S.make_models.Graph(name)
    hidden = heads * dim
    split = g.const("split", np.array([batch, seq, heads, dim], np.int64))
    merge = g.const("merge", np.array([batch, seq, hidden], np.int64))
    scale = g.const("scale", np.array(np.sqrt(dim), np.float32))
    axis = g.const("axis", np.array([2], np.int64))
    qkv = g.input("qkv", [batch, seq, 3 * hidden])

    def head_view(third, perm):
        start = g.const(f"start{third}", np.array([third * hidden], np.int64))
        end = g.const(f"end{third}",
                      np.array([(third + 1) * hidden], np.int64))
        x = g.node("Slice", [qkv, start, end, axis])
        return g.node("Transpose", [g.node("Reshape", [x, split])],
                      perm=perm)

    q = head_view(0, [0, 2, 1, 3])
    k = head_view(1, [0, 2, 3, 1])
    v = head_view(2, [0, 2, 1, 3])
    scores = g.node("Div", [g.node("MatMul", [q, k]), scale])
    ctx = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
    merged = g.node("Reshape",
                    [g.node("Transpose", [ctx], perm=[0, 2, 1, 3]), merge])
    # The output projection reads the merged heads.
    w = g.weight("w", [hidden, hidden], scale=1 / np.sqrt(hidden))
    g.output(g.node("MatMul", [merged, w], outputs=["y"]))
    return g.model()


MODELS = {
    # 1024 rows of 768: 64x64 tiles, enough blocks to fill the GPU.
    "mm_big": lambda n: matmul(n, [8, 128, 128], [128, 768]),
    # 40 rows: the second 32-row tile is cut.
    "mm_cut_rows": lambda n: matmul(n, [40, 64], [64, 96]),
    # Both operands inputs, 12 batches (attention scores).
    "bmm": lambda n: matmul(n, [12, 128, 64], [12, 64, 128], weight=False),
    # 3x3, padding 1, 14x14 = 196 output pixels (cut tile), bias in C.
    "conv3x3": lambda n: conv(n, [1, 64, 14, 14], [128, 64, 3, 3],
                              pads=[1, 1, 1, 1]),
    # 1x1 with stride 2 (a ResNet downsampling branch), batch 2.
    "conv1x1_s2": lambda n: conv(n, [2, 64, 16, 16], [64, 64, 1, 1],
                                 strides=[2, 2]),
    # 2048x1152: 128x128 tiles with an epilogue, C staged one warp row at a
    # time (fp32: bias and ReLU; fp16: the rounding to f16 — the 2-D
    # MatMul's bias comes after a reshape that elementwise fusion does not
    # cross, and stays an op of its own).
    "mm_large_epilogue": lambda n: matmul_bias_relu(n, [2048, 256],
                                                    [256, 1152]),
    # 9000 output pixels of 256 channels: 128x128 tiles, the last one cut,
    # the bias in the kernel (the ReLU follows the layout transpose back to
    # NCHW here).
    "conv1x1_large_cut": lambda n: conv_relu(n, [10, 64, 30, 30],
                                             [256, 64, 1, 1]),
    # Scores and context as contractions over [batch, heads].
    "attention": lambda n: attention(n),
    # The same from one QKV tensor, batch 2, with the output projection.
    "attention_qkv": lambda n: attention_qkv(n),
    # 128 rows and 768 columns fill too few blocks for K = 3072: K is split
    # into slices whose partial products a second kernel sums, applying
    # the epilogue (BERT's FFN down projection at batch 1).
    "mm_split_k": lambda n: matmul_bias_relu(n, [128, 3072], [3072, 768]),
    # On Vulkan: 36 tiles of 128x128 and K = 2048 (64 steps), K split into
    # 2 slices (chooseSpirvTiling); elsewhere 64x64 or 64x128 tiles.
    "mm_split_k_tiles128": lambda n: matmul(n, [6, 128, 2048], [2048, 768]),
    # A network's first convolution: 7x7 over RGB (3 channels, K = 147),
    # stride 2, padding 3: A read element by element, K's last step cut.
    "conv_rgb": lambda n: conv(n, [1, 3, 64, 64], [64, 3, 7, 7],
                               strides=[2, 2], pads=[3, 3, 3, 3]),
    # A classifier: 100 rows, K = 200 and N = 1000, none a multiple of the
    # tile: row, column and K edges.
    "mm_ragged": lambda n: matmul_bias_relu(n, [100, 200], [200, 1000]),
    # One row against 2048 x 1000 (ResNet-50's classifier at batch 1): K
    # split, the last column tile cut.
    "gemv_split_k": lambda n: matmul(n, [1, 2048], [2048, 1000]),
    # Dilation 2 and no padding.
    "conv_dilated": lambda n: conv(n, [1, 32, 20, 20], [64, 32, 3, 3],
                                   dilations=[2, 2]),
}


def saved_model(tmp_path_factory, name, build):
    """Saves build(name), a model, as NAME.onnx in a directory of its own."""
    path = tmp_path_factory.mktemp(name) / f"{name}.onnx"
    onnx.save_model(build(name), path)
    return path


@pytest.fixture(scope="module", params=sorted(MODELS))
def model(request, tmp_path_factory):
    return saved_model(tmp_path_factory, request.param, MODELS[request.param])


@pytest.mark.parametrize("precision", sorted(MMA))
def test_cuda_code_uses_tensor_cores(compile_tool, model, tmp_path,
                                     precision):
    ptx = tmp_path / "model.ptx"
    proc = S.call([compile_tool, model, "--target=cuda",
                   f"--precision={precision}", "--emit=ptx", "-o", ptx])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    text = ptx.read_text()
    assert any(mma in text for mma in MMA[precision]), \
        "no tensor-core instruction in the PTX"
    # And none in fp32: the f32 model keeps its scalar kernels.
    proc = S.call([compile_tool, model, "--target=cuda", "--emit=ptx", "-o",
                   ptx])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    assert "wmma" not in ptx.read_text()


def test_f32_cuda_code_uses_tiles(compile_tool, model, tmp_path):
    """fp32: the tiled kernel on CUDA cores, which reads 4-float vectors of
    the staged tiles from shared memory and multiplies with fused
    multiply-adds."""
    ptx = tmp_path / "model.ptx"
    proc = S.call([compile_tool, model, "--target=cuda", "--emit=ptx", "-o",
                   ptx])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    text = ptx.read_text()
    assert "ld.shared.v4" in text and "fma.rn.f32" in text, \
        "no tiled CUDA-core kernel in the PTX"


def check_against_onnxruntime(compile_tool, run_tool, model, tmp_path,
                              precision, *flags):
    """Compiles `model` at `precision` (and with `flags`), runs it on the
    test target and compares its output y with onnxruntime's fp32 within
    TOLERANCE."""
    feeds = S.make_models.make_inputs(onnx.load(model),
                                      S.make_models.name_seed(model.stem))
    _, _, outputs = S.compile_and_run(compile_tool, run_tool, model, feeds,
                                      tmp_path, f"--precision={precision}",
                                      *flags)
    ref = S.onnxruntime_outputs(model, feeds)["y"]
    got = outputs["y"]
    assert got.shape == ref.shape
    tol = TOLERANCE[precision]
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol,
                               err_msg=f"{model.stem}: {precision} differs "
                               "from onnxruntime beyond its error")


@pytest.mark.parametrize("precision", sorted(TOLERANCE))
def test_matches_onnxruntime(compile_tool, run_tool, model, tmp_path,
                             precision):
    if precision == "tf32" and S.TARGET != "cuda":
        pytest.skip("tf32 runs on the CUDA target only")
    check_against_onnxruntime(compile_tool, run_tool, model, tmp_path,
                              precision)
