"""fp16 GEMMs on Hopper's warpgroup MMA (wgmma.mma_async, on
--target=cuda:sm_90a): matmuls and convolutions, with
each of the rule's tilings (128x128, 64x128, 64x64), cut row, column and
K tiles, a split K, batches, an epilogue (staged through workgroup memory,
8 columns per thread), and C starting from a convolution's bias; and every
tile shape --gemm-tiling can force (64 to 256 rows and columns). The PTX is checked here on every machine; the outputs
are compared with onnxruntime's fp32 on the CUDA target only (other targets
do not run this kernel)."""
import re

import pytest

import e2e_support as S
# Outputs are checked within test_tensor_cores.py's fp16 bound: inputs and
# weights rounded to fp16 once (2^-11 relative), products summed in f32
# (K <= 4096 here); a wrong tile, row or K step is off by the size of the
# outputs themselves.
from test_tensor_cores import (check_against_onnxruntime, conv, conv_relu,
                               matmul, matmul_bias_relu, saved_model)

def matmul_transposed_b(name, a_shape, b_shape):
    """A x B^T with B an input [batch, N, K] (attention's Q K^T): the kernel
    reads B K-major where the transpose would have read it."""
    g = S.make_models.Graph(name)
    a = g.input("a", a_shape)
    bt = g.node("Transpose", [g.input("b", b_shape)], perm=[0, 2, 1])
    g.output(g.node("MatMul", [a, bt], outputs=["y"]))
    return g.model()


# name: (model, the instruction's N, i.e. the tiling's columns)
MODELS = {
    # 4096 x 1152 in 128x128 tiles (two blocks per multiprocessor), nothing
    # cut; K = 512 (8 steps).
    "wg_128x128": (lambda n: matmul(n, [4096, 512], [512, 1152]), 128),
    # 64x128 tiles with rows, columns and K all cut (2000, 1160, 200 = 3
    # steps and 8), bias and ReLU applied from the accumulators.
    "wg_ragged_epilogue": (lambda n: matmul_bias_relu(n, [2000, 200],
                                                      [200, 1160]), 128),
    # 256 x 512 in 64x64 tiles is 32 blocks for K = 4096: 4 slices, a
    # second kernel sums them and applies the epilogue.
    "wg_split_k": (lambda n: matmul_bias_relu(n, [256, 4096],
                                              [4096, 512]), 64),
    # 1024 x 1536 in 64x64 tiles: 384 blocks, where 64x128 would be 192
    # (fewer than two per multiprocessor).
    "wg_64x64": (lambda n: matmul(n, [1024, 768], [768, 1536]), 64),
    # BERT's attention output projection at batch 8: 64x128 tiles, one
    # round of 96 blocks where 64x64 would take two (192).
    "wg_n768": (lambda n: matmul(n, [1024, 768], [768, 768]), 128),
    # Both operands inputs, 12 batches of one K step: 64x128 tiles (96
    # blocks) by the same rule.
    "wg_batched": (lambda n: matmul(n, [12, 256, 64], [12, 64, 256],
                                    weight=False), 128),
    # B transposed, read K-major: rows, columns and K all cut (130, 200,
    # 72 = two steps, the second of 8), 3 batches, 64x64 tiles.
    "wg_transposed_b": (lambda n: matmul_transposed_b(n, [3, 130, 72],
                                                      [3, 200, 72]), 64),
    # 3x3 convolution, padding 1, 25088 output pixels in 64x128 tiles: C
    # starts from the bias, ReLU after it.
    "wg_conv3x3": (lambda n: conv_relu(n, [32, 64, 28, 28],
                                       [128, 64, 3, 3]), 128),
    # An image's 3 channels, 7x7 stride 2 (ResNet-50's stem at batch 16):
    # padded to 8 zero channels so that A's vectors are whole; 16384 output
    # pixels in 64x64 tiles.
    "wg_conv_3_channels": (lambda n: conv(n, [16, 3, 64, 64], [64, 3, 7, 7],
                                          strides=[2, 2], pads=[3, 3, 3, 3]),
                           64),
    # 9000 output pixels in 64x64 tiles (the last row tile cut) starting
    # from the bias, stride 2.
    "wg_conv_cut": (lambda n: conv(n, [10, 64, 60, 60], [128, 64, 3, 3],
                                   strides=[2, 2], pads=[1, 1, 1, 1]), 64),
}


