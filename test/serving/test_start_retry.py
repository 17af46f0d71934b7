"""serve() starts Triton again when an instance lost PyTriton's start-up
race, and only then: Triton's Python backend starts a model's instances in
parallel and one that asks for the model's configuration before the first
instance serves it fails the model's load. It happened once in CI (2
instances on 2 cores); it cannot be provoked on demand, so Triton is stood
in for here by a class that fails as the real one did (its message below is
the one CI printed), and test_triton.py runs the real server.

Runs in .venv-serve (scripts/requirements-serve.txt):
    .venv-serve/bin/python -m pytest test/serving
"""
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))
from onnx_tosa import serving  # noqa: E402

# What Triton answered in CI, shortened to its first and last lines.
LOST_RACE = (
    "[400] load failed for model 'mlp': version 1 is at UNAVAILABLE state: "
    "Internal: TritonModelException: Model initialize error: Traceback (most "
    "recent call last):\n"
    '  File "/tmp/folder7Q1ZRr/1/model.py", line 425, in initialize\n'
    "    inference_handler_config = get_config_from_handshake_server("
    "handshake_socket)\n"
    '  File "/tmp/folder7Q1ZRr/1/communication.py", line 550, in '
    "get_config_from_handshake_server\n"
    "    sock.connect(socket_path.as_posix())\n"
    "ConnectionRefusedError: [Errno 111] Connection refused")
OTHER = ("[400] load failed for model 'mlp': version 1 is at UNAVAILABLE "
         "state: Internal: TritonModelException: out of memory")


class FakeTriton:
    """Fails its first `len(failures)` starts with those messages."""
    starts = 0
    stops = 0
    failures = []

    def __init__(self, config):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *_):
        FakeTriton.stops += 1

    def run(self):
        FakeTriton.starts += 1
        if FakeTriton.starts <= len(FakeTriton.failures):
            raise RuntimeError(FakeTriton.failures[FakeTriton.starts - 1])

    def serve(self):
        pass


@pytest.fixture
def fake(monkeypatch):
    FakeTriton.starts = FakeTriton.stops = 0
    monkeypatch.setattr(serving, "_pytriton",
                        lambda: (None, None, FakeTriton, lambda **_: None))
    opened = []
    monkeypatch.setattr(serving, "open_sessions",
                        lambda name, *a, **k: opened.append(name) or [name])
    # (serve() installs SIGINT and SIGTERM handlers; not in pytest.)
    monkeypatch.setattr(serving.signal, "signal", lambda *_: None)
    bound = []
    monkeypatch.setattr(serving, "bind",
                        lambda triton, name, model, **k: bound.append(
                            (name, k["sessions"])))
    return opened, bound


def test_lost_race_is_recognised():
    assert serving._lost_handshake_race(RuntimeError(LOST_RACE))
    assert not serving._lost_handshake_race(RuntimeError(OTHER))


def test_starts_again_after_a_lost_race(fake):
    opened, bound = fake
    FakeTriton.failures = [LOST_RACE]
    ready = []
    serving.serve({"mlp": "mlp.onnx"}, ready=lambda: ready.append(1))
    assert FakeTriton.starts == 2 and FakeTriton.stops == 2
    assert ready == [1]
    # The sessions are opened once and bound to each Triton.
    assert opened == ["mlp"]
    assert bound == [("mlp", ["mlp"]), ("mlp", ["mlp"])]


def test_gives_up_after_the_last_attempt(fake):
    FakeTriton.failures = [LOST_RACE] * serving.START_ATTEMPTS
    with pytest.raises(RuntimeError, match="Connection refused"):
        serving.serve({"mlp": "mlp.onnx"}, ready=lambda: None)
    assert FakeTriton.starts == serving.START_ATTEMPTS


def test_other_failures_are_not_retried(fake):
    FakeTriton.failures = [OTHER]
    with pytest.raises(RuntimeError, match="out of memory"):
        serving.serve({"mlp": "mlp.onnx"}, ready=lambda: None)
    assert FakeTriton.starts == 1
