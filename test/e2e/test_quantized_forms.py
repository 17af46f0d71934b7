"""The int8 forms real quantized models use, with intermediate types left
undeclared as exporters leave them (no value_info): DynamicQuantizeLinear
into MatMulInteger and ConvInteger, then back to float. Compared with
onnxruntime."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import e2e_support as S


def dynamic_quantized_model(tmp_path, kind):
    rng = np.random.default_rng(3)
    if kind == "matmul":
        w = rng.integers(0, 255, (16, 8), dtype=np.uint8)
        x_shape, y_shape = [4, 16], [4, 8]
        product = helper.make_node("MatMulInteger",
                                   ["xq", "w", "xzp", "wzp"], ["acc"])
    else:
        w = rng.integers(0, 255, (6, 3, 3, 3), dtype=np.uint8)
        x_shape, y_shape = [1, 3, 8, 8], [1, 6, 6, 6]
        product = helper.make_node("ConvInteger", ["xq", "w", "xzp", "wzp"],
                                   ["acc"])
    inits = [numpy_helper.from_array(w, "w"),
             numpy_helper.from_array(np.array(128, np.uint8), "wzp"),
             numpy_helper.from_array(np.array(0.02, np.float32), "wscale")]
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xzp"]),
        product,
        helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["xs", "wscale"], ["scale"]),
        helper.make_node("Mul", ["accf", "scale"], ["y"])]
    graph = helper.make_graph(
        nodes, f"dynamic_{kind}",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
        initializer=inits)
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 13)]),
        path)
    return path, x_shape


@pytest.mark.parametrize("kind", ["matmul", "conv"])
def test_dynamic_quantization_without_declared_types(compile_tool, run_tool,
                                                     tmp_path, kind):
    path, shape = dynamic_quantized_model(tmp_path, kind)
    x = np.random.default_rng(4).uniform(-2, 2, shape).astype(np.float32)
    _, _, got = S.compile_and_run(compile_tool, run_tool, path, {"x": x},
                                  tmp_path)
    want = S.onnxruntime_outputs(path, {"x": x})["y"]
    # The int32 accumulators are exact; the float rescale differs from
    # onnxruntime's only by float32 rounding.
    np.testing.assert_allclose(got["y"], want, rtol=1e-5, atol=1e-5)
