"""Helpers shared by the end-to-end tests: where the tools are, how to call
them, and what a clean error looks like."""
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test" / "models"))
import make_models  # noqa: E402  (needs the path above)

BIN_DIR = Path(os.environ.get("ONNX_TOSA_BIN_DIR") or REPO / "build" / "bin")
TARGET = os.environ.get("ONNX_TOSA_TARGET") or "vulkan"
DEVICE = os.environ.get("ONNX_TOSA_DEVICE") or "auto"
TIMEOUT_S = float(os.environ.get("ONNX_TOSA_TEST_TIMEOUT") or 300)
COMPILE = "onnx-tosa-compile"
RUN = "onnx-tosa-run"

RTOL, ATOL = 1e-4, 1e-5

# Text that means the tool crashed or hit an internal check instead of
# reporting the error itself.
CRASH_MARKERS = ("Assertion", "Segmentation", "Stack dump", "PLEASE submit",
                 "terminate called", "Sanitizer", "core dumped")
# An undefined-behaviour sanitizer report ("file.cpp:12:3: runtime error:").
UBSAN_RE = re.compile(r"\.(?:c|cc|cpp|cxx|h|hpp|inc):\d+:\d+: runtime error:")


def tool_path(name):
    """The path of one of the tools, or skip the test if it is not built."""
    path = BIN_DIR / name
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"{name} is not built (no executable {path}); "
                    "build it or set ONNX_TOSA_BIN_DIR")
    return path


def sanitize(name):
    """The file name the runner gives an output: [A-Za-z0-9_.-] only."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def call(args, timeout=TIMEOUT_S, env=None):
    """Run a command, capturing its output as text; fail the test on a hang.
    `env`: variables to set on top of this process's environment."""
    args = [str(a) for a in args]
    try:
        proc = subprocess.run(args, capture_output=True, text=True,
                              errors="replace", stdin=subprocess.DEVNULL,
                              timeout=timeout,
                              env={**os.environ, **env} if env else None)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"timed out after {timeout:.0f}s: {shlex.join(args)}\n"
                    f"stderr:\n{e.stderr or ''}", pytrace=False)
    return proc


def describe(proc):
    """Everything needed to diagnose a failed command, for assert messages."""
    tail = proc.stdout[-2000:] if proc.stdout else ""
    status = str(proc.returncode)
    if proc.returncode < 0:
        status += f" (killed by {signal.Signals(-proc.returncode).name})"
    return (f"\ncommand: {shlex.join(proc.args)}\n"
            f"exit status: {status}\n"
            f"stderr:\n{proc.stderr}\nstdout (tail):\n{tail}")


def compile_model(compile_tool, model, artifact, *extra):
    return call([compile_tool, model, f"--target={TARGET}", "-o", artifact,
                 *extra])


def run_artifact(run_tool, artifact, inputs, out_dir, *extra,
                 device=DEVICE, env=None):
    """Run an artifact; `inputs` maps input names to .npy paths."""
    args = [run_tool, artifact, f"--device={device}",
            f"--output-dir={out_dir}"]
    for name, path in inputs.items():
        args += ["--input", f"{name}={path}"]
    return call(args + list(extra), env=env)


def save_inputs(feeds, directory):
    """Write each input array to DIRECTORY/in<i>.npy; returns {name: path}."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = {}
    for i, (name, array) in enumerate(feeds.items()):
        paths[name] = directory / f"in{i}.npy"
        np.save(paths[name], array)
    return paths


def compile_and_run(compile_tool, run_tool, model, feeds, work, *flags,
                    outputs=None):
    """Compiles the model at path `model` with `flags`, runs it on the test
    target with `feeds` (files under `work`) and returns (the compile
    process, the artifact, {output name: array}) for `outputs` (default:
    every graph output). Each step must succeed without a crash and write
    every output."""
    artifact = work / "model.otsa"
    proc = compile_model(compile_tool, model, artifact, *flags)
    assert proc.returncode == 0, f"compiling failed{describe(proc)}"
    assert_no_crash(proc)
    out_dir = work / "outputs"
    out_dir.mkdir()
    run = run_artifact(run_tool, artifact, save_inputs(feeds, work / "inputs"),
                       out_dir)
    assert run.returncode == 0, f"running failed{describe(run)}"
    assert_no_crash(run)
    if outputs is None:
        import onnx
        outputs = [o.name for o in onnx.load(model).graph.output]
    written = sorted(p.name for p in out_dir.iterdir())
    got = {}
    for name in outputs:
        path = out_dir / f"{sanitize(name)}.npy"
        assert path.is_file(), (f"output {name!r} not written; {out_dir} "
                                f"holds {written}{describe(run)}")
        got[name] = np.load(path, allow_pickle=False)
    return proc, artifact, got


def onnxruntime_outputs(model_path, feeds):
    """The oracle: onnxruntime on the CPU, graph optimizations off."""
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(str(model_path), opts,
                                providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    return dict(zip(names, sess.run(names, feeds)))


def content_hash(run_tool, artifact):
    """The hash `onnx-tosa-run --inspect` gives of an artifact's program
    (weights, kernels, launches), which leaves out its provenance."""
    proc = call([run_tool, "--inspect", artifact])
    assert proc.returncode == 0, f"inspect failed{describe(proc)}"
    m = re.search(r"^content:\s+([0-9a-f]{16})\b", proc.stdout, re.MULTILINE)
    assert m, f"no content hash{describe(proc)}"
    return m.group(1)


def assert_no_crash(proc):
    assert proc.returncode >= 0, (
        f"killed by signal {-proc.returncode}{describe(proc)}")
    for marker in CRASH_MARKERS:
        assert marker not in proc.stderr, (
            f"crash marker {marker!r} in stderr{describe(proc)}")
    assert not UBSAN_RE.search(proc.stderr), (
        f"undefined behaviour reported{describe(proc)}")


def assert_clean_error(proc, tool, exit_code=None):
    """A reported error: non-zero (or the given) exit, no crash, and the
    tool's 'NAME: error:' line on stderr."""
    assert_no_crash(proc)
    if exit_code is None:
        assert proc.returncode != 0, f"expected failure{describe(proc)}"
    else:
        assert proc.returncode == exit_code, (
            f"expected exit status {exit_code}{describe(proc)}")
    assert f"{tool}: error:" in proc.stderr, (
        f"no '{tool}: error:' line{describe(proc)}")


# A file path in a message; the tests' temporary paths hold test names
# (and so op names, dtypes, digits) that must not satisfy a check by chance.
PATH_RE = re.compile(r"[^\s'\"`()\[\]]*/[^\s'\"`()\[\]]*")


def assert_mentions(proc, pattern, what, in_paths=False):
    """stderr matches the regex `pattern` (case-insensitive), outside file
    paths unless `in_paths`."""
    text = proc.stderr if in_paths else PATH_RE.sub("<path>", proc.stderr)
    assert re.search(pattern, text, re.IGNORECASE), (
        f"the error does not mention {what} (/{pattern}/){describe(proc)}")


def word(text):
    """A regex matching `text` not glued to other name characters."""
    return rf"(?<![A-Za-z0-9_]){re.escape(text)}(?![A-Za-z0-9_])"
