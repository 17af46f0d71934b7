"""Runs one conformance case: compile, run on a device, compare. Every tool
call is its own subprocess (in its own process group) with a time limit, so
a case that crashes or hangs costs only itself."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cases import Case

# ONNX's usual tolerances for float outputs (onnx.backend.test's defaults).
RTOL, ATOL = 1e-3, 1e-7

# Per-case tolerances, for a case whose expected values cannot be met with
# ONNX's defaults for a documented reason. Every entry needs a comment that
# says why, e.g.
#   "test_example": (1e-2, 1e-5),  # accumulates 10^6 terms in float32
TOLERANCES: dict[str, tuple[float, float]] = {
}

# Failure stages, in pipeline order. The compiler names its own stage in
# "onnx-tosa-compile: error: <stage>: ..."; "compile" is a compiler error
# without a stage (none is expected); "harness" is a bug of this harness.
COMPILER_STAGES = ("import", "legalization", "lowering", "codegen", "artifact")
STAGES = COMPILER_STAGES + ("compile", "runtime", "mismatch", "timeout",
                            "crash", "harness")

# Text that means a tool crashed or hit an internal check rather than
# reporting an error itself.
CRASH_MARKERS = ("Assertion", "Segmentation fault", "Stack dump",
                 "PLEASE submit", "terminate called", "Sanitizer",
                 "core dumped", "UNREACHABLE")

# Bump when the way artifacts are produced changes, to drop cached ones.
CACHE_FORMAT = "2"

COMPILE_ERROR_RE = re.compile(
    r"^onnx-tosa-compile: error: (?:(?P<stage>[a-z]+): )?(?P<msg>.*)$", re.M)
RUN_ERROR_RE = re.compile(r"^onnx-tosa-run: error: (?P<msg>.*)$", re.M)
DEVICE_RE = re.compile(r"^device: (?P<dev>.*)$", re.M)
MAX_ERROR_CHARS = 300


@dataclass
class Context:
    """What every case of one run shares."""
    target: str
    device: str
    compiler: Path
    runner: Path
    compiler_hash: str
    cache_dir: Path | None   # None: no artifact cache
    work_dir: Path
    compile_timeout: float
    run_timeout: float
    keep_work: bool = False
    extra_compile_args: tuple = ()
    compile_only: bool = False   # stop after compiling (fills the cache)
    precompiled: bool = False    # never compile: artifacts from the cache


@dataclass
class Proc:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float


# Process groups of the tool calls in flight, to end them on an interrupt.
_active: set[int] = set()
_active_lock = threading.Lock()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_active() -> None:
    """Ends every tool call this process has in flight (on Ctrl-C)."""
    with _active_lock:
        pids = list(_active)
    for pid in pids:
        _kill_group(pid)


def call(args, timeout: float) -> Proc:
    """Runs a command in a new process group; on timeout kills that group."""
    start = time.monotonic()
    p = subprocess.Popen([str(a) for a in args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    with _active_lock:
        _active.add(p.pid)
    timed_out = False
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(p.pid)
        out, err = p.communicate()
    finally:
        with _active_lock:
            _active.discard(p.pid)
    return Proc(p.returncode, out.decode("utf-8", "replace"),
                err.decode("utf-8", "replace"), timed_out,
                time.monotonic() - start)


def one_line(text: str, replacements=()) -> str:
    for old, new in replacements:
        if old:
            text = text.replace(old, new)
    text = " ".join(text.split())
    if len(text) > MAX_ERROR_CHARS:
        text = text[:MAX_ERROR_CHARS - 3] + "..."
    return text


def _crash_line(stderr: str) -> str:
    """The most telling line of a crashed tool's stderr."""
    lines = [l for l in stderr.splitlines() if l.strip()]
    for marker in ("Assertion", "error:", "terminate called", "UNREACHABLE"):
        for line in lines:
            if marker in line:
                return line
    return lines[0] if lines else ""


