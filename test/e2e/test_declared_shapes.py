"""Shapes a model declares in value_info that its computation does not have
(exporters leave them stale): an intermediate's computed shape wins, as in
onnxruntime; a graph output's declared shape is checked."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S


def reshape_model(declared_mid, declared_out):
    """x[2, 3] -> Reshape [3, 2] -> Relu -> y, with the reshape's value_info
    and the output declared as given."""
    shape = helper.make_tensor("shape", TensorProto.INT64, [2], [3, 2])
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["mid"], name="rs"),
             helper.make_node("Relu", ["mid"], ["y"], name="relu")]
    graph = helper.make_graph(
        nodes, "stale_value_info",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, declared_out)],
        initializer=[shape],
        value_info=[helper.make_tensor_value_info("mid", TensorProto.FLOAT,
                                                  declared_mid)])
    return helper.make_model(graph, ir_version=8,
                             opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("declared_mid", [[1, None], [6, 1], [3, 2, 1]],
                         ids=["stale_dim", "wrong_dims", "wrong_rank"])
def test_stale_intermediate_shape(compile_tool, run_tool, tmp_path,
                                  declared_mid):
    path = tmp_path / "model.onnx"
    onnx.save_model(reshape_model(declared_mid, [3, 2]), path)
    x = np.random.default_rng(1).uniform(-1, 1, (2, 3)).astype(np.float32)
    _, _, got = S.compile_and_run(compile_tool, run_tool, path, {"x": x},
                                  tmp_path)
    np.testing.assert_allclose(got["y"],
                               S.onnxruntime_outputs(path, {"x": x})["y"],
                               rtol=S.RTOL, atol=S.ATOL)


def test_graph_output_shape_is_checked(compile_tool, tmp_path):
    path = tmp_path / "model.onnx"
    onnx.save_model(reshape_model([3, 2], [6, 1]), path)
    proc = S.compile_model(compile_tool, path, tmp_path / "out.otsa")
    S.assert_clean_error(proc, S.COMPILE)
    S.assert_mentions(proc, S.word("relu"), "the node")
    S.assert_mentions(proc, r"computed type tensor<3x2xf32> for output 0 \(a "
                      r"graph output\), but the model declares "
                      r"tensor<6x1xf32>", "both shapes")