@pytest.fixture(scope="module", params=sorted(MODELS))
def model(request, tmp_path_factory):
    return saved_model(tmp_path_factory, request.param,
                       MODELS[request.param][0])


def test_ptx_uses_warpgroup_mma(compile_tool, model, tmp_path):
    ptx = tmp_path / "model.ptx"
    proc = S.call([compile_tool, model, "--target=cuda:sm_90a",
                   "--precision=fp16",
                   "--emit=ptx", "-o", ptx])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    text = ptx.read_text()
    n = MODELS[model.stem][1]
    assert (f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16"
            in text), "no warpgroup MMA of the expected shape in the PTX"
    # Dynamic shared memory, declared as PTX's external array.
    assert re.search(r"\.extern \.shared .*\[\];", text)
    # And the WMMA kernel without it, or for sm_90 (no warpgroup MMA there).
    for flags in (["--target=cuda:sm_90a", "--warpgroup-mma=false"],
                  ["--target=cuda:sm_90"]):
        proc = S.call([compile_tool, model, "--precision=fp16",
                       "--emit=ptx", "-o", ptx, *flags])
        assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
        text = ptx.read_text()
        assert "wgmma" not in text and "wmma.mma.sync" in text, flags


def test_transposed_b_read_k_major(compile_tool, tmp_path_factory, tmp_path):
    """The transpose is no kernel of its own: wgmma reads B K-major (its
    last immediate, imm-trans-b, 0 where N-major B has 1)."""
    model = saved_model(tmp_path_factory, "wg_transposed_b",
                        MODELS["wg_transposed_b"][0])
    ptx = tmp_path / "model.ptx"
    proc = S.call([compile_tool, model, "--target=cuda:sm_90a",
                   "--precision=fp16",
                   "--emit=ptx", "-o", ptx])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    # scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b.
    wgmma = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32"
                       r"\.f16\.f16 [^;]*p,\s*1,\s*1,\s*(\d),\s*(\d);",
                       ptx.read_text())
    assert wgmma and all(t == ("0", "0") for t in wgmma), wgmma
    # The casts of A and B to f16 and the GEMM: no transpose kernel.
    assert ptx.read_text().count(".entry") == 3


def test_matches_onnxruntime(compile_tool, run_tool, model, tmp_path):
    if S.TARGET != "cuda":
        pytest.skip("warpgroup MMA runs on the CUDA target only")
    check_against_onnxruntime(compile_tool, run_tool, model, tmp_path, "fp16")


# Every tile shape the kernel can be given (--gemm-tiling, tuning
# experiments), on rows, columns and K that none of them divides (and a
# convolution starting from its bias): wgmma's N up to 256 and up to four
# warpgroups per block (256 rows) must all index the same C.
FORCED = ["wg64x64", "wg128x64", "wg64x128", "wg128x128", "wg64x192",
          "wg128x192", "wg64x256", "wg128x256", "wg192x192", "wg256x128"]
FORCED_MODELS = {"wg_ragged_epilogue": MODELS["wg_ragged_epilogue"][0],
                 "wg_conv_cut": MODELS["wg_conv_cut"][0],
                 "wg_transposed_b": MODELS["wg_transposed_b"][0]}


@pytest.fixture(scope="module", params=sorted(FORCED_MODELS))
def forced_model(request, tmp_path_factory):
    return saved_model(tmp_path_factory, request.param,
                       FORCED_MODELS[request.param])


@pytest.mark.parametrize("tiling", FORCED)
def test_forced_tiling_ptx(compile_tool, forced_model, tmp_path, tiling):
    ptx = tmp_path / "model.ptx"
    proc = S.call([compile_tool, forced_model, "--target=cuda:sm_90a",
                   "--precision=fp16", "--emit=ptx", "-o", ptx,
                   f"--gemm-tiling={tiling}"])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    n = tiling.split("x")[1]
    assert (f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16"
            in ptx.read_text()), f"{tiling}: no m64n{n}k16 in the PTX"


@pytest.mark.parametrize("tiling", FORCED)
def test_forced_tiling_matches_onnxruntime(compile_tool, run_tool,
                                           forced_model, tmp_path, tiling):
    if S.TARGET != "cuda":
        pytest.skip("warpgroup MMA runs on the CUDA target only")
    check_against_onnxruntime(compile_tool, run_tool, forced_model, tmp_path,
                              "fp16", f"--gemm-tiling={tiling}")