def _signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def classify_tool_failure(tool: str, proc: Proc, limit: float,
                          replacements=()) -> tuple[str, str] | None:
    """(stage, first error line) for a failed tool call, None if it worked.
    `tool` is 'compile' or 'run'."""
    name = "onnx-tosa-compile" if tool == "compile" else "onnx-tosa-run"
    if proc.timed_out:
        return "timeout", f"{name} timed out after {limit:g} s"
    if proc.returncode is not None and proc.returncode < 0:
        detail = _crash_line(proc.stderr)
        msg = f"{name} killed by {_signal_name(proc.returncode)}"
        return "crash", one_line(msg + (f": {detail}" if detail else ""),
                                 replacements)
    if any(m in proc.stderr for m in CRASH_MARKERS):
        return "crash", one_line(f"{name} crashed: {_crash_line(proc.stderr)}",
                                 replacements)
    if proc.returncode == 0:
        return None
    if tool == "compile":
        m = COMPILE_ERROR_RE.search(proc.stderr)
        if m and m.group("stage") in COMPILER_STAGES:
            return m.group("stage"), one_line(m.group("msg"), replacements)
        if m:
            return "compile", one_line(m.group(0).split("error: ", 1)[1],
                                       replacements)
    else:
        m = RUN_ERROR_RE.search(proc.stderr)
        if m:
            return "runtime", one_line(m.group("msg"), replacements)
    stage = "compile" if tool == "compile" else "runtime"
    last = proc.stderr.strip().splitlines()[-1:] or [""]
    return stage, one_line(f"{name} exited with status {proc.returncode} "
                           f"without an error line: {last[0]}", replacements)


# ------------------------------------------------------------- comparison

def _is_bfloat16(a: np.ndarray) -> bool:
    return a.dtype.name == "bfloat16"


# ml_dtypes' narrow types, which the runner exchanges as uint8 arrays of
# their bit patterns (one element per byte, code in the low bits).
NARROW_DTYPES = {
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
    "float8_e8m0fnu", "float4_e2m1fn", "int4", "uint4", "int2", "uint2",
}


def _is_narrow(a: np.ndarray) -> bool:
    return a.dtype.name in NARROW_DTYPES


def to_runner_array(a: np.ndarray) -> np.ndarray:
    """An input as onnx-tosa-run reads it: bfloat16 as float32, narrow
    types as the uint8 bit patterns (ml_dtypes keeps the upper bits of a
    4- or 2-bit element zero)."""
    if _is_bfloat16(a):
        return a.astype(np.float32)
    if _is_narrow(a):
        return a.view(np.uint8).copy()
    return a


def _compare_narrow(name: str, expected: np.ndarray,
                    actual: np.ndarray) -> str | None:
    """Narrow outputs come back as uint8 bit patterns: equal bits, or both
    NaN (a NaN's sign and payload are not compared)."""
    if actual.dtype != np.uint8:
        return (f"output '{name}': dtype {actual.dtype}, expected uint8 bit "
                f"patterns of {expected.dtype.name}")
    if actual.shape != expected.shape:
        return (f"output '{name}': shape {list(actual.shape)}, "
                f"expected {list(expected.shape)}")
    got = actual.view(expected.dtype)
    with np.errstate(all="ignore"):
        g = got.astype(np.float64)
        e = expected.astype(np.float64)
    bad = (actual != expected.view(np.uint8)) & ~(np.isnan(g) & np.isnan(e))
    if not bad.any():
        return None
    idx = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
    return (f"output '{name}': {int(bad.sum())} of {bad.size} values differ; "
            f"first at {list(idx)}: got {_fmt(g[idx])} "
            f"(bits {int(actual[idx]):#04x}), expected {_fmt(e[idx])} "
            f"(bits {int(expected.view(np.uint8)[idx]):#04x})")


def compare(name: str, expected: np.ndarray, actual: np.ndarray,
            rtol: float = RTOL, atol: float = ATOL) -> str | None:
    """None if `actual` matches `expected` by ONNX's rules, else why not:
    same dtype and shape; integers and bools equal; floats close
    (|a - e| <= atol + rtol * |e|) with NaNs in the same places.
    bfloat16 is exchanged as float32, so it is compared as float32, with
    the rtol of at least two bfloat16 ULPs ONNX's runner uses; narrow
    types are exchanged as bit patterns and compared exactly."""
    if _is_narrow(expected):
        return _compare_narrow(name, expected, actual)
    if _is_bfloat16(expected):
        expected = expected.astype(np.float32)
        # ONNX's own backend test runner compares bfloat16 outputs with
        # rtol = max(rtol, 2**-6), "two bfloat16 ULPs" (onnx 1.23,
        # onnx/backend/test/runner): rtol 1e-3 is below bfloat16's
        # resolution (2**-8), so two correctly rounded results of one value
        # computed in a different order would count as a mismatch.
        rtol = max(rtol, 2.0**-6)
    if actual.dtype != expected.dtype:
        return (f"output '{name}': dtype {actual.dtype}, "
                f"expected {expected.dtype}")
    if actual.shape != expected.shape:
        return (f"output '{name}': shape {list(actual.shape)}, "
                f"expected {list(expected.shape)}")
    if expected.dtype.kind in "biu":
        bad = actual != expected
    elif expected.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            a = actual.astype(np.complex128 if expected.dtype.kind == "c"
                              else np.float64)
            e = expected.astype(a.dtype)
            bad = ~np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
    else:
        bad = actual != expected
    bad = np.asarray(bad)
    if not bad.any():
        return None
    idx = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
    got, want = actual[idx], expected[idx]
    if expected.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            err = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
            err = np.where(bad, err, 0)
            worst = float(np.nanmax(err)) if err.size else 0.0
        tail = f", max abs error {worst:.3g}"
    else:
        tail = ""
    return (f"output '{name}': {int(bad.sum())} of {bad.size} values differ"
            f"{tail}; first at {list(idx)}: got {_fmt(got)}, "
            f"expected {_fmt(want)}")


