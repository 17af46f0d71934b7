"""Ops whose training forms are deterministic (the ai.onnx.preview.training
optimizers, BatchNormalization with training_mode=1), compiled, run, and
compared with onnx's reference implementation. The ONNX backend cases only
use T = 0; these also take the T > 0 branches (Adam's bias correction,
Momentum's beta), with R and T passed at run time."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import e2e_support as S

TRAINING = "ai.onnx.preview.training"

# (op, attributes, state tensors per variable besides X and G)
OPTIMIZERS = {
    "adagrad": ("Adagrad", dict(decay_factor=0.1, epsilon=1e-5,
                                norm_coefficient=0.01), ["H"]),
    "adam": ("Adam", dict(alpha=0.9, beta=0.99, epsilon=1e-3,
                          norm_coefficient=0.01, norm_coefficient_post=0.1),
             ["V", "H"]),
    "momentum": ("Momentum", dict(alpha=0.9, beta=0.5, mode="standard",
                                  norm_coefficient=0.01), ["V"]),
    "nesterov": ("Momentum", dict(alpha=0.9, beta=0.5, mode="nesterov",
                                  norm_coefficient=0.01), ["V"]),
}
SHAPES = [(3, 4), (5,)]  # two variables of different shapes


def optimizer_model(op, attrs, states):
    kinds = ["X", "G"] + states
    names = [f"{k}{i}" for k in kinds for i in range(len(SHAPES))]
    shapes = [s for _ in kinds for s in SHAPES]
    outs = [f"{k}{i}_new" for k in ["X"] + states for i in range(len(SHAPES))]
    node = helper.make_node(op, ["R", "T"] + names, outs, domain=TRAINING,
                            **attrs)
    inputs = [helper.make_tensor_value_info("R", TensorProto.FLOAT, []),
              helper.make_tensor_value_info("T", TensorProto.INT64, [])]
    inputs += [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
               for n, s in zip(names, shapes)]
    out_shapes = [s for _ in ["X"] + states for s in SHAPES]
    outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
               for n, s in zip(outs, out_shapes)]
    graph = helper.make_graph([node], op.lower(), inputs, outputs)
    return helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 18), helper.make_opsetid(TRAINING, 1)])


def batchnorm_model():
    node = helper.make_node("BatchNormalization",
                            ["x", "s", "b", "mean", "var"],
                            ["y", "running_mean", "running_var"],
                            epsilon=1e-3, momentum=0.7, training_mode=1)
    vi = helper.make_tensor_value_info
    graph = helper.make_graph(
        [node], "bn",
        [vi("x", TensorProto.FLOAT, [3, 4, 5, 6])] +
        [vi(n, TensorProto.FLOAT, [4]) for n in ["s", "b", "mean", "var"]],
        [vi("y", TensorProto.FLOAT, [3, 4, 5, 6]),
         vi("running_mean", TensorProto.FLOAT, [4]),
         vi("running_var", TensorProto.FLOAT, [4])])
    return helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 15)])


def run_and_compare(model, feeds, compile_tool, run_tool, tmp_path):
    model_path = tmp_path / "model.onnx"
    onnx.save(model, model_path)
    names = [o.name for o in model.graph.output]
    _, _, outputs = S.compile_and_run(compile_tool, run_tool, model_path,
                                      feeds, tmp_path, outputs=names)

    expected = ReferenceEvaluator(model).run(None, feeds)
    for name, ref in zip(names, expected):
        got = outputs[name]
        assert got.dtype == np.float32, f"output {name!r}: dtype {got.dtype}"
        # The reference computes Adam's corrected rate in float64; the
        # model's outputs are float32.
        np.testing.assert_allclose(
            got, np.asarray(ref).astype(np.float32), rtol=S.RTOL, atol=S.ATOL,
            err_msg=f"output {name!r} differs from onnx's reference")


@pytest.mark.parametrize("step", [0, 1, 7])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer_matches_reference(name, step, compile_tool, run_tool,
                                     tmp_path):
    op, attrs, states = OPTIMIZERS[name]
    model = optimizer_model(op, attrs, states)
    rng = np.random.default_rng(S.make_models.name_seed(name) + step)
    feeds = {"R": np.array(0.05, np.float32), "T": np.array(step, np.int64)}
    for inp in model.graph.input[2:]:
        shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
        values = rng.standard_normal(shape).astype(np.float32)
        # Adagrad's and Adam's H accumulate squares: keep them positive.
        feeds[inp.name] = np.abs(values) if inp.name[0] == "H" else values
    run_and_compare(model, feeds, compile_tool, run_tool, tmp_path)


def test_batchnorm_training_matches_reference(compile_tool, run_tool,
                                              tmp_path):
    rng = np.random.default_rng(S.make_models.name_seed("bn_training"))
    feeds = {
        "x": (rng.standard_normal([3, 4, 5, 6]) * 2 + 1).astype(np.float32),
        "s": rng.standard_normal([4]).astype(np.float32),
        "b": rng.standard_normal([4]).astype(np.float32),
        "mean": rng.standard_normal([4]).astype(np.float32),
        "var": np.abs(rng.standard_normal([4])).astype(np.float32),
    }
    run_and_compare(batchnorm_model(), feeds, compile_tool, run_tool,
                    tmp_path)
