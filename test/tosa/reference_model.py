"""Every ONNX backend case's TOSA, run by the official TOSA reference model.

For each case of the ONNX backend suite: our `--emit=tosa` (the TOSA our
legalization makes of the model, with the harness's input shapes and frozen
inputs), serialized to the TOSA flatbuffer by the official `tosa-opt`
(`--tosa-serialize`), run by the official `tosa_reference_model` on the
case's inputs, and compared with ONNX's expected outputs by the conformance
harness's rules. This separates legalization bugs (the reference model's
result is wrong too) from code generation bugs (it is right, our GPU's is
not). Both tools come from the `tosa-tools` package (Arm's TOSA tools,
scripts/requirements-test.txt). A case ends in one status:

  pass          the reference model's outputs match ONNX's
  mismatch      they do not (the detail says where)
  legalization  onnx-tosa-compile --emit=tosa failed (as in the suite)
  serialize     tosa-opt could not serialize our TOSA (the detail says why:
                an op or type the TOSA flatbuffer has no form for). The
                arith casts at the boundary of int64, float64 and unsigned
                data are taken out first (onnx-tosa-strip-boundary-casts),
                and the data converted to the computed types
  reference     tosa_reference_model refused or failed on it
  skipped       a case whose inputs are not tensors (sequences, optionals)
  timeout       a step ran past --timeout seconds

Each emitted module is also checked against the specification's 8K level
and ERROR_IF conditions (onnx-tosa-check-error-if, as a TOSA input to the
compiler is; our legalization is held only to level none): a count and the
reasons are printed, not judged.

  reference_model.py [-j N] [-k REGEX] [--limit N] [--results FILE.json]
                     [--xfail FILE | --update-xfail] [--bin-dir DIR]

With the expected-status list (default test/tosa/xfail-reference-model.txt,
lines `CASE STATUS`; cases not listed are expected to pass), the exit status
is 1 when any case's status differs from it, else 0; --update-xfail
rewrites it. The list records what is; it only ever shrinks as the
legalization improves.
"""
import argparse
import concurrent.futures as futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "test" / "conformance"))
import cases as C  # noqa: E402
import harness as H  # noqa: E402

DEFAULT_XFAIL = HERE / "xfail-reference-model.txt"
STATUSES = ("pass", "mismatch", "legalization", "serialize", "reference",
            "skipped", "timeout")
# `%argN: tensor<...> {..., onnx.name = "x", ...}` in the main function's
# signature, and its results' `tensor<...> {onnx.name = "y"}`.
SIGNATURE_RE = re.compile(r"func\.func @main\((.*?)\)\s*->\s*\((.*?)\)\s*\{",
                          re.S)
NAME_RE = re.compile(r'onnx\.name = "((?:[^"\\]|\\.)*)"')
# An output whose size depends on the data: its bounded dimension and the
# result that holds its count (docs/unsupported-ops.md).
BOUNDED_RE = re.compile(r"onnx\.bounded_dim = (\d+)\s*:\s*i64, "
                        r"onnx\.count_result = (\d+)")


def tool(name, tools_dir):
    """A tool of `tools_dir` (.venv-tosa/bin, where scripts/install-deps.sh
    installs tosa-tools), of the venv the script runs in, or of the PATH."""
    for folder in (tools_dir, Path(sys.executable).parent):
        path = Path(folder) / name
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return shutil.which(name)


def first_line(text):
    for line in (text or "").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line[:H.MAX_ERROR_CHARS]
    return ""


def run(args, timeout, cwd=None):
    try:
        p = subprocess.run([str(a) for a in args], capture_output=True,
                           text=True, errors="replace", timeout=timeout,
                           cwd=cwd, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", ""


TYPE_RE = re.compile(r"tensor<(?:[^x>]*x)*([a-z]+\d*)>")


def signature(mlir):
    """(arguments, results, bounded) of @main: the first two lists of
    (onnx.name, MLIR element type) in order, the last {result: (bounded
    dimension, count result)}; (None, None, None) without one."""
    m = SIGNATURE_RE.search(mlir)
    if not m:
        return None, None, None

    def parts(text, splitter):
        out = []
        for part in re.split(splitter, text)[1:]:
            name, elt = NAME_RE.search(part), TYPE_RE.search("tensor<" + part)
            out.append((name.group(1) if name else None,
                        elt.group(1) if elt else None))
        return out
    results = parts(m.group(2), r"tensor<")
    bounded = {}
    for k, part in enumerate(re.split(r"tensor<", m.group(2))[1:]):
        if b := BOUNDED_RE.search(part):
            bounded[k] = (int(b.group(1)), int(b.group(2)))
    return parts(m.group(1), r"%arg\d+:\s*tensor<"), results, bounded


# numpy's form of the element types a TOSA function's arguments may have,
# as tosa_reference_model reads and writes .npy files.
SIGNLESS = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
            "i64": np.int64, "f16": np.float16, "f32": np.float32}