def _fmt(x) -> str:
    """A scalar as text, without numpy's type wrapper."""
    x = np.asarray(x).item()
    if isinstance(x, float):
        return f"{x:.8g}"
    return repr(x)


# ------------------------------------------------------------------ cases

def sanitize(name: str) -> str:
    """The file name onnx-tosa-run gives an output: [A-Za-z0-9_.-] only."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def _load_tensor(path: Path) -> np.ndarray:
    from onnx import TensorProto, numpy_helper
    t = TensorProto()
    t.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(t)


def _load_value(path: Path, kind: str | None):
    """A data file's value: an array for a tensor, a list of arrays for a
    sequence, for an optional its value or None when it is absent."""
    from onnx import OptionalProto, SequenceProto, numpy_helper
    if kind == "sequence":
        proto = SequenceProto()
        proto.ParseFromString(path.read_bytes())
        return numpy_helper.to_list(proto)
    if kind == "optional":
        proto = OptionalProto()
        proto.ParseFromString(path.read_bytes())
        return numpy_helper.to_optional(proto)
    return _load_tensor(path)


def flatten_value(name: str, value) -> list[tuple[str, np.ndarray]]:
    """The tensors of a value under the names the compiler gives them
    (docs/sequences.md): a sequence's elements are NAME.0, NAME.1, ...; a
    present optional is its value under NAME; an absent one has none."""
    if value is None:
        return []
    if isinstance(value, list):
        out = []
        for k, v in enumerate(value):
            out += flatten_value(f"{name}.{k}", v)
        return out
    return [(name, value)]


def structure_args(case: Case) -> list[str]:
    """--sequence-length, --absent-input and the elements' --input-shape for
    the sequence and optional inputs, from the first data set (what the
    artifact is compiled for)."""
    args = []
    for name, pb in _first_data_set_inputs(case).items():
        kind = case.structured.get(name)
        if kind is None:
            continue
        value = _load_value(pb, kind)

        def describe(name, value):
            if value is None:
                args.append(f"--absent-input={name}")
            elif isinstance(value, list):
                args.append(f"--sequence-length={name}={len(value)}")
                for k, v in enumerate(value):
                    describe(f"{name}.{k}", v)
            else:
                dims = "x".join(str(d) for d in value.shape)
                args.append(f"--input-shape={name}={dims}")
        describe(name, value)
    return args


def input_names(case: Case, count: int) -> list[str]:
    """The graph inputs a data set's input_K.pb files go to: the inputs
    that are not initializers (older models list weights as inputs too)."""
    if count == len(case.input_names):
        return case.input_names
    if count == len(case.all_input_names):
        return case.all_input_names
    raise ValueError(f"{count} input files for {len(case.input_names)} "
                     f"graph inputs")


def _first_data_set_inputs(case: Case) -> dict:
    """Graph input name -> value in the case's first data set."""
    sets = case.data_sets()
    if not sets:
        return {}
    files = sorted(sets[0].glob("input_*.pb"),
                   key=lambda p: int(p.stem.split("_")[1]))
    return {name: pb for name, pb in zip(input_names(case, len(files)), files)}


def shape_args(case: Case) -> list[str]:
    """--input-shape for the inputs without a static shape, from the first
    data set (the compiler wants static shapes; the cases have one data
    set each, and the shapes are part of the artifact's cache key)."""
    args = structure_args(case)
    if not case.dynamic_inputs:
        return args
    for name, pb in _first_data_set_inputs(case).items():
        if name in case.dynamic_inputs:
            shape = _load_tensor(pb).shape
            dims = "x".join(str(d) for d in shape) if shape else ""
            args.append(f"--input-shape={name}={dims}")
    return args


