"""onnx-tosa behind NVIDIA Triton Inference Server (PyTriton), on this
machine's Vulkan device (lavapipe without a GPU): the real server started on
loopback with two instances of a model, Triton's own HTTP and gRPC clients,
2000 requests from 8 concurrent clients each checked against onnxruntime
with none lost or answered twice, malformed requests mid-load refused with
the input named while the rest are answered, metrics, and a clean shutdown.

Runs in .venv-serve (scripts/requirements-serve.txt):
    .venv-serve/bin/python -m pytest test/serving
"""
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
import onnxruntime
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test" / "models"))
import make_models  # noqa: E402

sys.path.insert(0, str(REPO / "python"))
from onnx_tosa import serving  # noqa: E402

tritonclient_http = pytest.importorskip("tritonclient.http")
tritonclient_grpc = pytest.importorskip("tritonclient.grpc")
from tritonclient.utils import InferenceServerException  # noqa: E402

REQUESTS = 2000
CLIENTS = 8
# onnxruntime's results against lavapipe's, as the end-to-end tests compare
# them (test/e2e/e2e_support.py).
RTOL, ATOL = 1e-4, 1e-5
# Liveness bounds (not speed measurements): how long the server may take
# to come up (a compile of the model included), the load to be answered,
# and the server to shut down.
START_SECONDS = 240
LOAD_SECONDS = 600
STOP_SECONDS = 60


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    out = tmp_path_factory.mktemp("model")
    return make_models.write_models(out, ["mlp"])["mlp"]


def start_server(model, tmp_path_factory, *extra):
    """onnx-tosa-serve with 2 instances of `model` on the Vulkan device,
    once it says it is ready; returns (process, [http, grpc, metrics
    ports])."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO / "python")] + [p for p in [env.get("PYTHONPATH")] if p])
    env.setdefault("ONNX_TOSA_BIN_DIR", str(REPO / "build" / "bin"))
    env["ONNX_TOSA_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    log = tmp_path_factory.mktemp("log") / "server.log"
    try:
        proc, ports = serving.spawn(
            model, "--device",
            os.environ.get("ONNX_TOSA_SERVE_DEVICE", "vulkan"),
            "--instances", "2", *extra, log_path=log, env=env,
            timeout=START_SECONDS)
    except RuntimeError as e:
        pytest.fail(str(e))
    proc.log = log
    return proc, ports


@pytest.fixture(scope="module")
def server(model, tmp_path_factory):
    proc, ports = start_server(model, tmp_path_factory)
    yield proc, ports
    if proc.poll() is None:
        proc.kill()


def inputs_for(i):
    return np.random.default_rng(i).uniform(-1, 1, (4, 64)).astype(np.float32)


def test_model_metadata_and_health(server):
    _, (http, _, _) = server
    client = tritonclient_http.InferenceServerClient(f"127.0.0.1:{http}")
    assert client.is_server_live() and client.is_server_ready()
    assert client.is_model_ready("mlp")
    config = client.get_model_config("mlp")
    assert config["instance_group"][0]["count"] == 2, config
    assert [t["name"] for t in config["input"]] == ["x"]
    assert config["input"][0]["dims"] == [4, 64]
    assert [t["name"] for t in config["output"]] == ["y"]


def test_load_with_faults(server, model):
    """2000 requests (half HTTP, half gRPC) from 8 clients, each answered
    once with onnxruntime's result; meanwhile malformed requests (an
    unknown input, a wrong shape, a wrong type) get 400s naming the input."""
    _, (http, grpc, _) = server
    ort = onnxruntime.InferenceSession(str(model),
                                       providers=["CPUExecutionProvider"])
    want = {i: ort.run(["y"], {"x": inputs_for(i)})[0]
            for i in range(REQUESTS)}
    work = queue.Queue()
    for i in range(REQUESTS):
        work.put(i)
    answered, errors, lock = {}, [], threading.Lock()

    def client(k):
        grpc_client = k % 2 == 1
        module = tritonclient_grpc if grpc_client else tritonclient_http
        c = module.InferenceServerClient(
            f"127.0.0.1:{grpc if grpc_client else http}")
        while True:
            try:
                i = work.get_nowait()
            except queue.Empty:
                return
            x = inputs_for(i)
            inp = module.InferInput("x", list(x.shape), "FP32")
            inp.set_data_from_numpy(x)
            try:
                y = c.infer("mlp", [inp], request_id=str(i)).as_numpy("y")
            except Exception as e:  # recorded, asserted on below
                with lock:
                    errors.append((i, repr(e)))
                continue
            with lock:
                answered.setdefault(i, []).append(y)

    faults = []

    def malformed():
        c = tritonclient_http.InferenceServerClient(f"127.0.0.1:{http}")
        cases = [("z", (4, 64), np.float32, "'z'"),
                 ("x", (5, 64), np.float32, "shape for input 'x'"),
                 ("x", (4, 64), np.int32, "input 'x' data-type")]
        for round_ in range(10):
            for name, shape, dtype, expect in cases:
                inp = tritonclient_http.InferInput(
                    name, list(shape),
                    "FP32" if dtype == np.float32 else "INT32")
                inp.set_data_from_numpy(np.zeros(shape, dtype))
                try:
                    c.infer("mlp", [inp])
                    faults.append((name, shape, "answered"))
                except InferenceServerException as e:
                    faults.append((name, shape, e.status(), e.message(),
                                   expect))
            time.sleep(0.05)

    threads = [threading.Thread(target=client, args=(k,))
               for k in range(CLIENTS)]
    threads.append(threading.Thread(target=malformed))
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(1, LOAD_SECONDS - (time.monotonic() - start)))
    assert not any(t.is_alive() for t in threads), "the load did not finish"
    assert not errors, errors[:5]
    assert sorted(answered) == list(range(REQUESTS)), "lost requests"
    assert all(len(v) == 1 for v in answered.values()), "answered twice"
    for i, (y,) in answered.items():
        np.testing.assert_allclose(y, want[i], rtol=RTOL, atol=ATOL,
                                   err_msg=f"request {i}")
    assert len(faults) == 30
    for fault in faults:
        assert fault[2] == "400", fault
        assert fault[4] in fault[3], fault


def test_metrics_count_the_requests(server):
    _, (_, _, metrics) = server
    text = urllib.request.urlopen(
        f"http://127.0.0.1:{metrics}/metrics", timeout=30).read().decode()
    counts = {line.split()[0]: float(line.split()[1])
              for line in text.splitlines()
              if line.startswith("nv_inference_request_success{")}
    ours = [v for k, v in counts.items() if 'model="mlp"' in k]
    assert ours and ours[0] >= REQUESTS, counts


def test_clean_shutdown(server):
    proc, (http, _, _) = server
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the server did not stop on SIGTERM")
    assert code == 0, proc.log.read_text()[-4000:]
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", http), timeout=5).close()


# Dynamic batching ------------------------------------------------------------

BATCHES = [1, 2, 4, 8]


@pytest.fixture(scope="module")
def batched_model(tmp_path_factory):
    """x[N, 64] -> Gemm -> Relu -> Gemm -> Softmax -> y[N, 10], N symbolic:
    rows computed independently of each other."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(7)
    w1 = numpy_helper.from_array(
        rng.uniform(-0.5, 0.5, (64, 32)).astype(np.float32), "w1")
    w2 = numpy_helper.from_array(
        rng.uniform(-0.5, 0.5, (32, 10)).astype(np.float32), "w2")
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w1"], ["h"]),
         helper.make_node("Relu", ["h"], ["r"]),
         helper.make_node("Gemm", ["r", "w2"], ["z"]),
         helper.make_node("Softmax", ["z"], ["y"], axis=-1)],
        "batched_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 10])],
        [w1, w2])
    path = tmp_path_factory.mktemp("batched") / "batched.onnx"
    onnx.save_model(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=10),
        path)
    return path


