"""Fixtures of the end-to-end tests.

Environment:
  ONNX_TOSA_BIN_DIR       where onnx-tosa-compile and onnx-tosa-run are
                          (default: <repo>/build/bin); tests that need a
                          missing tool are skipped, nothing else is.
  ONNX_TOSA_TARGET        --target for the compiler (default: vulkan)
  ONNX_TOSA_DEVICE        --device for the runner (default: auto)
  ONNX_TOSA_TEST_TIMEOUT  seconds one tool call may take (default: 300)
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_support as S  # noqa: E402


def pytest_report_header(config):
    return (f"onnx-tosa: bin dir {S.BIN_DIR}, target {S.TARGET}, "
            f"device {S.DEVICE}")


@pytest.fixture(scope="session")
def compile_tool():
    return S.tool_path(S.COMPILE)


@pytest.fixture(scope="session")
def run_tool():
    return S.tool_path(S.RUN)


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory):
    """Every model of make_models.py, generated once per session."""
    out = tmp_path_factory.mktemp("models")
    S.make_models.write_models(out)
    return out