def _cache_paths(ctx: Context, case: Case, model_sha: str, flags):
    extra = "\0".join(flags)
    key = hashlib.sha256(
        f"{CACHE_FORMAT}\0{model_sha}\0{ctx.compiler_hash}\0{ctx.target}"
        f"\0{extra}".encode()
    ).hexdigest()
    base = ctx.cache_dir / key[:2] / key
    return base.with_suffix(".otsa"), base.with_suffix(".fail.json")


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


PRECOMPILED_MISS = ("no precompiled artifact for this model: compile the "
                    "suite with --compile-only (same compiler, same onnx) "
                    "first")


# The compiler's hint when an input TOSA needs as a constant comes from a
# graph input: "... --freeze-input NAME=FILE.npy turns into a constant".
FREEZE_HINT_RE = re.compile(r"--freeze-input (\S+?)=FILE\.npy")


def _compile(ctx: Context, case: Case, work: Path, repl):
    """(artifact path or None, failure or None, from the cache?, names of
    the inputs frozen).

    When the compiler reports that a value TOSA needs at compile time (axes,
    pads, scales, ...) comes from a graph input, the case is compiled again
    with that input frozen to its value in the data set (--freeze-input),
    as a user would; the runtime then rejects any other value for it, so
    the data set still checks the whole model. Such passes are counted
    separately on the scoreboard."""
    frozen: dict = {}
    flags = []
    while True:
        artifact, failure, cached, hinted = _compile_once(ctx, case, work,
                                                          repl, flags)
        wanted = [n for n in hinted if n not in frozen]
        if not wanted or len(frozen) >= 8:
            return artifact, failure, cached, sorted(frozen)
        values = _first_data_set_inputs(case)
        if any(n not in values for n in wanted):
            return artifact, failure, cached, sorted(frozen)
        for name in wanted:
            npy = work / f"frozen_{sanitize(name)}.npy"
            arr = _load_tensor(values[name])
            if _is_bfloat16(arr):  # as for the inputs at run time
                arr = arr.astype(np.float32)
            np.save(npy, arr)
            frozen[name] = npy
        flags = [f"--freeze-input={n}={frozen[n]}" for n in sorted(frozen)]


def _compile_once(ctx: Context, case: Case, work: Path, repl, freeze_flags):
    """One compile (or cache lookup): (artifact or None, failure or None,
    from the cache?, the graph inputs the compiler asks to freeze). The
    names come from the whole error output, which the one-line failure
    message may cut short."""
    from cases import file_sha256
    flags = [*ctx.extra_compile_args, *shape_args(case)]
    # The cache key names frozen values by content, not by their file.
    key_flags = flags + [
        f.split("=", 2)[1] + ":" + file_sha256(Path(f.split("=", 2)[2]))
        for f in freeze_flags]
    flags += freeze_flags
    art_cache = fail_cache = None
    if ctx.cache_dir is not None:
        art_cache, fail_cache = _cache_paths(ctx, case,
                                             file_sha256(case.model_path),
                                             key_flags)
        if art_cache.exists():
            return art_cache, None, True, []
        if fail_cache.exists():
            try:
                rec = json.loads(fail_cache.read_text())
                # A timeout or crash is kept only for --precompiled runs
                # (whose machine cannot compile); other runs try again.
                if not rec.get("transient") or ctx.precompiled:
                    return (None, (rec["stage"], rec["error"]), True,
                            rec.get("freeze", []))
            except (ValueError, KeyError):
                pass
    if ctx.precompiled:
        return None, ("harness", PRECOMPILED_MISS), False, []
    artifact = work / "model.otsa"
    proc = call([ctx.compiler, case.model_path, f"--target={ctx.target}",
                 "-o", artifact, *flags],
                ctx.compile_timeout)
    failure = classify_tool_failure("compile", proc, ctx.compile_timeout,
                                    repl)
    if failure is None and not artifact.exists():
        failure = ("artifact", "onnx-tosa-compile exited 0 but wrote no "
                   "artifact")
    hinted = list(dict.fromkeys(FREEZE_HINT_RE.findall(proc.stderr or "")))
    if ctx.cache_dir is None:
        return ((None, failure, False, hinted) if failure
                else (artifact, None, False, []))
    if failure is None:
        _atomic_write(art_cache, artifact.read_bytes())
        return art_cache, None, False, []
    # What the compiler decided by itself is cached; a timeout or a crash
    # may depend on the machine's load, so it is marked transient.
    transient = failure[0] not in COMPILER_STAGES + ("compile",)
    _atomic_write(fail_cache, json.dumps(
        {"stage": failure[0], "error": failure[1], "freeze": hinted,
         "transient": transient}).encode())
    return None, failure, False, hinted


