"""--freeze-input: a model that passes axes at run time, which TOSA needs at
compile time, compiles once the input is frozen to one value; the artifact
then checks that value on every run."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S
from e2e_support import assert_clean_error, assert_mentions

DATA_SHAPE = [3, 4, 5]


@pytest.fixture(scope="module")
def reduce_model(tmp_path_factory):
    """reduced = ReduceSum(data, axes) with `axes` a graph input."""
    d = tmp_path_factory.mktemp("freeze")
    node = helper.make_node("ReduceSum", ["data", "axes"], ["reduced"],
                            name="sum_node", keepdims=0)
    graph = helper.make_graph(
        [node], "freeze",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, DATA_SHAPE),
         helper.make_tensor_value_info("axes", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("reduced", TensorProto.FLOAT, None)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path = d / "reduce.onnx"
    onnx.save_model(model, path)
    return path


def save(tmp_path, name, array):
    path = tmp_path / f"{name}.npy"
    np.save(path, array)
    return path


def test_unfrozen_names_the_input_to_freeze(compile_tool, reduce_model,
                                            tmp_path):
    proc = S.compile_model(compile_tool, reduce_model, tmp_path / "a.otsa")
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, r"sum_node", "the node")
    assert_mentions(proc, r"--freeze-input axes=FILE\.npy", "the hint")


@pytest.fixture(scope="module")
def frozen_artifact(compile_tool, reduce_model, tmp_path_factory):
    d = tmp_path_factory.mktemp("frozen")
    axes = np.array([0, -1], dtype=np.int64)
    axes_path = save(d, "axes", axes)
    artifact = d / "reduce.otsa"
    proc = S.compile_model(compile_tool, reduce_model, artifact,
                           f"--freeze-input=axes={axes_path}")
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    return artifact, axes, axes_path


def test_frozen_matches_onnxruntime(run_tool, reduce_model, frozen_artifact,
                                    tmp_path):
    artifact, axes, axes_path = frozen_artifact
    data = np.random.default_rng(5).uniform(-1, 1, DATA_SHAPE).astype(
        np.float32)
    proc = S.run_artifact(run_tool, artifact,
                          {"data": save(tmp_path, "data", data),
                           "axes": axes_path}, tmp_path)
    assert proc.returncode == 0, f"run failed{S.describe(proc)}"
    want = S.onnxruntime_outputs(reduce_model, {"data": data, "axes": axes})
    got = np.load(tmp_path / "reduced.npy")
    assert got.shape == (4,)
    np.testing.assert_allclose(got, want["reduced"], rtol=S.RTOL, atol=S.ATOL)


def test_frozen_input_may_be_left_out(run_tool, frozen_artifact, tmp_path):
    artifact, _, _ = frozen_artifact
    data = np.ones(DATA_SHAPE, dtype=np.float32)
    proc = S.run_artifact(run_tool, artifact,
                          {"data": save(tmp_path, "data", data)}, tmp_path)
    assert proc.returncode == 0, f"run failed{S.describe(proc)}"
    np.testing.assert_array_equal(np.load(tmp_path / "reduced.npy"),
                                  np.full([4], 15, dtype=np.float32))


@pytest.mark.parametrize("other", [np.array([0, 1], dtype=np.int64),
                                   np.array([0], dtype=np.int64),
                                   np.array([0, -1], dtype=np.int32)],
                         ids=["other-value", "other-shape", "other-dtype"])
def test_other_value_is_refused(run_tool, frozen_artifact, tmp_path, other):
    artifact, _, _ = frozen_artifact
    data = np.ones(DATA_SHAPE, dtype=np.float32)
    proc = S.run_artifact(run_tool, artifact,
                          {"data": save(tmp_path, "data", data),
                           "axes": save(tmp_path, "axes", other)}, tmp_path)
    assert_clean_error(proc, S.RUN, exit_code=1)
    assert_mentions(proc, r"'axes' was frozen", "the frozen input")


@pytest.mark.parametrize("name,value,pattern", [
    ("axes", np.array([0, 1], dtype=np.int32), r"element type i32.*i64"),
    ("axes", np.array([0, 1, 2], dtype=np.int64), r"shape \[3\].*\[2\]"),
    ("nosuch", np.array([0], dtype=np.int64), r"'nosuch'.*not a graph input"),
])
def test_bad_freeze_is_a_clean_error(compile_tool, reduce_model, tmp_path,
                                     name, value, pattern):
    path = save(tmp_path, "value", value)
    proc = S.compile_model(compile_tool, reduce_model, tmp_path / "a.otsa",
                           f"--freeze-input={name}={path}")
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, pattern, "the mismatch")