def save_argument(path, array, elt):
    """Writes an argument's .npy file. bfloat16 goes as its 2-byte patterns
    with the descriptor '<V2', the form tosa_reference_model reads (numpy
    itself would write '|V2')."""
    if elt != "bf16":
        np.save(path, to_argument(array, elt))
        return
    bits = np.ascontiguousarray(array).view(np.uint16)
    header = np.lib.format.header_data_from_array_1_0(bits)
    header["descr"] = "<V2"
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
        f.write(bits.tobytes())


def to_argument(array, elt):
    """The data set's array as the TOSA argument of element type `elt`
    holds it: unsigned data and narrow bit patterns (uint8) as the signless
    integers of their width."""
    array = H.to_runner_array(array)  # narrow types: uint8 bit patterns
    want = SIGNLESS.get(elt)
    if want is None:
        return array
    want = np.dtype(want)
    if array.dtype.kind in "iu" and want.kind == "i" and \
            array.dtype.itemsize == want.itemsize:
        return array.view(want)
    return array.astype(want) if array.dtype != want else array


def emit_tosa(case, compiler, work, timeout):
    """(TOSA text, None) or (None, (status, detail)). Inputs the compiler
    needs as constants are frozen to the data set's values, as the
    conformance harness does."""
    flags = H.shape_args(case)
    frozen = {}
    out = work / "model.tosa.mlir"
    for _ in range(8):
        freeze = [f"--freeze-input={n}={p}" for n, p in sorted(frozen.items())]
        rc, _, err = run([compiler, case.model_path, "--emit=tosa", "-o", out,
                          *flags, *freeze], timeout)
        if rc is None:
            return None, ("timeout", "onnx-tosa-compile --emit=tosa")
        if rc == 0:
            return out.read_text(), None
        wanted = [n for n in dict.fromkeys(H.FREEZE_HINT_RE.findall(err))
                  if n not in frozen]
        values = H._first_data_set_inputs(case)
        if not wanted or any(n not in values for n in wanted):
            m = H.COMPILE_ERROR_RE.search(err)
            return None, ("legalization", m.group("msg")[:H.MAX_ERROR_CHARS]
                          if m else first_line(err))
        for name in wanted:
            npy = work / f"frozen_{H.sanitize(name)}.npy"
            np.save(npy, H._load_tensor(values[name]))
            frozen[name] = npy
    return None, ("legalization", "too many inputs to freeze")


def as_expected(actual, expected):
    """The reference model's array as the harness compares it: signless
    integers holding unsigned data or narrow bit patterns in the unsigned
    type of their width; bfloat16 (2-byte patterns) as float32."""
    if actual.dtype.kind == "V" and actual.dtype.itemsize == 2:
        bits = actual.view(np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32)
    if (actual.dtype != expected.dtype and actual.dtype.kind in "iu"
            and expected.dtype.kind in "iu"
            and actual.dtype.itemsize == expected.dtype.itemsize):
        return actual.view(expected.dtype)
    if H._is_narrow(expected) and actual.dtype == np.int8:
        return actual.view(np.uint8)
    # The boundary conversion the stripped casts did (int32 -> int64,
    # float32 -> float64, a wrapped unsigned value to its type).
    if (actual.dtype != expected.dtype and actual.dtype.kind in "iuf"
            and expected.dtype.kind == actual.dtype.kind.replace("u", "i")
            or {actual.dtype.kind, expected.dtype.kind} <= {"i", "u"}):
        return actual.astype(expected.dtype)
    return actual


def check(case, tools, work, timeout):
    """One case: {'status', 'detail'}."""
    if case.structured or case.unsupported_input:
        return {"status": "skipped",
                "detail": case.unsupported_input or "structured inputs"}
    tosa, failure = emit_tosa(case, tools["compile"], work, timeout)
    if failure:
        return {"status": failure[0], "detail": failure[1]}
    # The flatbuffer has no form for the arith casts at the boundary of
    # int64, float64 and unsigned data: the signature takes the computed
    # types instead, and the data is converted to them here.
    pure = work / "model.pure.mlir"
    rc, _, err = run([tools["opt"], work / "model.tosa.mlir",
                      "--onnx-tosa-strip-boundary-casts", "-o", pure],
                     timeout)
    if rc != 0:
        return {"status": "serialize", "detail": "strip-boundary-casts: " +
                first_line(err)}
    level = check_level(tools, pure, timeout)
    r = run_reference(case, tools, work, pure, timeout)
    r["level_8k"] = level
    return r