def run_case(ctx: Context, case: Case) -> dict:
    """Everything about one case, as a JSON-ready dict:
    status 'pass' or 'fail', and for a failure its stage and error."""
    start = time.monotonic()
    result = {"kind": case.kind, "ops": case.ops,
              "primary_ops": case.primary_ops}

    def done(stage=None, error=None, **extra):
        result.update(extra)
        result["status"] = "fail" if stage else "pass"
        if stage:
            result["stage"], result["error"] = stage, error
        result["seconds"] = round(time.monotonic() - start, 3)
        return result

    if case.unsupported_input:
        return done("import", f"unsupported-input: {case.unsupported_input}")

    work = ctx.work_dir / case.name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    repl = ((str(work), "<work>"), (str(case.path), "<case>"),
            (str(ctx.work_dir), "<work>"))
    try:
        try:
            artifact, failure, cached, frozen = _compile(ctx, case, work,
                                                         repl)
        except (OSError, ValueError) as e:
            return done("harness", one_line(f"compile step: {e}", repl))
        result["compile_cached"] = cached
        if frozen:
            result["frozen_inputs"] = frozen
        if failure:
            return done(*failure)
        if ctx.compile_only:
            return done(compiled=True)
        rtol, atol = TOLERANCES.get(case.name, (RTOL, ATOL))
        outputs = case.output_names
        device_name = None
        for ds in case.data_sets():
            in_files = sorted(ds.glob("input_*.pb"),
                              key=lambda p: int(p.stem.split("_")[1]))
            out_files = sorted(ds.glob("output_*.pb"),
                               key=lambda p: int(p.stem.split("_")[1]))
            ds_work = work / ds.name
            out_dir = ds_work / "out"
            out_dir.mkdir(parents=True)
            args = [ctx.runner, artifact, f"--device={ctx.device}",
                    f"--output-dir={out_dir}"]
            try:
                names = input_names(case, len(in_files))
                tensors = []
                for name, pb in zip(names, in_files):
                    tensors += flatten_value(
                        name, _load_value(pb, case.structured.get(name)))
                for i, (name, arr) in enumerate(tensors):
                    npy = ds_work / f"in{i}.npy"
                    np.save(npy, to_runner_array(arr))
                    args += ["--input", f"{name}={npy}"]
            except (ValueError, OSError) as e:
                return done("harness", one_line(f"inputs of {ds.name}: {e}",
                                                repl))
            proc = call(args, ctx.run_timeout)
            failure = classify_tool_failure("run", proc, ctx.run_timeout,
                                            repl)
            if failure:
                return done(*failure)
            m = DEVICE_RE.search(proc.stdout)
            if m:
                device_name = m.group("dev").strip()
            for output, pb in zip(outputs, out_files):
                kind = case.structured.get(output)
                try:
                    expected = flatten_value(output, _load_value(pb, kind))
                except (ValueError, OSError) as e:
                    return done("harness", one_line(
                        f"reading output '{output}': {e}", repl))
                # A sequence has no more elements than expected, an absent
                # optional no tensor at all.
                if kind is not None:
                    unexpected = {output, f"{output}.0",
                                  f"{output}.{len(expected)}"}
                    for name in sorted(unexpected - {n for n, _ in expected}):
                        if (out_dir / f"{sanitize(name)}.npy").exists():
                            return done("mismatch", f"output '{name}' is "
                                        f"not expected (output '{output}' "
                                        f"has {len(expected)} tensors)")
                for name, want in expected:
                    got_path = out_dir / f"{sanitize(name)}.npy"
                    if not got_path.exists():
                        return done("runtime",
                                    f"no output file for '{name}'")
                    try:
                        got = np.load(got_path, allow_pickle=False)
                    except (ValueError, OSError) as e:
                        return done("harness", one_line(
                            f"reading output '{name}': {e}", repl))
                    why = compare(name, want, got, rtol, atol)
                    if why:
                        return done("mismatch", one_line(why, repl))
        return done(device_name=device_name)
    finally:
        if not ctx.keep_work:
            shutil.rmtree(work, ignore_errors=True)
