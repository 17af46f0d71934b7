"""Bad models, bad inputs, bad devices and bad artifacts: each must give a
clean error that names the culprit, never a crash."""
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S
from e2e_support import assert_clean_error, assert_mentions, word

Graph = S.make_models.Graph

# ---------------------------------------------------------------------------
# The compiler, given files that are not models.


def compile_expect_error(compile_tool, model, tmp_path):
    proc = S.compile_model(compile_tool, model, tmp_path / "out.otsa")
    assert_clean_error(proc, S.COMPILE)
    return proc


def test_truncated_model(compile_tool, model_dir, tmp_path):
    data = (model_dir / "mlp.onnx").read_bytes()
    bad = tmp_path / "truncated_mlp.onnx"
    bad.write_bytes(data[: len(data) // 2])
    proc = compile_expect_error(compile_tool, bad, tmp_path)
    assert_mentions(proc, r"pars", "that the file could not be parsed")


def test_random_bytes_model(compile_tool, tmp_path):
    data = bytearray(np.random.default_rng(7).bytes(4096))
    # Field 1 with wire type 7, which no protobuf parser accepts, so the
    # file is invalid whatever the random bytes that follow.
    data[0] = 0x0F
    bad = tmp_path / "random_bytes.onnx"
    bad.write_bytes(bytes(data))
    proc = compile_expect_error(compile_tool, bad, tmp_path)
    assert_mentions(proc, r"pars", "that the file could not be parsed")


def test_nonexistent_model(compile_tool, tmp_path):
    missing = tmp_path / "no_such_model.onnx"
    proc = compile_expect_error(compile_tool, missing, tmp_path)
    assert_mentions(proc, r"no_such_model\.onnx", "the path", in_paths=True)


# ---------------------------------------------------------------------------
# The compiler, given ops it cannot legalize.


def bernoulli_model():
    """A supported Relu, then Bernoulli (default domain, a random op no
    target supports): the error must name the second node, not the
    first."""
    g = Graph("unsupported_bernoulli")
    h = g.node("Relu", [g.input("x", [3, 4])], name="relu_first")
    g.node("Bernoulli", [h], outputs=["coin"], name="flip_coins")
    model = g.model(check=False)
    model.graph.output.extend(
        [helper.make_tensor_value_info("coin", TensorProto.FLOAT, [3, 4])])
    onnx.checker.check_model(model, full_check=True)
    return model


def frobnicate_model():
    """An op of a custom domain, imported at version 3."""
    g = Graph("unsupported_custom")
    g.node("Frobnicate", [g.input("x", [2, 3])], outputs=["y"],
           name="frob_node", domain="com.example", strength=2)
    model = g.model(extra_opsets=[("com.example", 3)], check=False)
    model.graph.output.extend(
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    onnx.checker.check_model(model)
    return model


@pytest.mark.parametrize("build, node, op, domain, opset", [
    (bernoulli_model, "flip_coins", "Bernoulli", "ai.onnx", 17),
    (frobnicate_model, "frob_node", "Frobnicate", "com.example", 3),
], ids=["Bernoulli", "com.example.Frobnicate"])
def test_unsupported_op(compile_tool, tmp_path, build, node, op, domain,
                        opset):
    path = tmp_path / "model.onnx"
    onnx.save_model(build(), path)
    proc = compile_expect_error(compile_tool, path, tmp_path)
    assert_mentions(proc, word(node), f"the node name {node!r}")
    assert_mentions(proc, word(op), f"the op type {op!r}")
    assert_mentions(proc, word(domain), f"the domain {domain!r}")
    assert_mentions(proc, rf"opset\W{{0,3}}{opset}\b", f"opset {opset}")


# ---------------------------------------------------------------------------
# The runner, given bad inputs. The model's input names are distinctive so
# that a message naming them cannot match by accident.

LEFT, RIGHT = "left_in", "right_in"
SHAPES = {LEFT: [5, 7], RIGHT: [7]}


@pytest.fixture(scope="module")
def add_artifact(compile_tool, tmp_path_factory):
    """An artifact of sum_out = left_in[5,7] + right_in[7], and good inputs."""
    d = tmp_path_factory.mktemp("run_errors")
    g = Graph("run_errors")
    g.output(g.node("Add", [g.input(LEFT, SHAPES[LEFT]),
                            g.input(RIGHT, SHAPES[RIGHT])],
                    outputs=["sum_out"], name="add_node"))
    onnx.save_model(g.model(), d / "add.onnx")
    proc = S.compile_model(compile_tool, d / "add.onnx", d / "add.otsa")
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    rng = np.random.default_rng(3)
    good = {n: rng.uniform(-1, 1, s).astype(np.float32)
            for n, s in SHAPES.items()}
    return d / "add.otsa", S.save_inputs(good, d / "good")


def run_expect_error(run_tool, artifact, inputs, tmp_path, *extra, **kw):
    out = tmp_path / "outputs"
    out.mkdir(exist_ok=True)
    proc = S.run_artifact(run_tool, artifact, inputs, out, *extra, **kw)
    assert_clean_error(proc, S.RUN, exit_code=1)
    return proc


def test_good_inputs_control(run_tool, add_artifact, tmp_path):
    """The same artifact and inputs the error cases start from do run."""
    artifact, good = add_artifact
    proc = S.run_artifact(run_tool, artifact, good, tmp_path)
    assert proc.returncode == 0, f"control run failed{S.describe(proc)}"
    got = np.load(tmp_path / "sum_out.npy")
    want = np.load(good[LEFT]) + np.load(good[RIGHT])
    np.testing.assert_allclose(got, want, rtol=S.RTOL, atol=S.ATOL)


def test_unknown_input_name(run_tool, add_artifact, tmp_path):
    artifact, good = add_artifact
    inputs = {**good, "no_such_input": good[RIGHT]}
    proc = run_expect_error(run_tool, artifact, inputs, tmp_path)
    assert_mentions(proc, word("no_such_input"), "the unknown input name")


@pytest.mark.parametrize("name, shape", [(RIGHT, [6]), (LEFT, [7, 5]),
                                         (LEFT, [5, 7, 1])],
                         ids=["size", "transposed", "rank"])
def test_wrong_shape(run_tool, add_artifact, tmp_path, name, shape):
    artifact, good = add_artifact
    bad = tmp_path / "bad_shape.npy"
    np.save(bad, np.zeros(shape, np.float32))
    proc = run_expect_error(run_tool, artifact, {**good, name: bad}, tmp_path)
    assert_mentions(proc, word(name), f"the input {name!r}")
    assert_mentions(proc, r"expect", "what shape was expected")


def test_wrong_size_names_both_shapes(run_tool, add_artifact, tmp_path):
    artifact, good = add_artifact
    bad = tmp_path / "bad_shape.npy"
    np.save(bad, np.zeros([6], np.float32))
    proc = run_expect_error(run_tool, artifact, {**good, RIGHT: bad},
                            tmp_path)
    assert_mentions(proc, r"\b7\b", "the expected size 7")
    assert_mentions(proc, r"\b6\b", "the given size 6")


@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_wrong_dtype(run_tool, add_artifact, tmp_path, dtype):
    artifact, good = add_artifact
    bad = tmp_path / f"{dtype}.npy"
    np.save(bad, np.zeros(SHAPES[LEFT], dtype))
    proc = run_expect_error(run_tool, artifact, {**good, LEFT: bad}, tmp_path)
    assert_mentions(proc, word(LEFT), f"the input {LEFT!r}")
    assert_mentions(proc, word(dtype), f"the given dtype {dtype}")
    assert_mentions(proc, word("float32"), "the expected dtype float32")


def test_missing_input(run_tool, add_artifact, tmp_path):
    artifact, good = add_artifact
    proc = run_expect_error(run_tool, artifact, {LEFT: good[LEFT]}, tmp_path)
    assert_mentions(proc, word(RIGHT), f"the missing input {RIGHT!r}")


def test_input_file_missing(run_tool, add_artifact, tmp_path):
    artifact, good = add_artifact
    inputs = {**good, LEFT: tmp_path / "absent_input.npy"}
    proc = run_expect_error(run_tool, artifact, inputs, tmp_path)
    assert_mentions(proc, r"absent_input\.npy", "the missing file",
                    in_paths=True)


# ---------------------------------------------------------------------------
# The runner, asked for devices that are not there.


def cuda_present():
    if shutil.which("nvidia-smi") is None:
        return False
    try:
        return subprocess.run(["nvidia-smi"], capture_output=True,
                              timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def test_cuda_device_absent(run_tool, add_artifact, tmp_path):
    if cuda_present():
        pytest.skip("this machine has a working CUDA device")
    artifact, good = add_artifact
    proc = run_expect_error(run_tool, artifact, good, tmp_path,
                            device="cuda:0")
    assert_mentions(proc, r"cuda", "the CUDA device")


def test_vulkan_loader_absent(run_tool, add_artifact, tmp_path):
    """The runtime opens the Vulkan loader at run time: without one, a
    Vulkan device is a clean error naming the loader."""
    artifact, good = add_artifact
    missing = tmp_path / "no-such-libvulkan.so.1"
    proc = run_expect_error(run_tool, artifact, good, tmp_path,
                            device="vulkan",
                            env={"ONNX_TOSA_VULKAN_LOADER": str(missing)})
    assert_mentions(proc, r"Vulkan loader", "the Vulkan loader")
    assert_mentions(proc, re.escape(missing.name), "the library's name",
                    in_paths=True)


def test_runtime_links_no_gpu_library(run_tool):
    """libvulkan and libcuda are opened at run time, never linked, so that
    a machine with only one of them runs that one's artifacts."""
    library = S.BIN_DIR.parent / "lib" / "libonnx_tosa_runtime.so"
    for binary in (run_tool, library):
        if not binary.is_file():
            continue
        proc = subprocess.run(["readelf", "-d", binary], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            pytest.skip("readelf is missing")
        needed = re.findall(r"\(NEEDED\).*\[(.*)\]", proc.stdout)
        assert needed and not [n for n in needed
                               if "vulkan" in n or "cuda" in n], needed


def test_bogus_device(run_tool, add_artifact, tmp_path):
    artifact, good = add_artifact
    proc = run_expect_error(run_tool, artifact, good, tmp_path,
                            device="bogus")
    assert_mentions(proc, word("bogus"), "the device that was asked for")


# ---------------------------------------------------------------------------
# The runner, given artifacts that are not whole.

ARTIFACT_PROBLEM = r"artifact|corrupt|truncat|invalid|magic|version|pars|read"


def huge_length_artifact(_):
    """A valid header (magic, version 1, target), then a model-name length
    of 2^60 bytes: the reader must refuse it, not try to allocate it."""
    target = {"cuda": 1, "vulkan": 2}.get(S.TARGET, 2)
    return (b"OTSAART\0" + struct.pack("<II", 1, target)
            + struct.pack("<Q", 1 << 60) + b"model")


@pytest.mark.parametrize("make", [
    lambda data: data[: len(data) // 2],
    lambda data: data[:12],
    lambda data: b"",
    lambda data: np.random.default_rng(11).bytes(len(data)),
    huge_length_artifact,
], ids=["half", "header_only", "empty", "random_bytes", "huge_length"])
def test_corrupt_artifact(run_tool, add_artifact, tmp_path, make):
    artifact, good = add_artifact
    bad = tmp_path / "corrupt.otsa"
    bad.write_bytes(make(artifact.read_bytes()))
    proc = run_expect_error(run_tool, bad, good, tmp_path)
    assert_mentions(proc, rf"corrupt\.otsa|{ARTIFACT_PROBLEM}",
                    "the artifact or what is wrong with it", in_paths=True)


def test_nonexistent_artifact(run_tool, add_artifact, tmp_path):
    _, good = add_artifact
    proc = run_expect_error(run_tool, tmp_path / "no_such.otsa", good,
                            tmp_path)
    assert_mentions(proc, r"no_such\.otsa", "the path", in_paths=True)


# ---------------------------------------------------------------------------
# Files that are not regular files: a FIFO would block a reader forever,
# /dev/zero never end. Each is a clean error, at once.

SPECIAL_TIMEOUT_S = 60


def test_fifo_model(compile_tool, tmp_path):
    fifo = tmp_path / "model.onnx"
    os.mkfifo(fifo)
    proc = S.call([compile_tool, fifo, f"--target={S.TARGET}", "-o",
                   tmp_path / "out.otsa"], timeout=SPECIAL_TIMEOUT_S)
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, "not a regular file", "the kind of file")


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_special_file_artifact(run_tool, add_artifact, tmp_path, special):
    _, good = add_artifact
    path = tmp_path / "model.otsa"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path = Path(special)
    out = tmp_path / "outputs"
    out.mkdir()
    proc = S.run_artifact(run_tool, path, good, out)
    assert_clean_error(proc, S.RUN, exit_code=1)
    assert_mentions(proc, "not a regular file", "the kind of file")


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_special_file_input(run_tool, add_artifact, tmp_path, special):
    artifact, good = add_artifact
    path = tmp_path / "left.npy"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path = Path(special)
    proc = run_expect_error(run_tool, artifact, {**good, LEFT: path},
                            tmp_path)
    assert_mentions(proc, "not a regular file", "the kind of file")
    assert_mentions(proc, word(LEFT), "the input")


def test_external_data_symlink_outside_the_folder(compile_tool, tmp_path):
    """A weight file that links outside the model's folder is refused, and
    nothing of the linked file reaches an artifact."""
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"TOPSECRET-BYTES!")  # 16 bytes: a [4] float tensor
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "w.bin").symlink_to(secret)
    g = Graph("external_link")
    x = g.input("x", [4])
    g.inits.append(helper.make_tensor("w", TensorProto.FLOAT, [4],
                                      vals=[0.0] * 4))
    g.output(g.node("Add", [x, "w"], outputs=["y"], name="add_w"))
    model = g.model()
    w = model.graph.initializer[0]
    w.ClearField("float_data")
    w.data_location = TensorProto.EXTERNAL
    entry = w.external_data.add()
    entry.key, entry.value = "location", "w.bin"
    onnx.save_model(model, folder / "model.onnx")
    artifact = tmp_path / "out.otsa"
    proc = S.compile_model(compile_tool, folder / "model.onnx", artifact)
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, "outside the model's folder", "the escape")
    assert_mentions(proc, word("w"), "the tensor")
    assert not artifact.exists()


# ---------------------------------------------------------------------------
# Attributes of the wrong type are errors, not their defaults.

def wrong_type_model(op, attr, value, inputs, name):
    g = Graph(f"wrong_attr_{op}")
    names = [g.input(n, s) for n, s in inputs]
    node = helper.make_node(op, names, ["y"], name=name)
    node.attribute.append(helper.make_attribute(attr, value))
    g.nodes.append(node)
    model = g.model(check=False)
    model.graph.output.extend(
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return model


@pytest.mark.parametrize("op, attr, value, inputs, given, want", [
    ("Gemm", "alpha", 3, [("a", [2, 3]), ("b", [3, 4])], "INT", "FLOAT"),
    ("Conv", "strides", 2, [("x", [1, 1, 5, 5]), ("w", [1, 1, 3, 3])],
     "INT", "INTS"),
    ("LeakyRelu", "alpha", "0.1", [("x", [4])], "STRING", "FLOAT"),
], ids=["Gemm.alpha", "Conv.strides", "LeakyRelu.alpha"])
def test_attribute_of_the_wrong_type(compile_tool, tmp_path, op, attr, value,
                                     inputs, given, want):
    path = tmp_path / "model.onnx"
    onnx.save_model(wrong_type_model(op, attr, value, inputs, "the_node"),
                    path)
    proc = compile_expect_error(compile_tool, path, tmp_path)
    assert_mentions(proc, word("the_node"), "the node")
    assert_mentions(proc, rf"attribute '{attr}' must be {want}, but the model "
                    rf"gives {given}", "the attribute and both types")


def test_every_unsupported_node_in_one_run(compile_tool, tmp_path):
    """Three unsupported nodes on their own paths are all reported by one
    compile; a node that only uses what one of them computes is not (its
    error would repeat the first)."""
    g = Graph("several_unsupported")
    x = g.input("x", [3, 4])
    coins = g.node("Bernoulli", [x], name="flip_coins")
    g.node("Cast", [coins], name="uses_coins", to=TensorProto.INT32)
    g.node("Frobnicate", [x], name="frob_node", domain="com.example")
    g.node("RandomUniformLike", [x], outputs=["u"], name="random_node")
    g.output(g.node("Relu", [x], outputs=["y"], name="fine_relu"))
    model = g.model(extra_opsets=[("com.example", 1)], check=False)
    path = tmp_path / "model.onnx"
    onnx.save_model(model, path)
    proc = compile_expect_error(compile_tool, path, tmp_path)
    errors = [l for l in proc.stderr.splitlines() if ": error: " in l]
    for node in ("flip_coins", "frob_node", "random_node"):
        assert sum(f"node '{node}'" in l for l in errors) == 1, (
            f"{node} not reported once{S.describe(proc)}")
    assert not any("uses_coins" in l or "fine_relu" in l for l in errors), (
        S.describe(proc))


# ---------------------------------------------------------------------------
# Found by test/fuzz/mutate_models.py: each crashed the compiler.


def save_graph(tmp_path, nodes, inputs, outputs, inits=(), opset=17):
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        helper.make_graph(nodes, "fuzzed", inputs, outputs,
                          initializer=list(inits)),
        opset_imports=[helper.make_opsetid("", opset)]), path)
    return path


def test_input_too_large_to_index(compile_tool, tmp_path):
    """More elements than 32-bit indices reach: refused by name (it ran out
    of memory building a Compress of it)."""
    path = save_graph(
        tmp_path, [helper.make_node("Relu", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [3, 1000000000, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [3, 1000000000, 8])])
    proc = compile_expect_error(compile_tool, path, tmp_path)
    assert_mentions(proc, r"graph input 'x' has 24000000000 elements",
                    "the input and its size")
    assert_mentions(proc, "2147483647", "the limit")


def test_conv_transpose_of_an_empty_input(compile_tool, tmp_path):
    """A zero-sized dimension (it sliced a negative length and ran out of
    memory)."""
    w = helper.make_tensor("w", TensorProto.FLOAT, [4, 2, 2, 2],
                           [0.5] * 32)
    path = save_graph(
        tmp_path,
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up",
                          strides=[2, 2])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 0, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
    proc = compile_expect_error(compile_tool, path, tmp_path)
    assert_mentions(proc, word("up"), "the node")
    assert_mentions(proc, "empty", "why")


def test_gather_by_constant_float_indices(compile_tool, run_tool, tmp_path):
    """Indices a model gives as floats (ONNX wants integers) are floored,
    as run-time ones are, instead of read as integers (a crash)."""
    idx = helper.make_tensor("idx", TensorProto.FLOAT, [3], [2.0, 0.5, 1.9])
    path = save_graph(
        tmp_path, [helper.make_node("Gather", ["x", "idx"], ["y"], axis=0)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])], [idx])
    x = np.array([10, 11, 12, 13], np.float32)
    _, _, got = S.compile_and_run(compile_tool, run_tool, path, {"x": x},
                                  tmp_path)
    np.testing.assert_array_equal(got["y"], [12, 10, 11])


@pytest.mark.parametrize("node, inputs, inits", [
    (helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="zero_stride",
                      strides=[0, 1]),
     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
     [helper.make_tensor("w", TensorProto.FLOAT, [2, 2, 2, 2], [0.5] * 16)]),
    (helper.make_node("GlobalAveragePool", ["x"], ["y"], name="empty_pool"),
     [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 5, 0])],
     []),
], ids=["conv_transpose_stride_0", "global_pool_of_empty"])
def test_invalid_window_is_refused_cleanly(compile_tool, tmp_path, node,
                                           inputs, inits):
    """Found by mutate_models.py: these were refused as 'internal error:
    emitted invalid tosa...'; now the reason is the model's."""
    path = save_graph(tmp_path, [node], inputs,
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                     None)], inits)
    proc = compile_expect_error(compile_tool, path, tmp_path)
    assert_mentions(proc, word(node.name), "the node")
    assert "internal error" not in proc.stderr, S.describe(proc)
