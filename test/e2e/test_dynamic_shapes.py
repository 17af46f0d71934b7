"""Shape variants (--dim): a model with symbolic dimensions compiled once
for several values of each, run at every one of them against onnxruntime,
and shapes it was not compiled for refused by name. A symbolic batch (an
MLP), a symbolic height and width (a small CNN with pooling and Resize) and
a symbolic sequence length (one attention layer)."""
import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import e2e_support as S

RNG = np.random.default_rng(2024)


def weight(name, shape, scale=0.3):
    return numpy_helper.from_array(
        (RNG.uniform(-1, 1, shape) * scale).astype(np.float32), name)


def model(nodes, inputs, outputs, inits, name):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = helper.make_model(graph, ir_version=8,
                          opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    return m


def mlp():
    """x[N, 16] -> Gemm -> Relu -> Gemm -> Softmax."""
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1"),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("Gemm", ["r", "w2", "b2"], ["z"], name="fc2"),
             helper.make_node("Softmax", ["z"], ["y"], name="softmax")]
    return model(
        nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                              ["N", 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 8])],
        [weight("w1", [16, 32]), weight("b1", [32]), weight("w2", [32, 8]),
         weight("b2", [8])], "mlp_batch")


def cnn():
    """x[1, 3, H, W] -> Conv 3x3 -> Relu -> MaxPool 2x2 -> Resize x2 ->
    GlobalAveragePool -> Flatten -> Gemm."""
    scales = numpy_helper.from_array(
        np.array([1, 1, 2, 2], np.float32), "scales")
    nodes = [
        helper.make_node("Conv", ["x", "wc", "bc"], ["c"], name="conv",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("MaxPool", ["r"], ["p"], name="pool",
                         kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Resize", ["p", "", "scales"], ["u"], name="resize",
                         mode="nearest"),
        helper.make_node("GlobalAveragePool", ["u"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], name="head")]
    return model(
        nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                              [1, 3, "H", "W"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])],
        [weight("wc", [8, 3, 3, 3]), weight("bc", [8]), scales,
         weight("wf", [8, 5]), weight("bf", [5])], "cnn_hw")


def attention():
    """x[1, S, 16] -> Q, K, V projections -> softmax(Q K^T / 4) V -> y."""
    scale = numpy_helper.from_array(np.array(0.25, np.float32), "scale")
    perm = [0, 2, 1]
    nodes = [
        helper.make_node("MatMul", ["x", "wq"], ["q"], name="q_proj"),
        helper.make_node("MatMul", ["x", "wk"], ["k"], name="k_proj"),
        helper.make_node("MatMul", ["x", "wv"], ["v"], name="v_proj"),
        helper.make_node("Transpose", ["k"], ["kt"], name="k_t", perm=perm),
        helper.make_node("MatMul", ["q", "kt"], ["s"], name="scores"),
        helper.make_node("Mul", ["s", "scale"], ["ss"], name="scaled"),
        helper.make_node("Softmax", ["ss"], ["p"], name="softmax", axis=-1),
        helper.make_node("MatMul", ["p", "v"], ["y"], name="context")]
    return model(
        nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                              [1, "S", 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "S", 16])],
        [weight("wq", [16, 16]), weight("wk", [16, 16]),
         weight("wv", [16, 16]), scale], "attention_seq")


# (model, --dim values, the input shape for each combination of them)
CASES = {
    # 1, a prime and the largest.
    "batch": (mlp, {"N": [1, 2, 5, 8]}, lambda d: (d["N"], 16)),
    "height_width": (cnn, {"H": [8, 13], "W": [8, 16]},
                     lambda d: (1, 3, d["H"], d["W"])),
    "sequence": (attention, {"S": [1, 7, 16]}, lambda d: (1, d["S"], 16)),
}


def combinations(dims):
    combos = [{}]
    for name, values in dims.items():
        combos = [{**c, name: v} for c in combos for v in values]
    return combos


def dim_flags(dims):
    return [f"--dim={n}=" + ",".join(map(str, vs)) for n, vs in dims.items()]


@pytest.fixture(scope="module", params=sorted(CASES))
def compiled(request, compile_tool, tmp_path_factory):
    build, dims, shape_of = CASES[request.param]
    work = tmp_path_factory.mktemp(request.param)
    path = work / "model.onnx"
    onnx.save_model(build(), path)
    artifact = work / "model.otsa"
    proc = S.compile_model(compile_tool, path, artifact, *dim_flags(dims))
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    n = len(combinations(dims))
    assert f"{n} shape variants" in proc.stdout, S.describe(proc)
    return request.param, path, artifact, dims, shape_of, work


def test_every_size_matches_onnxruntime(compiled, run_tool, tmp_path):
    name, path, artifact, dims, shape_of, _ = compiled
    for k, values in enumerate(combinations(dims)):
        x = RNG.uniform(-1, 1, shape_of(values)).astype(np.float32)
        out = tmp_path / f"out{k}"
        out.mkdir()
        proc = S.run_artifact(run_tool, artifact,
                              S.save_inputs({"x": x}, tmp_path / f"in{k}"),
                              out)
        assert proc.returncode == 0, f"{values}: running failed" \
            f"{S.describe(proc)}"
        want = S.onnxruntime_outputs(path, {"x": x})["y"]
        got = np.load(out / "y.npy")
        assert got.shape == want.shape, (values, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=S.RTOL, atol=S.ATOL,
                                   err_msg=f"{name} at {values}")


