"""onnx-tosa-run --profile: every kernel launch of the model is timed on
its own and listed, slowest first, with the kernel it runs; the outputs of
the run are unchanged by it."""
import re

import numpy as np
import onnx
import pytest

import e2e_support as S
from e2e_support import assert_clean_error, assert_mentions

ROW_RE = re.compile(r"^\s+(\d+)\s+([\d.]+)\s+([\d.]+)%\s+(\d+x\d+x\d+)\s+"
                    r"(\d+x\d+x\d+)\s+(\S+::\S+)(?:\s+(.*))?$")


@pytest.fixture(scope="module")
def mlp(compile_tool, tmp_path_factory):
    d = tmp_path_factory.mktemp("profile")
    path = d / "mlp.onnx"
    onnx.save_model(S.make_models.build("mlp"), path)
    artifact = d / "mlp.otsa"
    proc = S.compile_model(compile_tool, path, artifact)
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    m = re.search(r"(\d+) kernel launch(?:es)?\b", proc.stdout)
    assert m, f"no launch count reported{S.describe(proc)}"
    feeds = S.make_models.make_inputs(onnx.load(path),
                                      S.make_models.name_seed("mlp"))
    return path, artifact, int(m.group(1)), S.save_inputs(feeds, d), feeds


def test_profile_lists_every_launch(run_tool, mlp, tmp_path):
    path, artifact, launches, inputs, feeds = mlp
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path, "--profile=3")
    assert proc.returncode == 0, f"running failed{S.describe(proc)}"
    S.assert_no_crash(proc)
    head = re.search(r"profile: (\d+) launches, each alone \(median of 3\), "
                     r"sum ([\d.]+) ms", proc.stdout)
    assert head, f"no profile header{S.describe(proc)}"
    assert int(head.group(1)) == launches
    rows = [ROW_RE.match(line) for line in proc.stdout.splitlines()]
    rows = [r for r in rows if r]
    # At most 25 rows are listed; the mlp has fewer launches.
    assert len(rows) == min(launches, 25), f"rows missing{S.describe(proc)}"
    assert sorted(int(r.group(1)) for r in rows) == list(range(len(rows)))
    ms = [float(r.group(2)) for r in rows]
    assert ms == sorted(ms, reverse=True), "not slowest first"
    assert all(t > 0 for t in ms)
    assert sum(float(r.group(3)) for r in rows) == pytest.approx(100, abs=1)
    # Each launch names the ONNX nodes it computes: model authors see which
    # node is slow. Every node name listed is one of the model's, and every
    # node with work of its own (all of the mlp's) appears.
    nodes = {n.name for n in onnx.load(path).graph.node}
    listed = [r.group(7) for r in rows]
    assert all(listed), f"launches without node names{S.describe(proc)}"
    named = {n for names in listed for n in names.split(", ")}
    assert named <= nodes, named - nodes
    assert named == nodes, f"no launch for {nodes - named}"
    # The outputs of the run that preceded the profile are still right.
    for name, ref in S.onnxruntime_outputs(path, feeds).items():
        got = np.load(tmp_path / f"{name}.npy")
        np.testing.assert_allclose(got, ref, rtol=S.RTOL, atol=S.ATOL)


@pytest.mark.parametrize("rows", [1, 0])
def test_profile_rows(run_tool, mlp, tmp_path, rows):
    """--profile-rows=N lists the N slowest launches, 0 every one."""
    _, artifact, launches, inputs, _ = mlp
    assert launches > 1  # so that one row is fewer than all
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path, "--profile=2",
                          f"--profile-rows={rows}")
    assert proc.returncode == 0, f"running failed{S.describe(proc)}"
    listed = [r for r in map(ROW_RE.match, proc.stdout.splitlines()) if r]
    assert len(listed) == (rows or launches), f"{S.describe(proc)}"


@pytest.mark.parametrize("value", ["-1", "x", ""])
def test_bad_profile_rows_is_refused(run_tool, mlp, tmp_path, value):
    _, artifact, _, inputs, _ = mlp
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path, "--profile",
                          f"--profile-rows={value}")
    assert_clean_error(proc, S.RUN)
    assert_mentions(proc, r"--profile-rows", "the option")


@pytest.mark.parametrize("value", ["0", "x", "10001"])
def test_bad_profile_count_is_refused(run_tool, mlp, tmp_path, value):
    _, artifact, _, inputs, _ = mlp
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path,
                          f"--profile={value}")
    assert_clean_error(proc, S.RUN)
    assert_mentions(proc, r"--profile", "the option")


BENCH_RE = re.compile(r"benchmark: 5 runs, median ([\d.]+) ms, min ([\d.]+) "
                      r"ms; execute median ([\d.]+) ms, min ([\d.]+) ms"
                      r"(?:; device median ([\d.]+) ms, min ([\d.]+) ms)?$",
                      re.M)


