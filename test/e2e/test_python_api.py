"""The Python API (python/onnx_tosa) against onnxruntime: every generated
model through InferenceSession, compile()'s forms, the error paths, the
compile cache, threads and DLPack. The package is used in place from the
clone, with the runtime library and tools of the build under test."""
import os
import sys
import threading

import numpy as np
import onnx
import pytest

import e2e_support as S

LIBRARY = S.BIN_DIR.parent / "lib" / "libonnx_tosa_runtime.so"


@pytest.fixture(scope="session")
def ot(tmp_path_factory, compile_tool, run_tool):
    if not LIBRARY.is_file():
        pytest.skip(f"the runtime library is not built ({LIBRARY})")
    os.environ["ONNX_TOSA_BIN_DIR"] = str(S.BIN_DIR)
    os.environ["ONNX_TOSA_LIBRARY"] = str(LIBRARY)
    os.environ["ONNX_TOSA_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    sys.path.insert(0, str(S.REPO / "python"))
    import onnx_tosa
    return onnx_tosa


@pytest.fixture(scope="session")
def mlp(ot, model_dir):
    """The example MLP's path, one session on it and its reference feeds."""
    path = model_dir / "mlp.onnx"
    feeds = S.make_models.make_inputs(onnx.load(path),
                                      S.make_models.name_seed("mlp"))
    return path, ot.InferenceSession(path, device=S.DEVICE), feeds


def compile_options():
    return {"target": S.TARGET}


@pytest.mark.parametrize("name", sorted(S.make_models.MODELS))
def test_model_matches_onnxruntime(ot, name, model_dir):
    path = model_dir / f"{name}.onnx"
    model = onnx.load(path)
    feeds = S.make_models.make_inputs(model, S.make_models.name_seed(name))
    sess = ot.InferenceSession(path, device=S.DEVICE)
    assert [a.name for a in sess.get_inputs()] == \
        [i.name for i in model.graph.input
         if i.name not in {t.name for t in model.graph.initializer}]
    expected = S.onnxruntime_outputs(path, feeds)
    got = sess.run(None, feeds)
    assert [a.name for a in sess.get_outputs()] == list(expected)
    for (out_name, ref), value in zip(expected.items(), got):
        assert value.dtype == ref.dtype and value.shape == ref.shape, out_name
        np.testing.assert_allclose(
            value, ref, rtol=S.RTOL, atol=S.ATOL,
            err_msg=f"{name}: output {out_name!r} differs from onnxruntime")


def test_signature_like_onnxruntime(mlp):
    _, sess, feeds = mlp
    (x,), (y,) = sess.get_inputs(), sess.get_outputs()
    assert (x.name, x.type, x.shape, x.dtype) == \
        ("x", "tensor(float)", list(feeds["x"].shape), np.float32)
    assert (y.name, y.type) == ("y", "tensor(float)")


def test_output_subset_and_order(ot, model_dir):
    path = model_dir / "cnn_misc.onnx"
    model = onnx.load(path)
    feeds = S.make_models.make_inputs(model,
                                      S.make_models.name_seed("cnn_misc"))
    expected = S.onnxruntime_outputs(path, feeds)
    names = list(expected)[::-1]
    sess = ot.InferenceSession(path, device=S.DEVICE)
    for name, value in zip(names, sess.run(names, feeds)):
        np.testing.assert_allclose(value, expected[name], rtol=S.RTOL,
                                   atol=S.ATOL)


@pytest.mark.parametrize("feed, pattern", [
    (lambda x: {"x": x[:1]}, r"input 'x': expected shape \[4, 64\], got \[1, 64\]"),
    (lambda x: {"x": x.astype(np.float64)}, r"input 'x': expected dtype float32, got float64"),
    (lambda x: {"x_typo": x}, r"unknown input 'x_typo'.*inputs are: x \(float32"),
    (lambda x: {}, r"missing input x \(float32 \[4, 64\]\)"),
], ids=["shape", "dtype", "name", "missing"])
def test_bad_inputs_raise_value_error(ot, mlp, feed, pattern):
    _, sess, feeds = mlp
    with pytest.raises(ValueError, match=pattern) as info:
        sess.run(None, feed(feeds["x"]))
    assert isinstance(info.value, ot.InvalidArgument)
    assert info.value.code == "INVALID_ARGUMENT"
    # The session still runs afterwards.
    assert sess.run(None, feeds)[0].shape == (4, 10)


def test_unknown_output_name(ot, mlp):
    _, sess, feeds = mlp
    with pytest.raises(ValueError, match=r"unknown output 'z'.*outputs are y"):
        sess.run(["z"], feeds)


def test_compile_returns_bytes_and_runs_from_memory(ot, mlp):
    path, _, feeds = mlp
    blob = ot.compile(path, **compile_options())
    assert blob[:8] == b"OTSAART\0"
    sess = ot.InferenceSession(blob, device=S.DEVICE)
    np.testing.assert_allclose(sess.run(None, feeds)[0],
                               S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)


def test_compile_to_file_from_model_proto(ot, mlp, tmp_path):
    path, _, feeds = mlp
    stages = []
    out = ot.compile(onnx.load(path), tmp_path / "m.otsa",
                     progress=stages.append, **compile_options())
    assert out == tmp_path / "m.otsa" and out.stat().st_size > 0
    assert any(s.startswith("legalization") for s in stages), stages
    sess = ot.InferenceSession(str(out), device=S.DEVICE)
    np.testing.assert_allclose(sess.run(None, feeds)[0],
                               S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)


def test_compile_options_are_the_cli_options(ot, mlp):
    path, _, _ = mlp
    options = ot.compiler_options()
    for name in ("precision", "input_shape", "freeze_input", "emit",
                 "tensor_cores"):
        assert name in options, sorted(options)
    tosa = ot.compile(path, emit="tosa", **compile_options())
    assert "tosa.matmul" in tosa or "tosa.conv2d" in tosa, tosa[:500]
    with pytest.raises(TypeError, match="unknown option 'precison'"):
        ot.compile(path, precison="fp16", **compile_options())
    # A value the CLI refuses comes back as its message.
    with pytest.raises(ot.CompileError, match="vector-width"):
        ot.compile(path, vector_width=3, **compile_options())


def test_compile_error_names_the_node(ot, tmp_path):
    from test_bad_input import bernoulli_model
    with pytest.raises(ot.CompileError) as info:
        ot.compile(bernoulli_model(), **compile_options())
    message = str(info.value)
    for text in ("flip_coins", "Bernoulli", "17"):
        assert text in message, message


def test_input_shape_option(ot, model_dir, tmp_path):
    """The cached compile honours options: the MLP at another batch size
    (its batch dimension made symbolic)."""
    model = onnx.load(model_dir / "mlp.onnx")
    for value in (model.graph.input[0], model.graph.output[0]):
        value.type.tensor_type.shape.dim[0].dim_param = "N"
    path = tmp_path / "mlp_n.onnx"
    onnx.save(model, path)
    sess = ot.InferenceSession(path, device=S.DEVICE,
                               input_shape={"x": (7, 64)})
    assert sess.get_inputs()[0].shape == [7, 64]
    x = np.random.default_rng(3).uniform(-1, 1, (7, 64)).astype(np.float32)
    np.testing.assert_allclose(sess.run(None, {"x": x})[0],
                               S.onnxruntime_outputs(path, {"x": x})["y"],
                               rtol=S.RTOL, atol=S.ATOL)


def test_cache_reuses_and_separates(ot, model_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("ONNX_TOSA_CACHE_DIR", str(tmp_path / "cache"))
    path = model_dir / "lenet.onnx"
    stages = []
    ot.InferenceSession(path, device=S.DEVICE, progress=stages.append)
    assert stages, "the first session compiles"
    stages.clear()
    ot.InferenceSession(path, device=S.DEVICE, progress=stages.append)
    assert not stages, "the second session uses the cached artifact"
    ot.InferenceSession(path, device=S.DEVICE, progress=stages.append,
                        vector_width=2)
    assert stages, "other options compile again"
    assert len(list((tmp_path / "cache").glob("*.otsa"))) == 2


def test_run_from_threads(ot, mlp):
    _, sess, feeds = mlp
    rng = np.random.default_rng(11)
    xs = [rng.uniform(-1, 1, feeds["x"].shape).astype(np.float32)
          for _ in range(4)]
    want = [sess.run(None, {"x": x})[0] for x in xs]
    got, errors = [None] * len(xs), []

    def work(i):
        try:
            for _ in range(5):
                got[i] = sess.run(None, {"x": xs[i]})[0]
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


class DlpackOnly:
    """A host tensor known only through the DLPack protocol."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


def test_dlpack_round_trip(ot, mlp):
    path, sess, feeds = mlp
    y, = sess.run(None, {"x": DlpackOnly(feeds["x"])})
    np.testing.assert_allclose(y, S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)
    np.testing.assert_array_equal(np.from_dlpack(y), y)


def test_dlpack_torch_cpu(ot, mlp):
    torch = pytest.importorskip("torch")
    path, sess, feeds = mlp
    y, = sess.run(None, {"x": torch.from_numpy(feeds["x"])})
    np.testing.assert_allclose(torch.from_dlpack(y).numpy(),
                               S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)


def test_closed_session(ot, mlp):
    path, _, feeds = mlp
    sess = ot.InferenceSession(path, device=S.DEVICE)
    sess.close()
    with pytest.raises(ot.OnnxTosaError, match="closed"):
        sess.run(None, feeds)


def test_missing_model_and_bad_device(ot, tmp_path, mlp):
    with pytest.raises(FileNotFoundError, match="no-such.onnx"):
        ot.InferenceSession(tmp_path / "no-such.onnx", device=S.DEVICE)
    with pytest.raises(ValueError, match="bogus"):
        ot.InferenceSession(mlp[0], device="bogus:7")


def test_versions(ot):
    assert ot.runtime_version().startswith(f"onnx-tosa {ot.__version__} (commit ")
    assert ot.compiler_version().startswith(ot.runtime_version())
    assert "LLVM/MLIR 22" in ot.compiler_version()


def test_io_binding_with_the_sessions_buffers(ot, mlp):
    """bind_input of an array writes the session's own input buffer,
    bind_output without a tensor reads its own output buffer: the runs move
    nothing through the host, and each sees the values bound last."""
    path, sess, feeds = mlp
    binding = sess.io_binding()
    binding.bind_output("y")
    rng = np.random.default_rng(5)
    for _ in range(2):
        x = rng.uniform(-1, 1, feeds["x"].shape).astype(np.float32)
        binding.bind_input("x", x)
        sess.run_with_iobinding(binding)
        (y,) = binding.get_outputs()
        assert isinstance(y, ot.DeviceTensor) and y.shape == (4, 10)
        np.testing.assert_allclose(
            binding.copy_outputs_to_cpu()[0],
            S.onnxruntime_outputs(path, {"x": x})["y"], rtol=S.RTOL,
            atol=S.ATOL)
    timing = sess.last_run_timing()
    assert timing["execute_ms"] > 0


def test_io_binding_with_device_tensors(ot, mlp):
    """Tensors of the caller's, copied on the device, and chained: one
    run's output tensor is the next run's input where shapes allow."""
    path, sess, feeds = mlp
    x = ot.DeviceTensor.from_numpy(feeds["x"], sess.device)
    y = ot.DeviceTensor.empty((4, 10), np.float32, sess.device)
    np.testing.assert_array_equal(x.numpy(), feeds["x"])
    binding = sess.io_binding()
    binding.bind_input("x", x)
    binding.bind_output("y", y)
    sess.run_with_iobinding(binding)
    np.testing.assert_allclose(y.numpy(), S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)


def test_io_binding_errors(ot, mlp):
    _, sess, feeds = mlp
    binding = sess.io_binding()
    with pytest.raises(ValueError, match="unknown input 'nope'"):
        binding.bind_input("nope", feeds["x"])
    with pytest.raises(ValueError, match="unknown output 'nope'"):
        binding.bind_output("nope")
    wrong = ot.DeviceTensor.empty((2, 64), np.float32, sess.device)
    binding.bind_input("x", wrong)
    with pytest.raises(ValueError,
                       match=r"input 'x': expected shape \[4, 64\], got \[2, 64\]"):
        sess.run_with_iobinding(binding)
    binding.clear_binding_inputs()
    with pytest.raises(ValueError, match="missing input x"):
        sess.run_with_iobinding(binding)
    with pytest.raises(ValueError, match=r"input 'x': expected float32 \[4, 64\], got float32 \[1, 64\]"):
        sess.io_binding().bind_input("x", feeds["x"][:1])
    # Only CUDA memory has an address other libraries can use.
    if sess.device.target == "vulkan":
        with pytest.raises(BufferError, match="only CUDA"):
            wrong.__dlpack__()


def test_sessions_share_weights(ot, model_dir):
    """Two sessions of one model on one device: the weights are uploaded
    once, and both compute correctly."""
    path = model_dir / "lenet.onnx"
    feeds = S.make_models.make_inputs(onnx.load(path),
                                      S.make_models.name_seed("lenet"))
    first = ot.InferenceSession(path, device=S.DEVICE)
    second = ot.InferenceSession(path, device=S.DEVICE)
    assert second.device is first.device
    a, b = first.memory(), second.memory()
    assert a["weight_bytes"] + a["shared_weight_bytes"] > 0
    assert b["weight_bytes"] == 0
    assert b["shared_weight_bytes"] == a["weight_bytes"] + a["shared_weight_bytes"]
    want = S.onnxruntime_outputs(path, feeds)
    del first
    for got, ref in zip(second.run(None, feeds), want.values()):
        np.testing.assert_allclose(got, ref, rtol=S.RTOL, atol=S.ATOL)


def test_cache_follows_external_data(ot, model_dir, tmp_path, monkeypatch):
    """A model whose weights live in a file beside it: changing that file
    compiles again (the cached artifact holds the old weights)."""
    monkeypatch.setenv("ONNX_TOSA_CACHE_DIR", str(tmp_path / "cache"))
    model = onnx.load(model_dir / "mlp.onnx")
    folder = tmp_path / "model"
    folder.mkdir()
    path = folder / "mlp.onnx"
    onnx.save_model(model, path, save_as_external_data=True,
                    all_tensors_to_one_file=True, location="weights.bin",
                    size_threshold=0)
    feeds = S.make_models.make_inputs(model, S.make_models.name_seed("mlp"))
    stages = []
    y1, = ot.InferenceSession(path, device=S.DEVICE,
                              progress=stages.append).run(None, feeds)
    np.testing.assert_allclose(y1, S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)
    assert stages
    stages.clear()
    ot.InferenceSession(path, device=S.DEVICE, progress=stages.append)
    assert not stages, "unchanged weights: the cached artifact"
    # Other weights, same size.
    data = np.frombuffer((folder / "weights.bin").read_bytes(), np.float32)
    (folder / "weights.bin").write_bytes((data * 0.5).tobytes())
    y2, = ot.InferenceSession(path, device=S.DEVICE,
                              progress=stages.append).run(None, feeds)
    assert stages, "changed weights compile again"
    np.testing.assert_allclose(y2, S.onnxruntime_outputs(path, feeds)["y"],
                               rtol=S.RTOL, atol=S.ATOL)
    assert not np.allclose(y1, y2)


def test_data_dependent_output_is_trimmed(ot, compile_tool, tmp_path):
    """NonZero's output: its largest shape in the session's info (None
    where it varies), the real one from each run."""
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("NonZero", ["x"], ["y"])], "nonzero",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [2, None])])
    path = tmp_path / "nonzero.onnx"
    onnx.save_model(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    artifact = tmp_path / "nonzero.otsa"
    proc = S.compile_model(compile_tool, path, artifact)
    assert proc.returncode == 0, S.describe(proc)
    sess = ot.InferenceSession(artifact, device=S.DEVICE)
    assert sess.get_outputs()[0].shape == [2, None]
    x = np.diag([1.0, 0.0, 2.0, 3.0]).astype(np.float32)
    (got,) = sess.run(None, {"x": x})
    np.testing.assert_array_equal(got, np.array(np.nonzero(x)))
    (got,) = sess.run(["y"], {"x": np.zeros((4, 4), np.float32)})
    assert got.shape == (2, 0)
