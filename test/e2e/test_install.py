"""What a user outside the build sees: `cmake --install` gives a CMake package
and a pkg-config file that outside programs build against and run an
artifact with; `pip install .` in a fresh virtual environment gives a
package that compiles and runs the example. Checked against onnxruntime."""
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
import pytest

import e2e_support as S

BUILD_DIR = S.BIN_DIR.parent
# `pip install .` builds the project itself (into build/wheel of the clone,
# kept between runs): minutes, not the tools' usual seconds.
PIP_TIMEOUT_S = float(os.environ.get("ONNX_TOSA_PIP_TIMEOUT") or 3600)


@pytest.fixture(scope="module")
def prefix(tmp_path_factory, compile_tool, run_tool):
    if not (BUILD_DIR / "cmake_install.cmake").is_file():
        pytest.skip(f"{BUILD_DIR} is not a CMake build folder")
    prefix = tmp_path_factory.mktemp("prefix")
    proc = S.call(["cmake", "--install", BUILD_DIR, "--prefix", prefix])
    assert proc.returncode == 0, f"install failed{S.describe(proc)}"
    return prefix


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The example MLP, its input and onnxruntime's output."""
    work = tmp_path_factory.mktemp("example")
    proc = S.call([sys.executable, S.REPO / "examples" / "make_example.py",
                   work])
    assert proc.returncode == 0, S.describe(proc)
    x = np.load(work / "x.npy")
    want = S.onnxruntime_outputs(work / "mlp.onnx", {"x": x})["y"]
    return work, want


@pytest.fixture(scope="module")
def artifact(prefix, example):
    """The example compiled by the installed compiler."""
    work, _ = example
    out = work / "mlp.otsa"
    proc = S.call([prefix / "bin" / "onnx-tosa-compile", work / "mlp.onnx",
                   f"--target={S.TARGET}", "-o", out])
    assert proc.returncode == 0, S.describe(proc)
    return out


def test_installed_layout(prefix):
    for rel in ("include/onnx_tosa/runtime.h", "include/onnx_tosa/runtime.hpp",
                "lib/libonnx_tosa_runtime.so", "lib/libonnx_tosa_runtime.a",
                "lib/cmake/onnx_tosa/onnx_tosaConfig.cmake",
                "lib/cmake/onnx_tosa/onnx_tosaConfigVersion.cmake",
                "lib/pkgconfig/onnx-tosa.pc", "bin/onnx-tosa-compile",
                "bin/onnx-tosa-run", "bin/onnx-tosa-opt"):
        assert (prefix / rel).exists(), f"{rel} not installed"


@pytest.mark.parametrize("tool", ["onnx-tosa-compile", "onnx-tosa-run",
                                  "onnx-tosa-opt"])
def test_installed_tools_print_version(prefix, tool):
    proc = S.call([prefix / "bin" / tool, "--version"])
    assert proc.returncode == 0, S.describe(proc)
    assert "onnx-tosa 0.1.0 (commit " in proc.stdout, S.describe(proc)


@pytest.mark.parametrize("program", ["run_model", "run_model_static"])
def test_cmake_package_consumer(prefix, example, artifact, tmp_path, program):
    """A separate CMake project: find_package(onnx_tosa) and run the
    artifact with the shared and with the static runtime."""
    build = tmp_path / "consumer"
    proc = S.call(["cmake", "-S", S.REPO / "test" / "install", "-B", build,
                   f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert proc.returncode == 0, S.describe(proc)
    proc = S.call(["cmake", "--build", build, "--target", program])
    assert proc.returncode == 0, S.describe(proc)
    work, want = example
    out = tmp_path / "y.npy"
    proc = S.call([build / program, artifact, S.DEVICE,
                   f"x={work / 'x.npy'}", f"y={out}"])
    assert proc.returncode == 0, S.describe(proc)
    assert "onnx-tosa 0.1.0" in proc.stdout
    np.testing.assert_allclose(np.load(out), want, rtol=S.RTOL, atol=S.ATOL)


def test_pkg_config_consumer(prefix, artifact, tmp_path):
    """A C program built with `pkg-config --cflags --libs onnx-tosa`."""
    if not shutil.which("pkg-config") or not shutil.which("cc"):
        pytest.skip("pkg-config or cc missing")
    env = {**os.environ, "PKG_CONFIG_PATH": str(prefix / "lib" / "pkgconfig")}
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "onnx-tosa"],
                           capture_output=True, text=True, env=env)
    assert flags.returncode == 0, flags.stderr
    exe = tmp_path / "signature"
    proc = S.call(["cc", S.REPO / "test" / "install" / "signature.c", "-o",
                   exe, *flags.stdout.split()])
    assert proc.returncode == 0, S.describe(proc)
    proc = S.call([exe, artifact, S.DEVICE],
                  env={"LD_LIBRARY_PATH": str(prefix / "lib")})
    assert proc.returncode == 0, S.describe(proc)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("onnx-tosa 0.1.0")
    assert lines[1:] == ["input x float32 [4, 64]", "output y float32 [4, 10]"]


