"""Attention as one kernel (warpgroup MMA, fp16, --target=cuda:sm_90a):
Q K^T, the softmax after it (with a scale and an additive mask, or
without either) and P V computed by one kernel whose scores and
probabilities never leave the chip; heads of 64 and 128, 64 to 256 keys,
queries fewer than keys, batches. The PTX is checked on every machine; outputs are
compared with onnxruntime's fp32 on the CUDA target only (other targets do
not run this kernel), fused and not (--fused-attention=false)."""
import re

import numpy as np
import pytest

import e2e_support as S
# fp16's bound of test_tensor_cores.py: inputs rounded to fp16 once, the
# scores and context accumulated in f32, the probabilities rounded to fp16
# (as the unfused kernels round them); a wrong row, key or head is off by
# the size of the outputs themselves.
from test_tensor_cores import check_against_onnxruntime, saved_model


def attention(name, batch=1, queries=128, keys=128, heads=4, dim=64,
              scale=True, mask=False):
    """Attention over inputs q [batch, queries, heads * dim] and k, v
    [batch, keys, heads * dim], heads split by Reshape and Transpose as
    PyTorch exports them; scores divided by sqrt(dim) (`scale`) and a mask
    [batch, keys] added to every head's rows (`mask`, as BERT's) before the
    Softmax."""
    g = S.make_models.Graph(name)
    hidden = heads * dim

    splits = {}

    def head_view(x, length, perm):
        if length not in splits:
            splits[length] = g.const(
                f"split{length}",
                np.array([batch, length, heads, dim], np.int64))
        split = splits[length]
        return g.node("Transpose", [g.node("Reshape", [x, split])],
                      perm=perm)

    q = head_view(g.input("q", [batch, queries, hidden]), queries,
                  [0, 2, 1, 3])
    k = head_view(g.input("k", [batch, keys, hidden]), keys, [0, 2, 3, 1])
    v = head_view(g.input("v", [batch, keys, hidden]), keys, [0, 2, 1, 3])
    scores = g.node("MatMul", [q, k])
    if scale:
        root = g.const("scale", np.array(np.sqrt(dim), np.float32))
        scores = g.node("Div", [scores, root])
    if mask:
        shape = g.const("mask_shape", np.array([batch, 1, 1, keys], np.int64))
        m = g.node("Reshape", [g.input("mask", [batch, keys]), shape])
        scores = g.node("Add", [scores, m])
    ctx = g.node("MatMul", [g.node("Softmax", [scores], axis=-1), v])
    merge = g.const("merge", np.array([batch, queries, hidden], np.int64))
    g.output(g.node("Reshape",
                    [g.node("Transpose", [ctx], perm=[0, 2, 1, 3]), merge],
                    outputs=["y"]))
    return g.model()


# name: (model, keys, fused)
MODELS = {
    # BERT's: 128 keys, a mask per batch, 2 batches of 4 heads.
    "fa_bert_mask": (lambda n: attention(n, batch=2, mask=True), 128, True),
    # One K step of keys; no scale (the scores' rounding to fp16 alone
    # before the softmax).
    "fa_keys64_unscaled": (lambda n: attention(n, queries=64, keys=64,
                                               scale=False), 64, True),
    # 3 steps of keys, 192 queries (3 blocks per head).
    "fa_keys192": (lambda n: attention(n, queries=192, keys=192), 192, True),
    # The most keys (wgmma's N up to 256), half as many queries, a mask.
    "fa_keys256_queries128": (lambda n: attention(n, batch=2, keys=256,
                                                  mask=True), 256, True),
    # Heads of 128: two K steps of Q K^T, P V 128 columns wide.
    "fa_head128": (lambda n: attention(n, heads=2, dim=128), 128, True),
    # Heads of 128 and 192 keys, a mask: the most accumulators a thread
    # may hold (96 of the scores, 64 of the context).
    "fa_head128_keys192": (lambda n: attention(n, keys=192, heads=2,
                                               dim=128, mask=True), 192,
                           True),
    # Heads of 32: not the kernel's (one K step of 64), three kernels.
    "fa_head32": (lambda n: attention(n, heads=8, dim=32), 128, False),
}


@pytest.fixture(scope="module", params=sorted(MODELS))
def model(request, tmp_path_factory):
    return saved_model(tmp_path_factory, request.param,
                       MODELS[request.param][0])


def ptx_of(compile_tool, model, path, *flags):
    proc = S.call([compile_tool, model, "--target=cuda:sm_90a",
                   "--precision=fp16",
                   "--emit=ptx", "-o", path, *flags])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    return path.read_text()


def test_one_kernel(compile_tool, model, tmp_path):
    """Fused, the scores GEMM (N = keys), the shuffles between a row's 4
    threads and the context GEMM (N = 64) are one kernel: two kernels fewer
    than without (the softmax's and the context's)."""
    _, keys, fused = MODELS[model.stem]
    fused_ptx = ptx_of(compile_tool, model, tmp_path / "fused.ptx")
    plain_ptx = ptx_of(compile_tool, model, tmp_path / "plain.ptx",
                       "--fused-attention=false")
    kernels = fused_ptx.count(".entry")
    if not fused:
        assert kernels == plain_ptx.count(".entry")
        return
    assert kernels == plain_ptx.count(".entry") - 2
    modules = fused_ptx.split("// ---- module")
    attention_kernel = [m for m in modules if "shfl.sync.bfly" in m]
    assert len(attention_kernel) == 1, "no kernel with the row shuffles"
    text = attention_kernel[0]
    wgmma = r"wgmma\.mma_async\.sync\.aligned\.m64n{}k16\.f32\.f16\.f16"
    assert re.search(wgmma.format(keys), text), f"no m64n{keys}k16"
    dim = 128 if "head128" in model.stem else 64
    assert re.search(wgmma.format(dim), text), f"no m64n{dim}k16 for P V"


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "plain"])
def test_matches_onnxruntime(compile_tool, run_tool, model, tmp_path, fused):
    if S.TARGET != "cuda":
        pytest.skip("warpgroup MMA runs on the CUDA target only")
    flags = [] if fused else ["--fused-attention=false"]
    check_against_onnxruntime(compile_tool, run_tool, model, tmp_path, "fp16",
                              *flags)
