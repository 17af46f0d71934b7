"""Row reductions (ReduceMax/Min/Sum, Softmax, LayerNormalization) whose
threads combine their partial results with subgroup operations (the
default: warp shuffles on CUDA, SPIR-V group operations on Vulkan) and, with
--subgroup-reduce=false, by a tree in workgroup memory. Both agree with
onnxruntime; NaNs reach ReduceMax/ReduceMin's results as the TOSA
specification's default NaN mode (PROPAGATE) says, which SPIR-V's group
FMax/FMin alone would not do; a Vulkan device without subgroup operations
refuses the first artifact with an error that says what to do."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S

ROWS = 6
# Threads per row: 128 (640 = 128 x 5), 256 (4096 = 256 x 16), 32 (32 and
# 96: one CUDA warp, several subgroups on lavapipe's 8 lanes).
WIDE, LONG, NARROW, INTS = 640, 4096, 32, 96


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    d = tmp_path_factory.mktemp("subgroup_reduce")
    vi = helper.make_tensor_value_info
    f32, i32 = TensorProto.FLOAT, TensorProto.INT32
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
    scale = helper.make_tensor(
        "scale", f32, [WIDE], np.linspace(0.5, 1.5, WIDE, dtype=np.float32))
    bias = helper.make_tensor(
        "bias", f32, [WIDE], np.linspace(-1, 1, WIDE, dtype=np.float32))
    node = helper.make_node
    g = helper.make_graph(
        [node("ReduceMax", ["x"], ["max"], axes=[1], name="max"),
         node("ReduceMin", ["x"], ["min"], axes=[1], name="min"),
         node("ReduceSum", ["x", "axes"], ["sum"], name="sum"),
         node("Softmax", ["long"], ["softmax"], axis=1, name="softmax"),
         node("Softmax", ["narrow"], ["softmax32"], axis=1,
              name="softmax32"),
         node("LayerNormalization", ["x", "scale", "bias"], ["norm"],
              axis=1, epsilon=1e-5, name="norm"),
         node("ReduceMax", ["ints"], ["imax"], axes=[1], name="imax"),
         node("ReduceSum", ["ints", "axes"], ["isum"], name="isum")],
        "subgroup_reduce",
        [vi("x", f32, [ROWS, WIDE]), vi("long", f32, [ROWS, LONG]),
         vi("narrow", f32, [ROWS, NARROW]), vi("ints", i32, [ROWS, INTS])],
        [vi("max", f32, [ROWS, 1]), vi("min", f32, [ROWS, 1]),
         vi("sum", f32, [ROWS]), vi("softmax", f32, [ROWS, LONG]),
         vi("softmax32", f32, [ROWS, NARROW]), vi("norm", f32, [ROWS, WIDE]),
         vi("imax", i32, [ROWS, 1]), vi("isum", i32, [ROWS])],
        [axes, scale, bias])
    g.node[2].attribute.extend([helper.make_attribute("keepdims", 0)])
    g.node[7].attribute.extend([helper.make_attribute("keepdims", 0)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    path = d / "subgroup_reduce.onnx"
    onnx.save_model(m, path)
    return path


def feeds(seed):
    rng = np.random.default_rng(seed)
    return {"x": rng.standard_normal((ROWS, WIDE), dtype=np.float32),
            "long": 4 * rng.standard_normal((ROWS, LONG), dtype=np.float32),
            "narrow": rng.standard_normal((ROWS, NARROW), dtype=np.float32),
            "ints": rng.integers(-1000, 1000, (ROWS, INTS), dtype=np.int32)}


@pytest.fixture(scope="module", params=["subgroups", "tree"])
def artifact(request, compile_tool, model, tmp_path_factory):
    d = tmp_path_factory.mktemp(request.param)
    extra = [] if request.param == "subgroups" else ["--subgroup-reduce=false"]
    gpu = d / "kernels.mlir"
    proc = S.call([compile_tool, model, f"--target={S.TARGET}",
                   "--emit=gpu", "-o", gpu, *extra])
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    # The path under test is the one taken.
    assert ("gpu.subgroup_reduce" in gpu.read_text()) == (
        request.param == "subgroups")
    path = d / "m.otsa"
    proc = S.compile_model(compile_tool, model, path, *extra)
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    return path


def run(run_tool, artifact, values, out_dir):
    inputs = S.save_inputs(values, out_dir / "in")
    proc = S.run_artifact(run_tool, artifact, inputs, out_dir, "--quiet")
    assert proc.returncode == 0, f"running failed{S.describe(proc)}"
    return {name: np.load(out_dir / f"{name}.npy")
            for name in ("max", "min", "sum", "softmax", "softmax32", "norm",
                         "imax", "isum")}


def test_matches_onnxruntime(run_tool, model, artifact, tmp_path):
    values = feeds(5)
    got = run(run_tool, artifact, values, tmp_path)
    ref = S.onnxruntime_outputs(model, values)
    for name in ("max", "min", "imax", "isum"):
        np.testing.assert_array_equal(got[name], ref[name], err_msg=name)
    for name in ("sum", "softmax", "softmax32", "norm"):
        # The threads add in another order than onnxruntime: f32 rounding.
        np.testing.assert_allclose(got[name], ref[name], rtol=S.RTOL,
                                   atol=S.ATOL, err_msg=name)


def test_nan_propagates(run_tool, artifact, tmp_path):
    values = feeds(6)
    x = values["x"]
    # NaN in the first lane of the first subgroup, the last lane of the
    # last, and one in between; rows 0, 2 and 5 have none.
    x[1, 0] = x[3, WIDE - 1] = x[4, 333] = np.nan
    got = run(run_tool, artifact, values, tmp_path)
    np.testing.assert_array_equal(got["max"].ravel(), x.max(axis=1))
    np.testing.assert_array_equal(got["min"].ravel(), x.min(axis=1))
    assert np.isnan(got["max"].ravel()).tolist() == [
        False, True, False, True, True, False]


def test_device_without_subgroups(run_tool, model, artifact, tmp_path):
    if S.TARGET != "vulkan":
        pytest.skip("a Vulkan device's subgroup operations")
    env = {"ONNX_TOSA_VULKAN_NO_SUBGROUPS": "1"}
    values = feeds(7)
    inputs = S.save_inputs(values, tmp_path / "in")
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path, "--quiet",
                          env=env)
    if "tree" in artifact.parent.name:
        assert proc.returncode == 0, f"running failed{S.describe(proc)}"
        ref = S.onnxruntime_outputs(model, values)
        np.testing.assert_array_equal(np.load(tmp_path / "max.npy"),
                                      ref["max"])
    else:
        S.assert_clean_error(proc, S.RUN)
        S.assert_mentions(proc, r"subgroup operations", "the missing feature")
        S.assert_mentions(proc, r"--subgroup-reduce=false", "the remedy")
