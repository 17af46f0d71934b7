"""Kernels stay within a Vulkan device's storage buffers per shader (32 on
lavapipe, the CI device): ops of many inputs used to become one kernel of
more buffers than that, which the device refused to load. Each model is
compared with onnxruntime, and the artifact's kernels are checked against
the limit."""
import re

import numpy as np
import onnx
import onnx.numpy_helper
import pytest
from onnx import TensorProto, helper

import e2e_support as S

LIMIT = 32  # onnx-tosa-compile's default --max-kernel-buffers on Vulkan


def many_inputs_model(tmp_path, op, n, **attrs):
    names = [f"x{i}" for i in range(n)]
    out_shape = [n, 8] if op == "Concat" else [1, 8]
    graph = helper.make_graph(
        [helper.make_node(op, names, ["y"], **attrs)], f"{op}_{n}",
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, 8])
         for x in names],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)])
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 13)]),
        path)
    return path


@pytest.mark.parametrize("op, attrs", [("Concat", {"axis": 0}),
                                       ("Sum", {}), ("Max", {})])
def test_op_of_many_inputs_fits_the_device(compile_tool, run_tool, tmp_path,
                                           op, attrs):
    if S.TARGET != "vulkan":
        pytest.skip("the binding limit is Vulkan's")
    n = 40
    path = many_inputs_model(tmp_path, op, n, **attrs)
    rng = np.random.default_rng(n)
    feeds = {f"x{i}": rng.uniform(-1, 1, (1, 8)).astype(np.float32)
             for i in range(n)}
    proc, artifact, got = S.compile_and_run(compile_tool, run_tool, path,
                                            feeds, tmp_path)
    np.testing.assert_allclose(got["y"], S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=1e-6, atol=1e-6)
    # Every kernel binds at most LIMIT buffers.
    gpu = S.call([compile_tool, path, "--target=vulkan", "--emit=gpu"])
    assert gpu.returncode == 0, S.describe(gpu)
    kernels = re.findall(r"gpu\.func @\w+\(([^)]*)\)", gpu.stdout)
    assert kernels, S.describe(gpu)
    assert max(k.count("memref<") for k in kernels) <= LIMIT


def test_no_limit_keeps_one_kernel(compile_tool, tmp_path):
    """--max-kernel-buffers=0 lifts the limit (a device with more bindings):
    the concatenation is one kernel again."""
    path = many_inputs_model(tmp_path, "Concat", 40, axis=0)
    counts = {}
    for limit in ("0", "32"):
        gpu = S.call([compile_tool, path, "--target=vulkan", "--emit=gpu",
                      f"--max-kernel-buffers={limit}"])
        assert gpu.returncode == 0, S.describe(gpu)
        counts[limit] = gpu.stdout.count("gpu.launch_func")
    assert counts == {"0": 1, "32": 2}


def test_lstm_of_40_steps_fits_the_device(compile_tool, run_tool, tmp_path):
    """An unrolled LSTM's Y gathers every step's output: 40 steps were one
    kernel of 41 buffers."""
    steps, batch, inputs, hidden = 40, 2, 4, 8
    rng = np.random.default_rng(40)
    w = onnx.numpy_helper.from_array(
        rng.uniform(-0.5, 0.5, (1, 4 * hidden, inputs)).astype(np.float32), "W")
    r = onnx.numpy_helper.from_array(
        rng.uniform(-0.5, 0.5, (1, 4 * hidden, hidden)).astype(np.float32), "R")
    graph = helper.make_graph(
        [helper.make_node("LSTM", ["x", "W", "R"], ["y", "y_h"],
                          hidden_size=hidden)], "lstm40",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [steps, batch, inputs])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [steps, 1, batch, hidden]),
         helper.make_tensor_value_info("y_h", TensorProto.FLOAT,
                                       [1, batch, hidden])],
        initializer=[w, r])
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 14)]),
        path)
    feeds = {"x": rng.uniform(-1, 1, (steps, batch, inputs)).astype(np.float32)}
    _, _, got = S.compile_and_run(compile_tool, run_tool, path, feeds, tmp_path)
    want = S.onnxruntime_outputs(path, feeds)
    for name in ("y", "y_h"):
        np.testing.assert_allclose(got[name], want[name], rtol=S.RTOL,
                                   atol=S.ATOL)


def test_weight_over_the_buffer_range_runs(compile_tool, run_tool, tmp_path):
    """A fully connected layer whose weight (9216 x 4096 f32, 144 MiB, as in
    AlexNet) is larger than a Vulkan storage buffer may be (128 MiB, the
    Vulkan minimum and lavapipe's limit): it is split into column blocks
    under the limit at compile time, where lavapipe refused to load it
    before. Random weights, against onnxruntime."""
    if S.TARGET != "vulkan":
        pytest.skip("the buffer range limit is Vulkan's")
    k, n = 9216, 4096
    rng = np.random.default_rng(9216)
    w = onnx.numpy_helper.from_array(
        rng.uniform(-0.02, 0.02, (n, k)).astype(np.float32), "W")
    b = onnx.numpy_helper.from_array(
        rng.uniform(-1, 1, (n,)).astype(np.float32), "B")
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "W", "B"], ["h"], transB=1),
         helper.make_node("Relu", ["h"], ["y"])], "fc_144mib",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, n])],
        initializer=[w, b])
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 13)]),
        path)
    feeds = {"x": rng.uniform(-1, 1, (2, k)).astype(np.float32)}
    _, _, got = S.compile_and_run(compile_tool, run_tool, path, feeds, tmp_path)
    # (Sums of 9216 products: the tolerance of the other e2e models.)
    np.testing.assert_allclose(got["y"], S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)
    # No kernel binds a buffer over the limit (lavapipe would refuse to load
    # it, but a device with a larger limit would not).
    gpu = S.call([compile_tool, path, "--target=vulkan", "--emit=gpu",
                  "--elide-constants=1"])
    assert gpu.returncode == 0, S.describe(gpu)
    kernels = re.findall(r"gpu\.func @\w+\(([^)]*)\)", gpu.stdout)
    sizes = [4 * int(np.prod([int(d) for d in dims.split("x")]))
             for args in kernels
             for dims in re.findall(r"memref<([\dx]+)xf32", args)]
    assert sizes and max(sizes) <= 1 << 27, sorted(sizes)[-4:]
    assert max(sizes) >= 1 << 25, sorted(sizes)[-4:]  # (the weight's blocks)