def check_level(tools, pure, timeout):
    """'' where the TOSA is within the specification's 8K level (and its
    ERROR_IFs: onnx-tosa-check-error-if), else the first error."""
    rc, _, err = run([tools["opt"], pure, "--onnx-tosa-check-error-if",
                      "-o", os.devnull], timeout)
    if rc == 0:
        return ""
    return next((l for l in err.splitlines() if "error" in l),
                first_line(err)) or f"exit {rc}"


def run_reference(case, tools, work, pure, timeout):
    """The pure TOSA serialized and run by the reference model."""
    tosa = pure.read_text()
    arguments, results, bounded = signature(tosa)
    if arguments is None:
        return {"status": "serialize", "detail": "no @main in the TOSA"}
    flat = work / "model.tosa"
    rc, out, err = run([tools["tosa-opt"], pure, "--tosa-serialize",
                        f"--tosa-flatbuffer-filename={flat}"], timeout)
    if rc is None:
        return {"status": "timeout", "detail": "tosa-opt"}
    if rc != 0 or not flat.is_file():
        err_line = next((l for l in err.splitlines() if "error" in l),
                        first_line(err))
        return {"status": "serialize", "detail": err_line}

    values = H._first_data_set_inputs(case)
    ifm_names, ifm_files = [], []
    for k, (name, elt) in enumerate(arguments):
        if name not in values:
            return {"status": "serialize",
                    "detail": f"argument {k} ({name}) has no data"}
        path = work / f"in{k}.npy"
        save_argument(path, H._load_tensor(values[name]), elt)
        ifm_names.append(f"TosaInput_{k}")
        ifm_files.append(path.name)
    ofm_names = [f"TosaOutput_{k}" for k in range(len(results))]
    ofm_files = [f"out{k}.npy" for k in range(len(results))]
    # A test descriptor rather than flags: a graph without inputs has no
    # --ifm_name to give, and the tool then insists on a descriptor.
    (work / "desc.json").write_text(json.dumps({
        "tosa_file": flat.name, "ifm_name": ifm_names,
        "ifm_file": ifm_files, "ofm_name": ofm_names,
        "ofm_file": ofm_files, "expected_failure": False}))
    rc, out, err = run([tools["reference"], "--test_desc", "desc.json"],
                       timeout, cwd=work)
    if rc is None:
        return {"status": "timeout", "detail": "tosa_reference_model"}
    if rc != 0 or not all((work / f).is_file() for f in ofm_files):
        why = next((l for l in (out + err).splitlines()
                    if "ERROR" in l or "rror" in l), first_line(out + err))
        return {"status": "reference", "detail": why[:H.MAX_ERROR_CHARS]}

    expected = {}
    data_set = case.data_sets()[0]
    files = sorted(data_set.glob("output_*.pb"),
                   key=lambda p: int(p.stem.split("_")[1]))
    for name, pb in zip(case.output_names, files):
        expected[name] = H._load_tensor(pb)
    tol = H.TOLERANCES.get(case.name, (H.RTOL, H.ATOL))
    for k, (name, _) in enumerate(results):
        if name not in expected:
            continue
        actual = np.load(work / ofm_files[k])
        if k in bounded:  # the real array, first in the bounded one
            dim, count_result = bounded[k]
            shape = list(actual.shape)
            shape[dim] = int(np.load(work / ofm_files[count_result]).flat[0])
            actual = actual.reshape(-1)[:int(np.prod(shape))].reshape(shape)
        actual = as_expected(actual, expected[name])
        why = H.compare(name, expected[name], actual, *tol)
        if why:
            return {"status": "mismatch", "detail": why}
    return {"status": "pass", "detail": ""}


