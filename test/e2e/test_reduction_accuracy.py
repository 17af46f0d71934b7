"""Long float32 sums are accumulated in pieces, not element after element:
a sum over rows of 4097 (a length no split ratio divides) had 13 times
onnxruntime's error when one thread summed each row in order."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceMean"])
def test_long_sum_is_accumulated_in_pieces(compile_tool, run_tool, tmp_path,
                                           op):
    rows, n = 4, 4097
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], keepdims=0, axes=[1])], "sum",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, n])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows])])
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 12)]),
        path)
    x = np.random.default_rng(0).uniform(0, 1, (rows, n)).astype(np.float32)
    _, _, got = S.compile_and_run(compile_tool, run_tool, path, {"x": x},
                                  tmp_path)
    exact = x.astype(np.float64).sum(1)
    if op == "ReduceMean":
        exact /= n
    error = np.abs(got["y"] - exact).max() / np.abs(exact).max()
    # In order, float32 loses about 2.4e-6 here (numpy's cumulative sum
    # gives the same); onnxruntime 1.8e-7; pieces of 65 then 64 partial
    # sums about 1e-7. The bound sits between.
    assert error < 5e-7, error