def test_other_shapes_are_refused_by_name(compiled, run_tool, tmp_path):
    _, _, artifact, dims, shape_of, _ = compiled
    values = {n: max(vs) + 1 for n, vs in dims.items()}
    x = np.zeros(shape_of(values), np.float32)
    out = tmp_path / "out"
    out.mkdir()
    proc = S.run_artifact(run_tool, artifact,
                          S.save_inputs({"x": x}, tmp_path / "in"), out)
    S.assert_clean_error(proc, S.RUN, exit_code=1)
    given = "[" + ", ".join(map(str, x.shape)) + "]"
    S.assert_mentions(proc, re.escape(f"(x {given}) are none of those the "
                                      "artifact was compiled for"),
                      "the input and its shape")
    for combo in combinations(dims):
        accepted = "[" + ", ".join(map(str, shape_of(combo))) + "]"
        S.assert_mentions(proc, re.escape(accepted), f"shape {accepted}")


def test_weights_are_stored_once(compiled, compile_tool, run_tool):
    """One artifact for every size is smaller than the separate ones by
    the weights it does not repeat."""
    _, path, artifact, dims, _, work = compiled
    singles = 0
    for k, values in enumerate(combinations(dims)):
        one = work / f"single{k}.otsa"
        proc = S.compile_model(compile_tool, path, one,
                               *[f"--dim={n}={v}" for n, v in values.items()])
        assert proc.returncode == 0, S.describe(proc)
        singles += one.stat().st_size
    weights = int(re.search(r"(\d+) bytes of weights",
                            proc.stdout).group(1))
    repeats = len(combinations(dims)) - 1
    assert artifact.stat().st_size <= singles - repeats * weights, (
        artifact.stat().st_size, singles, weights)


def test_python_api_runs_every_size(compiled, tmp_path, monkeypatch):
    import os
    import sys
    name, path, artifact, dims, shape_of, _ = compiled
    monkeypatch.setenv("ONNX_TOSA_BIN_DIR", str(S.BIN_DIR))
    monkeypatch.setenv("ONNX_TOSA_LIBRARY",
                       str(S.BIN_DIR.parent / "lib" / "libonnx_tosa_runtime.so"))
    if not os.path.isfile(os.environ["ONNX_TOSA_LIBRARY"]):
        pytest.skip("the runtime library is not built")
    sys.path.insert(0, str(S.REPO / "python"))
    import onnx_tosa
    sess = onnx_tosa.InferenceSession(artifact, device=S.DEVICE)
    (x_arg,) = sess.get_inputs()
    # The dimensions that vary are unknown in the merged signature.
    varying = [i for i, d in enumerate(x_arg.shape) if d is None]
    assert len(varying) == len(dims)
    assert len(sess.shape_variants()) == len(combinations(dims))
    for values in combinations(dims):
        x = RNG.uniform(-1, 1, shape_of(values)).astype(np.float32)
        (y,) = sess.run(None, {"x": x})
        np.testing.assert_allclose(
            y, S.onnxruntime_outputs(path, {"x": x})["y"], rtol=S.RTOL,
            atol=S.ATOL, err_msg=f"{name} at {values}")


def test_variants_share_scratch_and_run_in_any_order(compiled, compile_tool,
                                                      tmp_path, monkeypatch):
    """The variants' scratch buffers are shared (a session runs one at a
    time): the artifact's session holds less scratch than the separate
    artifacts' sessions together, no more than the largest one's plus the
    main program's (whose outputs ot_session_output_tensor hands out), and
    runs its sizes in any order, each still equal to onnxruntime."""
    import os
    import sys
    name, path, artifact, dims, shape_of, work = compiled
    monkeypatch.setenv("ONNX_TOSA_BIN_DIR", str(S.BIN_DIR))
    monkeypatch.setenv("ONNX_TOSA_LIBRARY",
                       str(S.BIN_DIR.parent / "lib" / "libonnx_tosa_runtime.so"))
    if not os.path.isfile(os.environ["ONNX_TOSA_LIBRARY"]):
        pytest.skip("the runtime library is not built")
    sys.path.insert(0, str(S.REPO / "python"))
    import onnx_tosa
    combos = combinations(dims)
    singles = []
    for k, values in enumerate(combos):
        one = work / f"scratch{k}.otsa"
        proc = S.compile_model(compile_tool, path, one,
                               *[f"--dim={n}={v}" for n, v in values.items()])
        assert proc.returncode == 0, S.describe(proc)
        single = onnx_tosa.InferenceSession(one, device=S.DEVICE)
        singles.append(single.memory()["intermediate_bytes"])
    sess = onnx_tosa.InferenceSession(artifact, device=S.DEVICE)
    shared = sess.memory()["intermediate_bytes"]
    assert shared < sum(singles), (shared, singles)
    assert shared <= max(singles) + singles[0], (shared, singles)
    # Largest, smallest, then the rest backwards, then the largest again.
    order = [combos[-1], combos[0]] + combos[::-1] + [combos[-1]]
    for values in order:
        x = RNG.uniform(-1, 1, shape_of(values)).astype(np.float32)
        (y,) = sess.run(None, {"x": x})
        np.testing.assert_allclose(
            y, S.onnxruntime_outputs(path, {"x": x})["y"], rtol=S.RTOL,
            atol=S.ATOL, err_msg=f"{name} at {values}")
