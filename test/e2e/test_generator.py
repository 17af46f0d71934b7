"""The model generator itself; needs no compiler, so it always runs."""
import subprocess
import sys

import numpy as np
import onnx
import pytest

import e2e_support as S

MM = S.make_models
MAX_ELEMENTS = 10_000  # keeps the suite quick on a software Vulkan device


def test_cli_writes_only_the_named_models(tmp_path):
    script = S.REPO / "test" / "models" / "make_models.py"
    proc = subprocess.run([sys.executable, script, tmp_path, "--only", "mlp",
                           "op_relu_basic"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mlp.onnx", "op_relu_basic.onnx"]
    bad = subprocess.run([sys.executable, script, tmp_path, "--only", "nope"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "nope" in bad.stderr


def test_models_are_deterministic():
    for name in ["mlp", "lenet", "cnn_misc", "op_conv_groups"]:
        assert (MM.build(name).SerializeToString()
                == MM.build(name).SerializeToString()), name


@pytest.mark.parametrize("name", sorted(MM.MODELS))
def test_model_is_valid_and_runs_on_onnxruntime(name, model_dir):
    path = model_dir / f"{name}.onnx"
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    assert all(n.name for n in model.graph.node), "a node has no name"
    assert len({n.name for n in model.graph.node}) == len(model.graph.node)
    assert [(o.domain, o.version) for o in model.opset_import] == [
        ("", 13 if name == "op_softmax_opset13" else 17)]

    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    infos = (list(inferred.graph.input) + list(inferred.graph.value_info)
             + list(inferred.graph.output))
    for vi in infos:
        dims = vi.type.tensor_type.shape.dim
        assert all(d.HasField("dim_value") for d in dims), vi.name
        assert np.prod([d.dim_value for d in dims]) <= MAX_ELEMENTS, vi.name

    feeds = MM.make_inputs(model, MM.name_seed(name))
    for out_name, value in S.onnxruntime_outputs(path, feeds).items():
        assert value.dtype == np.float32, out_name
        assert np.isfinite(value).all(), out_name