FIVE_LINES = """
import numpy as np, onnx_tosa, sys
sess = onnx_tosa.InferenceSession(sys.argv[1] + "/mlp.onnx")
y, = sess.run(None, {"x": np.load(sys.argv[1] + "/x.npy")})
np.save(sys.argv[1] + "/y_pip.npy", y)
print(onnx_tosa.runtime_version(), sess.device)
"""


@pytest.mark.skipif(os.environ.get("ONNX_TOSA_SKIP_PIP") == "1",
                    reason="ONNX_TOSA_SKIP_PIP=1")
def test_pip_install_in_fresh_venv(example, tmp_path):
    """`pip install .` from the clone into a new virtual environment, then
    the README's five lines, from outside the clone."""
    venv = tmp_path / "venv"
    proc = S.call([sys.executable, "-m", "venv", venv])
    assert proc.returncode == 0, S.describe(proc)
    py = venv / "bin" / "python"
    clean = {k: "" for k in ("ONNX_TOSA_BIN_DIR", "ONNX_TOSA_LIBRARY",
                             "ONNX_TOSA_BUILD_DIR", "PYTHONPATH")}
    proc = S.call([py, "-m", "pip", "install", "-q", S.REPO],
                  timeout=PIP_TIMEOUT_S, env=clean)
    assert proc.returncode == 0, S.describe(proc)
    work, want = example
    proc = subprocess.run(
        [py, "-c", FIVE_LINES, work], capture_output=True, text=True,
        cwd=tmp_path, timeout=S.TIMEOUT_S,
        env={**os.environ, **clean,
             "ONNX_TOSA_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    assert "onnx-tosa 0.1.0" in proc.stdout
    np.testing.assert_allclose(np.load(work / "y_pip.npy"), want,
                               rtol=S.RTOL, atol=S.ATOL)


def test_inspect_reports_provenance(compile_tool, run_tool, example, tmp_path):
    """Every artifact records its producer, target, chip and options, and
    `onnx-tosa-run --inspect` prints them with the signature, no device
    needed."""
    work, _ = example
    for target, chip in (("vulkan", None), ("cuda", "sm_80")):
        out = tmp_path / f"mlp.{target}.otsa"
        extra = [f"--chip={chip}"] if chip else []
        proc = S.call([compile_tool, work / "mlp.onnx", f"--target={target}",
                       "-o", out, "--vector-width=2", *extra,
                       "--cuda-format=ptx"])
        assert proc.returncode == 0, S.describe(proc)
        proc = S.call([run_tool, "--inspect", out])
        assert proc.returncode == 0, S.describe(proc)
        fields = dict(line.split(":", 1) for line in proc.stdout.splitlines())
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        assert fields["target"] == target
        assert fields["producer"].startswith("onnx-tosa 0.1.0 (commit ")
        assert "LLVM/MLIR 22" in fields["producer"]
        assert fields["options"].split() == [
            f"--target={target}", "--vector-width=2", *extra,
            "--cuda-format=ptx"], fields["options"]
        assert fields.get("chip") == chip
        assert fields["input"] == "x float32 [4, 64]"
        assert fields["output"] == "y float32 [4, 10]"
        assert str(work) not in proc.stdout  # no paths recorded