@pytest.fixture(scope="module")
def batched_server(batched_model, tmp_path_factory):
    proc, ports = start_server(
        batched_model, tmp_path_factory, "--dynamic-batching",
        "--compile-option", "dim=N=" + ",".join(map(str, BATCHES)))
    yield proc, ports
    if proc.poll() is None:
        proc.kill()


def test_dynamic_batching(batched_server, batched_model):
    """800 requests of 1 or 2 rows from 8 clients: Triton's batcher runs
    them in fewer executions (padded to a compiled batch), and each
    request gets onnxruntime's rows for its own input; a request of more
    rows than the largest batch is refused."""
    _, (http, grpc, metrics) = batched_server
    client = tritonclient_http.InferenceServerClient(f"127.0.0.1:{http}")
    config = client.get_model_config("batched")
    assert config["max_batch_size"] == BATCHES[-1], config
    assert config["input"][0]["dims"] == [64], config
    ort = onnxruntime.InferenceSession(str(batched_model),
                                       providers=["CPUExecutionProvider"])
    total = 800

    def rows(i):
        return np.random.default_rng(10_000 + i).uniform(
            -1, 1, (1 + i % 2, 64)).astype(np.float32)

    answered, errors, lock = {}, [], threading.Lock()

    def run(k):
        module = tritonclient_grpc if k % 2 else tritonclient_http
        c = module.InferenceServerClient(
            f"127.0.0.1:{grpc if k % 2 else http}")
        for i in range(k, total, CLIENTS):
            x = rows(i)
            inp = module.InferInput("x", list(x.shape), "FP32")
            inp.set_data_from_numpy(x)
            try:
                y = c.infer("batched", [inp]).as_numpy("y")
            except Exception as e:  # recorded, asserted on below
                with lock:
                    errors.append((i, repr(e)))
                continue
            with lock:
                answered.setdefault(i, []).append(y)

    threads = [threading.Thread(target=run, args=(k,))
               for k in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=LOAD_SECONDS)
    assert not any(t.is_alive() for t in threads), "the load did not finish"
    assert not errors, errors[:5]
    assert sorted(answered) == list(range(total))
    for i, ys in answered.items():
        assert len(ys) == 1, f"request {i} answered {len(ys)} times"
        np.testing.assert_allclose(ys[0], ort.run(["y"], {"x": rows(i)})[0],
                                   rtol=RTOL, atol=ATOL,
                                   err_msg=f"request {i}")
    text = urllib.request.urlopen(
        f"http://127.0.0.1:{metrics}/metrics", timeout=30).read().decode()

    def metric(name):
        for line in text.splitlines():
            if line.startswith(name + "{") and 'model="batched"' in line:
                return float(line.split()[1])
        raise AssertionError(f"no {name} for the model in the metrics")

    requests = metric("nv_inference_request_success")
    executions = metric("nv_inference_exec_count")
    print(f"\ndynamic batching: {requests:.0f} requests in "
          f"{executions:.0f} executions")
    assert requests >= total
    assert executions < requests, (executions, requests)
    # More rows than the largest compiled batch: Triton refuses it.
    x = np.zeros((BATCHES[-1] + 1, 64), np.float32)
    inp = tritonclient_http.InferInput("x", list(x.shape), "FP32")
    inp.set_data_from_numpy(x)
    with pytest.raises(InferenceServerException) as refused:
        client.infer("batched", [inp])
    assert refused.value.status() == "400", refused.value