def read_xfail(path):
    listed = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                name, status = line.split()
                listed[name] = status
    return listed


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("-k", "--filter", default="", metavar="REGEX")
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--bin-dir", type=Path, default=ROOT / "build" / "bin")
    p.add_argument("--build-dir", type=Path, default=ROOT / "build")
    p.add_argument("--tools-dir", type=Path, default=ROOT / ".venv-tosa" / "bin",
                   help="where tosa-opt and tosa_reference_model are "
                        "(default: .venv-tosa/bin)")
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--xfail", type=Path, default=DEFAULT_XFAIL)
    p.add_argument("--update-xfail", action="store_true")
    p.add_argument("--results", type=Path)
    p.add_argument("--gpu-results", type=Path, metavar="FILE.json",
                   help="the conformance suite's results on a target "
                        "(scripts/conformance.sh --results): adds the "
                        "three-figure table (ours on the GPU, the reference "
                        "model on our TOSA)")
    args = p.parse_args()

    tools = {"compile": args.bin_dir / "onnx-tosa-compile",
             "opt": args.bin_dir / "onnx-tosa-opt",
             "tosa-opt": tool("tosa-opt", args.tools_dir),
             "reference": tool("tosa_reference_model", args.tools_dir)}
    missing = [k for k, v in tools.items() if not v or not Path(v).is_file()]
    if missing:
        print(f"reference_model.py: missing {', '.join(missing)} (build, and "
              "install the test requirements: scripts/install-deps.sh)",
              file=sys.stderr)
        return 2

    roots = C.case_roots(args.build_dir / "conformance" / "data",
                         log=lambda *_: None)
    chosen = [c for c in C.discover(roots) if re.search(args.filter, c.name)]
    if args.limit:
        chosen = chosen[:args.limit]
    for case in chosen:
        C.inspect(case)

    start = time.monotonic()
    results = {}
    with tempfile.TemporaryDirectory(prefix="tosa-ref-") as tmp:
        def one(case):
            work = Path(tmp) / case.name
            work.mkdir()
            try:
                return case.name, check(case, tools, work, args.timeout)
            finally:
                shutil.rmtree(work, ignore_errors=True)
        with futures.ThreadPoolExecutor(args.jobs) as pool:
            for k, (name, r) in enumerate(pool.map(one, chosen), 1):
                results[name] = r
                if k % 200 == 0 or k == len(chosen):
                    print(f"[{k:5}/{len(chosen)}] {time.monotonic() - start:.0f}s",
                          flush=True)

    counts = Counter(r["status"] for r in results.values())
    print(f"reference model on our TOSA: {len(results)} cases in "
          f"{time.monotonic() - start:.0f}s: " +
          ", ".join(f"{s} {counts[s]}" for s in STATUSES if counts[s]))
    by_detail = Counter((r["status"], re.sub(r"'[^']*'|\d+", "_", r["detail"])[:90])
                        for r in results.values() if r["status"] != "pass")
    for (status, detail), n in by_detail.most_common(8):
        print(f"  {n:4} {status}: {detail}")
    levels = [r["level_8k"] for r in results.values() if "level_8k" in r]
    outside = Counter(re.sub(r"\b\d+\b", "_", l.split("error: ")[-1])[:90]
                      for l in levels if l)
    print(f"TOSA 8K level: {len(levels) - sum(outside.values())} of "
          f"{len(levels)} emitted modules within it (and no ERROR_IF)")
    for detail, n in outside.most_common(8):
        print(f"  {n:4} outside: {detail}")

    if args.gpu_results and args.gpu_results.is_file():
        gpu = json.loads(args.gpu_results.read_text())["cases"]
        table = Counter()
        for name, r in results.items():
            ours = gpu.get(name, {}).get("status")
            if ours is None or r["status"] not in ("pass", "mismatch"):
                continue
            table[(ours == "pass", r["status"] == "pass")] += 1
        print("three figures (cases the reference model ran): "
              f"both right {table[(True, True)]}; reference right, ours "
              f"wrong (code generation) {table[(False, True)]}; reference "
              f"wrong too (legalization) {table[(False, False)]}; ours right, "
              f"reference wrong {table[(True, False)]}")

    if args.results:
        args.results.write_text(json.dumps(
            {"cases": results, "counts": dict(counts)}, indent=1))
    listed = read_xfail(args.xfail)
    if args.update_xfail:
        lines = [f"{n} {r['status']}" for n, r in sorted(results.items())
                 if r["status"] != "pass"]
        header = ("# Cases whose TOSA the reference model does not pass "
                  "(test/tosa/reference_model.py --update-xfail).\n")
        args.xfail.write_text(header + "\n".join(lines) + "\n")
        print(f"reference_model.py: wrote {args.xfail}")
        return 0
    changed = [(n, listed.get(n, "pass"), r["status"])
               for n, r in sorted(results.items())
               if r["status"] != listed.get(n, "pass")]
    for name, want, got in changed[:40]:
        print(f"  CHANGED {name}: expected {want}, got {got}: "
              f"{results[name]['detail']}")
    if changed:
        print(f"reference_model.py: {len(changed)} cases changed against "
              f"{os.path.relpath(args.xfail)} (--update-xfail records them)")
        return 1
    print("reference_model.py: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
