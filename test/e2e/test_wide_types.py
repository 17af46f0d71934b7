"""int64, uint64 and float64 inputs are computed in 32 bits (docs/types.md):
values that survive that run and match onnxruntime; values that do not are
refused with a message naming the input, the value and where it is, never
computed with silently."""
import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S


def add_one_model(tmp_path, elem, passthrough=False):
    """y = x + 1, and (passthrough) z = x unchanged."""
    one = helper.make_tensor("one", elem, [1], [1])
    nodes = [helper.make_node("Add", ["x", "one"], ["y"], name="add_one")]
    outputs = [helper.make_tensor_value_info("y", elem, [3])]
    if passthrough:
        nodes.append(helper.make_node("Identity", ["x"], ["z"]))
        outputs.append(helper.make_tensor_value_info("z", elem, [3]))
    graph = helper.make_graph(nodes, "wide",
                              [helper.make_tensor_value_info("x", elem, [3])],
                              outputs, initializer=[one])
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 14)]),
        path)
    return path


@pytest.mark.parametrize("elem, dtype, fits, too_wide, where", [
    (TensorProto.INT64, np.int64, [-5, 2**31 - 2, 7], [1, 3_000_000_000, 2],
     r"3000000000 at \[1\]"),
    (TensorProto.DOUBLE, np.float64, [0.5, -1e30, 3e38], [1.0, 2.0, -1e300],
     r"-1e\+300 at \[2\]"),
], ids=["int64", "float64"])
def test_values_that_do_not_fit_are_refused(compile_tool, run_tool, tmp_path,
                                            elem, dtype, fits, too_wide,
                                            where):
    path = add_one_model(tmp_path, elem)
    x = np.array(fits, dtype)
    _, artifact, got = S.compile_and_run(compile_tool, run_tool, path,
                                         {"x": x}, tmp_path)
    want = S.onnxruntime_outputs(path, {"x": x})["y"]
    np.testing.assert_allclose(got["y"], want, rtol=1e-6)
    inspect = S.call([run_tool, "--inspect", artifact])
    assert re.search(r"input:\s+x \w+ \[3\] \(computed in 32 bits\)",
                     inspect.stdout), S.describe(inspect)

    run = S.run_artifact(run_tool, artifact,
                         S.save_inputs({"x": np.array(too_wide, dtype)},
                                       tmp_path / "wide"), tmp_path)
    S.assert_clean_error(run, S.RUN)
    S.assert_mentions(run, r"input 'x' holds " + where, "the input and value")
    S.assert_mentions(run, "computed as (int32|float32)", "the rule")


def test_passed_through_input_keeps_its_values(compile_tool, run_tool,
                                               tmp_path):
    """An int64 input that is only passed through to an output is not
    computed with: large values are accepted and come back exactly."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["z"])], "passthrough",
        [helper.make_tensor_value_info("x", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("z", TensorProto.INT64, [2])])
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 14)]),
        path)
    x = np.array([3_000_000_000, -2**40], np.int64)
    _, _, got = S.compile_and_run(compile_tool, run_tool, path, {"x": x},
                                  tmp_path)
    np.testing.assert_array_equal(got["z"], x)
