"""An elementwise op over more elements than 65535 blocks of 256 threads
hold: Vulkan only promises 65535 workgroups per grid dimension (lavapipe and
Intel GPUs allow no more), so the kernel's blocks are laid out over two
dimensions. The sum and its ReLU still match onnxruntime."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S

# 2^24 + 2^20 floats: 69632 blocks of 256 threads (65536 past the limit at
# one element per thread; 17408 at CUDA's 4).
N = (1 << 24) + (1 << 20)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    d = tmp_path_factory.mktemp("large_grid")
    vi = helper.make_tensor_value_info
    g = helper.make_graph(
        [helper.make_node("Add", ["x", "y"], ["s"], name="add"),
         helper.make_node("Relu", ["s"], ["z"], name="relu")],
        "large_grid", [vi("x", TensorProto.FLOAT, [N]),
                       vi("y", TensorProto.FLOAT, [N])],
        [vi("z", TensorProto.FLOAT, [N])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    path = d / "large_grid.onnx"
    onnx.save_model(m, path)
    return path


def test_large_elementwise(compile_tool, run_tool, model, tmp_path):
    artifact = tmp_path / "large_grid.otsa"
    proc = S.compile_model(compile_tool, model, artifact)
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    rng = np.random.default_rng(11)
    feeds = {"x": rng.standard_normal(N, dtype=np.float32),
             "y": rng.standard_normal(N, dtype=np.float32)}
    inputs = S.save_inputs(feeds, tmp_path / "in")
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path, "--quiet")
    assert proc.returncode == 0, f"running failed{S.describe(proc)}"
    ref = S.onnxruntime_outputs(model, feeds)["z"]
    # One f32 addition and a max, as onnxruntime does them: exact.
    np.testing.assert_array_equal(np.load(tmp_path / "z.npy"), ref)