def test_benchmark_reports_host_and_device_times(run_tool, mlp, tmp_path):
    """--benchmark: whole runs and their kernels by the host's clock, and
    the kernels by the device's timer (CUDA events; Vulkan timestamps where
    the queue has them, as lavapipe's does), which sees only part of what
    the host's clock does (no launch or wake-up latency)."""
    path, artifact, _, inputs, feeds = mlp
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path,
                          "--benchmark=5")
    assert proc.returncode == 0, f"running failed{S.describe(proc)}"
    m = BENCH_RE.search(proc.stdout)
    assert m, f"no benchmark line{S.describe(proc)}"
    total, total_min, execute, execute_min = map(float, m.group(1, 2, 3, 4))
    assert 0 < total_min <= total and 0 < execute_min <= execute
    assert execute_min <= total_min
    if S.TARGET == "cuda":
        assert m.group(5), f"no device time on CUDA{S.describe(proc)}"
    if m.group(5):
        device, device_min = float(m.group(5)), float(m.group(6))
        assert 0 < device_min <= device <= execute
    for name, ref in S.onnxruntime_outputs(path, feeds).items():
        np.testing.assert_allclose(np.load(tmp_path / f"{name}.npy"), ref,
                                   rtol=S.RTOL, atol=S.ATOL)


@pytest.mark.skipif(S.TARGET != "vulkan", reason="Vulkan drivers only")
def test_vulkan_pipeline_statistics(run_tool, mlp, tmp_path):
    """ONNX_TOSA_VULKAN_PIPELINE_STATS=1: a driver with
    VK_KHR_pipeline_executable_properties reports each kernel's statistics
    once (to stderr), one that has none says so, naming the device; the run
    and its outputs are the same either way."""
    path, artifact, launches, inputs, feeds = mlp
    proc = S.run_artifact(run_tool, artifact, inputs, tmp_path, "--profile=2",
                          env={"ONNX_TOSA_VULKAN_PIPELINE_STATS": "1"})
    assert proc.returncode == 0, f"running failed{S.describe(proc)}"
    S.assert_no_crash(proc)
    stats = re.findall(r"^vulkan kernel (\S+::\S+): (\S.*=.*)$", proc.stderr,
                       re.M)
    if stats:
        kernels = [k for k, _ in stats]
        # Once per kernel, though the profile builds the pipelines again.
        assert len(kernels) == len(set(kernels)) <= launches
    else:
        assert re.search(r"ONNX_TOSA_VULKAN_PIPELINE_STATS: '.+' does not "
                         r"report pipeline statistics", proc.stderr), \
            f"neither statistics nor a note{S.describe(proc)}"
    for name, ref in S.onnxruntime_outputs(path, feeds).items():
        got = np.load(tmp_path / f"{name}.npy")
        np.testing.assert_allclose(got, ref, rtol=S.RTOL, atol=S.ATOL)


def test_identical_layers_share_one_kernel_module(compile_tool, run_tool,
                                                   tmp_path):
    """Three layers of the same shapes (different weights) compile to the
    same kernels, which the artifact stores once: the profile names one
    module for the same kernel of every layer, and the outputs are right."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(3)
    nodes, inits, x = [], [], "x"
    for i in range(3):
        inits += [numpy_helper.from_array(
            rng.standard_normal((64, 64)).astype(np.float32) / 8, f"w{i}")]
        nodes += [helper.make_node("MatMul", [x, f"w{i}"], [f"m{i}"]),
                  helper.make_node("Relu", [f"m{i}"], [f"r{i}"])]
        x = f"r{i}"
    graph = helper.make_graph(
        nodes, "layers",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [32, 64])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [32, 64])],
        inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = tmp_path / "layers.onnx"
    onnx.save_model(model, path)
    feeds = {"x": rng.uniform(-1, 1, (32, 64)).astype(np.float32)}
    _, artifact, got = S.compile_and_run(compile_tool, run_tool, path, feeds,
                                         tmp_path)
    ref = S.onnxruntime_outputs(path, feeds)[x]
    np.testing.assert_allclose(got[x], ref, rtol=S.RTOL, atol=S.ATOL)
    proc = S.run_artifact(run_tool, artifact,
                          S.save_inputs(feeds, tmp_path / "again"),
                          tmp_path / "profiled", "--profile=1",
                          "--profile-rows=0")
    assert proc.returncode == 0, f"running failed{S.describe(proc)}"
    rows = [r for r in map(ROW_RE.match, proc.stdout.splitlines()) if r]
    kernels = [r.group(6) for r in rows]
    assert len(kernels) % 3 == 0 and len(kernels) >= 3, S.describe(proc)
    # Each kernel of the layer runs three times, always from one module.
    assert all(kernels.count(k) == 3 for k in kernels), kernels
