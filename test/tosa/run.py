"""TOSA conformance runner: the lowering (onnx-tosa-compile + onnx-tosa-run)
against the reference evaluator (onnx-tosa-eval), judged by the TOSA 1.0
compliance modes (compliance.py).

  run.py [--target=vulkan|cuda] [--device=auto] [-j N] [--table FILE]
         [--xfail FILE | --update-xfail] [--filter REGEX] [--seed N]
         [--results FILE.json]
  run.py --compile-only [--target=...] [--artifacts DIR] [--filter REGEX]
  run.py --precompiled [--target=...] [--artifacts DIR] [--run-bin PATH] ...
  run.py --model model.onnx [--target=...] [--device=...]

Case mode generates the single-op cases (generate.py), then for each one:
evaluates the reference, compiles the case for the target, runs it on the
device and checks every output. A case ends in one status:

  pass           the output is compliant
  fail           the output is not compliant (the detail says where)
  compile-error  onnx-tosa-compile failed (its first error line is kept)
  run-error      onnx-tosa-run failed
  ref-error      the evaluator rejected the case (unsupported op, ERROR_IF)
  unpredictable  a REQUIRE of the specification failed for these inputs
  timeout        a step ran past --timeout seconds

With an expected-failure list (default test/tosa/xfail-<target>.txt; lines
`CASE STATUS`), the exit status is 1 when any case's status differs from the
list (a new failure, or a listed case that now passes), else 0. Without one,
any status but pass exits 1. --update-xfail rewrites the list.

Compile here, run there (a GPU machine without LLVM/MLIR): --compile-only
generates the cases into DIR/<target> (default build/tosa-conformance),
evaluates the reference and compiles every case, and writes
DIR/<target>/manifest.json; nothing is run or judged. Carry DIR/<target>
to the GPU machine and run --precompiled there: it needs only onnx-tosa-run
(--run-bin) and python3 with numpy; the reference outputs and the compile
statuses come from the manifest's directory, and the rest (xfail check,
--update-xfail, --table, --results) is as in a full run.

Model mode checks a whole ONNX model's TOSA: --emit=tosa, compile that,
run it with random inputs, evaluate the same TOSA, and compare each output
with the compliance mode of the op that produced it (strict; errors of the
ops before it accumulate, so it also reports the error in ULPs and passes
within --model-ulps).
"""
import argparse
import concurrent.futures as futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import compliance  # noqa: E402
import generate  # noqa: E402

# What is known about a non-passing case: (case-name regex, note). Shown in
# the table; evidence in docs/tosa-conformance.md.
KNOWN = [
    (r"^(cond_if|while_loop)\.", "the scf control flow that tosa-to-scf makes is not handled by our GPU pipeline yet (host/device split, bufferization)"),
    (r"^pow\.", "math.powf -> SPIR-V GL.Pow(|x|, y): NaN inputs not propagated on Vulkan"),
    (r"\.(bf16|f32_to_bf16)|bf16_to", "bf16 on Vulkan: wrong values or no lowering (not diagnosed yet)"),
    (r"i16_to_i48|\.i16\.(basic|bilinear)|resize\.i16\.bilinear", "i48 results: no SPIR-V type; no i48 artifact I/O on CUDA"),
    (r"^erf\.", "math.erf has no SPIR-V lowering (needs a polynomial expansion)"),
    (r"^(clz\.|avg_pool2d\.i)", "CUDA: math.ctlz is not converted to LLVM by our NVPTX pipeline"),
    (r"^rfft2d\.:fail", "CUDA: imaginary parts that are exactly 0 (sin of multiples of pi) come out as f32 rounding noise; the bound there is 0"),
    (r"^r?fft2d\.:compile-error", "index.mul left in the kernel (FFT lowering) is not legal in SPIR-V"),
]


def known_note(name, status=""):
    """The note of the first KNOWN pattern matching `name` (a pattern may end
    in `:STATUS` to apply to that status only)."""
    for pattern, note in KNOWN:
        pattern, _, want = pattern.partition(":")
        if re.search(pattern, name) and (not want or want == status):
            return note
    return ""


STATUSES = ("pass", "fail", "compile-error", "run-error", "ref-error",
            "unpredictable", "timeout")


class Tools:
    def __init__(self, bin_dir, eval_bin=None, run_bin=None):
        self.compile = os.path.join(bin_dir, "onnx-tosa-compile")
        self.run = run_bin or os.path.join(bin_dir, "onnx-tosa-run")
        self.eval = eval_bin or os.path.join(bin_dir, "onnx-tosa-eval")

    def missing(self, mode="full"):
        """The tools a mode needs that are not there: --compile-only needs
        the compiler and the evaluator, --precompiled only the runtime."""
        needed = {"full": (self.compile, self.run, self.eval),
                  "compile-only": (self.compile, self.eval),
                  "precompiled": (self.run,)}[mode]
        return [p for p in needed if not os.access(p, os.X_OK)]


def first_error(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower():
            return l[:300]
    return lines[0][:300] if lines else "(no message)"


def step(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s: {' '.join(cmd[:2])}"


def input_args(case_dir):
    """--input NAME=FILE for every input<i>.npy of a case."""
    args = []
    for f in sorted(f for f in os.listdir(case_dir) if re.fullmatch(r"input\d+\.npy", f)):
        args += ["--input", f"{f[:-4]}={os.path.join(case_dir, f)}"]
    return args


def reference_step(case_dir, tools, timeout):
    """Evaluates the reference into CASE/ref. None when it is valid, else the
    case's final (status, detail)."""
    ref_dir = os.path.join(case_dir, "ref")
    shutil.rmtree(ref_dir, ignore_errors=True)
    rc, out = step([tools.eval, os.path.join(case_dir, "model.mlir"), *input_args(case_dir),
                    f"--output-dir={ref_dir}", "--compliance"], timeout)
    if rc is None:
        return "timeout", out
    if rc == 3:
        return "unpredictable", first_error(out.replace("unpredictable:", "error: unpredictable:"))
    if rc != 0:
        return "ref-error", first_error(out)
    return None


def compile_step(case_dir, tools, target, timeout):
    """Compiles CASE/case.<target>.otsa. None on success, else the case's
    final (status, detail)."""
    artifact = os.path.join(case_dir, f"case.{target}.otsa")
    rc, out = step([tools.compile, os.path.join(case_dir, "model.mlir"), f"--target={target}",
                    "-o", artifact], timeout)
    if rc is None:
        return "timeout", out
    if rc != 0:
        return "compile-error", first_error(out)
    return None


def run_case(case_dir, tools, target, device, timeout):
    """Returns (status, detail) for one generated case directory."""
    return (reference_step(case_dir, tools, timeout)
            or compile_step(case_dir, tools, target, timeout)
            or run_step(case_dir, tools, target, device, timeout))


def run_step(case_dir, tools, target, device, timeout):
    """Runs the compiled case on the device and judges every output against
    the reference in CASE/ref."""
    ref_dir, dev_dir = os.path.join(case_dir, "ref"), os.path.join(case_dir, "dev")
    shutil.rmtree(dev_dir, ignore_errors=True)
    artifact = os.path.join(case_dir, f"case.{target}.otsa")
    rc, out = step([tools.run, artifact, f"--device={device}", *input_args(case_dir),
                    f"--output-dir={dev_dir}", "--quiet"], timeout)
    if rc is None:
        return "timeout", out
    if rc != 0:
        return "run-error", first_error(out)

    names = sorted(f[:-len(".compliance.json")] for f in os.listdir(ref_dir)
                   if f.endswith(".compliance.json"))
    details = []
    for name in names:
        try:
            ok, detail = compliance.load_and_check(ref_dir, dev_dir, name)
        except Exception as e:  # a malformed output is a failure, not a crash
            ok, detail = False, f"{type(e).__name__}: {e}"
        if not ok:
            return "fail", f"{name}: {detail}"
        details.append(f"{name}: {detail}")
    return "pass", "; ".join(details)


def read_xfail(path):
    expected = {}
    if not path or not os.path.exists(path):
        return expected
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, status = line.split()[:2]
                expected[name] = status
    return expected


def write_xfail(path, target, results, partial=False):
    """Rewrites the list; the comment lines heading an existing list (where
    and how it was measured) are kept, and so are, when only some cases ran
    (`partial`, a --filter), the lines of the cases that did not run."""
    header, kept = "", []
    if os.path.exists(path):
        with open(path) as f:
            lines = f.readlines()
        for line in lines:
            if not line.startswith("#"):
                break
            header += line
        if partial:
            kept = [(l.split()[0], l) for l in lines
                    if l.split("#", 1)[0].strip() and l.split()[0] not in results]
    with open(path, "w") as f:
        f.write(header or
                f"# Expected non-passing TOSA conformance cases on {target}: CASE STATUS\n"
                f"# (the first error line follows as a comment). Regenerate with\n"
                f"#   scripts/tosa-conformance.sh --target={target} --update-xfail\n")
        entries = [(name, f"{name} {status}  # {detail[:200]}\n")
                   for name, (status, detail) in results.items() if status != "pass"]
        for _, line in sorted(entries + kept):
            f.write(line)


def op_and_dtype(case_dir):
    with open(os.path.join(case_dir, "case.json")) as f:
        case = json.load(f)
    return case["op"], case["dtype"]


DOC_TAIL = """## The reference evaluator

`onnx-tosa-eval FILE.mlir --input NAME=FILE.npy ... --output-dir DIR
[--compliance]` (library `reference/tosa-eval/`) evaluates a `func.func` of
TOSA ops from the TOSA 1.0 pseudocode: integers exactly (int64 host
arithmetic with the specification's wrapping, saturation, rounding and
REQUIREs), floating point in fp64. Float results are written as float64 (the
unrounded fp64 reference), integer results exactly. Exit status 0 valid,
1 error (unsupported op, ERROR_IF), 3 unpredictable (a REQUIRE failed: any
output is compliant). It shares no code with tosa-to-linalg.

Ops: elementwise unary/binary/ternary, comparisons, activations, CLAMP,
TABLE; CAST; RESCALE (all rounding modes, per-channel, unsigned in/out);
REDUCE_ALL/ANY/MAX/MIN/PRODUCT/SUM, ARGMAX; MATMUL, CONV2D, CONV3D,
DEPTHWISE_CONV2D, TRANSPOSE_CONV2D, AVG_POOL2D, MAX_POOL2D, FFT2D, RFFT2D;
CONCAT, PAD, RESHAPE, REVERSE, SLICE, TILE, TRANSPOSE, IDENTITY, GATHER,
SCATTER; RESIZE; CONST, CONST_SHAPE; COND_IF, WHILE_LOOP; VARIABLE,
VARIABLE_READ, VARIABLE_WRITE. Types: bool, i4-i64, f16, bf16, f32, fp8
(storage and rounding only). Not evaluated: CUSTOM, the block-scaled ops.

Where LLVM 22's tosa-to-linalg lowers an op wrongly, our pipeline lowers it
first (`pipelines/tosa-to-gpu/UpstreamWorkarounds.cpp`, each pattern naming
the upstream bug): RESCALE to i64 (llvm#224020) and with INEXACT_ROUND,
floating-point MAX_POOL2D (an all-NaN window with nan_mode=IGNORE is NaN, a
window of -inf is -inf), integer bilinear RESIZE (llvm#184799, llvm#193821).

Statuses on CUDA (an H200; cases compiled here, run there) are in
`test/tosa/xfail-cuda.txt`: `scripts/tosa-conformance.sh --target=cuda
--compile-only` prepares the cases (references and artifacts) in
`build/tosa-conformance/cuda`, and `scripts/gpu-machine-check.sh` runs them
on the GPU machine with `--precompiled` (onnx-tosa-run only), writing the
CUDA and Vulkan tables and JSON results into its output folder.

A whole model's TOSA is checked with
`scripts/tosa-conformance.sh --model=model.onnx [--target=...]`: the output of
each function result is judged by the compliance mode of the op that made it,
and (because the errors of earlier ops accumulate) also reported in ULPs.

"""


def write_table(path, target, device, seed, cases_dir, results, seconds, command, how=""):
    rows = {}
    for name, (status, detail) in results.items():
        op, dtype = op_and_dtype(os.path.join(cases_dir, name))
        rows.setdefault((op, dtype), []).append((name, status, detail))
    counts = {s: sum(1 for st, _ in results.values() if st == s) for s in STATUSES}
    lines = [
        "# TOSA conformance of the lowering",
        "",
        "Single-op TOSA functions, compiled by `onnx-tosa-compile` (upstream "
        "tosa-to-linalg and our GPU pipeline) and run by `onnx-tosa-run`, judged "
        "against the reference evaluator `onnx-tosa-eval` (written from the TOSA "
        "1.0 specification's pseudocode) with the specification's compliance "
        "modes (`test/tosa/compliance.py`: exact integers; ULP, absolute-error, "
        "dot-product and relative bounds for floating point; the special-value "
        "tables). Cases come from `test/tosa/generate.py`; the runner is "
        "`test/tosa/run.py`.",
        "",
        f"Generated by `{command}` (target `{target}`, device `{device}`, "
        f"seed {seed}; {len(results)} cases in {seconds:.0f} s{how}).",
        "",
        "| status | cases |", "|---|---|",
    ]
    lines += [f"| {s} | {counts[s]} |" for s in STATUSES if counts[s]]
    lines += ["", "## Per op and data type", "",
              "| op | data type | passed | not passing (status: first error or check detail) |",
              "|---|---|---|---|"]
    for (op, dtype) in sorted(rows):
        entries = rows[(op, dtype)]
        passed = sum(1 for _, s, _ in entries if s == "pass")
        bad = [(f"`{n}` {s}: {d[:160]}" + (f" — *{known_note(n, s)}*" if known_note(n, s) else ""))
               .replace("|", "\\|") for n, s, d in entries if s != "pass"]
        mark = "✅" if passed == len(entries) else ("❌" if passed == 0 else "⚠️")
        lines.append(f"| {op} | {dtype} | {mark} {passed}/{len(entries)} | {'<br>'.join(bad)} |")
    lines += ["", DOC_TAIL, "## Reading it", "",
              "* `compile-error` / `run-error`: the lowering or the runtime does not "
              "handle the op or data type on this target (the first error line is "
              "shown); a gap, not a wrong answer.",
              "* `fail`: the target computed a non-compliant result: a lowering bug "
              "(upstream or ours) or a reference bug; the detail names the first "
              "element out of bounds.",
              "* Expected statuses live in `test/tosa/xfail-<target>.txt`; CI fails "
              "when a status changes.", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def compiler_stamp(path):
    """A short fingerprint of the compiler binary (which build made the
    artifacts)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def for_each_case(args, cases_dir, names, fn):
    """fn(case_dir) -> (status, detail) over the cases, args.jobs at a time."""
    results = {}
    with futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        jobs = {pool.submit(fn, os.path.join(cases_dir, n)): n for n in names}
        for job in futures.as_completed(jobs):
            name = jobs[job]
            try:
                results[name] = job.result()
            except Exception as e:
                results[name] = ("ref-error", f"runner: {type(e).__name__}: {e}")
            if args.verbose:
                print(f"{results[name][0]:14} {name}: {results[name][1][:200]}", flush=True)
    return results


def compile_cases(args, tools):
    """--compile-only: generate, evaluate the reference and compile every
    case into ARTIFACTS/<target>, for a --precompiled run elsewhere."""
    cases_dir = os.path.join(args.artifacts, args.target)
    names = generate.generate(cases_dir, args.seed, args.filter)
    start = time.time()

    def prepare(case_dir):
        return (reference_step(case_dir, tools, args.timeout)
                or compile_step(case_dir, tools, args.target, args.timeout)
                or ("compiled", ""))

    results = for_each_case(args, cases_dir, names, prepare)
    manifest = {"target": args.target, "seed": args.seed, "filter": args.filter,
                "compiler": compiler_stamp(tools.compile),
                "created": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                "cases": {n: list(results[n]) for n in sorted(results)}}
    with open(os.path.join(cases_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    counts = {}
    for status, _ in results.values():
        counts[status] = counts.get(status, 0) + 1
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    print(f"run.py: {len(results)} cases for {args.target} prepared in "
          f"{time.time() - start:.0f} s: {summary}")
    print(f"run.py: artifacts in {cases_dir}; on the device machine run "
          f"--target={args.target} --precompiled with that folder carried along")
    return 0


def run_precompiled(args, tools):
    """--precompiled: run the cases --compile-only prepared; statuses decided
    at compile time (compile-error, ref-error, ...) are taken as recorded."""
    cases_dir = os.path.join(args.artifacts, args.target)
    path = os.path.join(cases_dir, "manifest.json")
    if not os.path.exists(path):
        print(f"run.py: no {os.path.relpath(path)}: run --target={args.target} "
              f"--compile-only on a machine with the compiler and carry the folder here")
        return None, None, None
    with open(path) as f:
        manifest = json.load(f)
    prepared = manifest["cases"]
    names = [n for n in sorted(prepared) if args.filter is None or re.search(args.filter, n)]

    def finish(case_dir):
        status, detail = prepared[os.path.basename(case_dir)]
        if status != "compiled":
            return status, detail
        return run_step(case_dir, tools, args.target, args.device, args.timeout)

    args.seed = manifest["seed"]
    return for_each_case(args, cases_dir, names, finish), cases_dir, manifest


def write_results(path, args, results, cases_dir, expected, seconds, manifest):
    cases = {}
    for name in sorted(results):
        status, detail = results[name]
        op, dtype = op_and_dtype(os.path.join(cases_dir, name))
        cases[name] = {"op": op, "dtype": dtype, "status": status, "detail": detail,
                       "expected": expected.get(name, "pass") if expected is not None else "pass"}
    counts = {s: sum(1 for st, _ in results.values() if st == s) for s in STATUSES}
    doc = {"target": args.target, "device": args.device, "seed": args.seed,
           "precompiled": bool(args.precompiled), "seconds": round(seconds, 1),
           "compiler": manifest.get("compiler") if manifest else None,
           "counts": {s: n for s, n in counts.items() if n}, "cases": cases}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def run_cases(args, tools):
    if args.compile_only:
        return compile_cases(args, tools)
    start = time.time()
    manifest = None
    if args.precompiled:
        results, cases_dir, manifest = run_precompiled(args, tools)
        if results is None:
            return 2
    else:
        cases_dir = args.cases or tempfile.mkdtemp(prefix="tosa-conformance-")
        names = generate.generate(cases_dir, args.seed, args.filter)
        results = for_each_case(
            args, cases_dir, names,
            lambda d: run_case(d, tools, args.target, args.device, args.timeout))
    seconds = time.time() - start

    xfail_path = args.xfail or os.path.join(HERE, f"xfail-{args.target}.txt")
    if args.update_xfail:
        write_xfail(xfail_path, args.target, results, partial=args.filter is not None)
        print(f"run.py: wrote {xfail_path}")
    expected = read_xfail(xfail_path) if (args.xfail or os.path.exists(xfail_path)) else None
    if args.table:
        command = "scripts/tosa-conformance.sh --target=" + args.target + \
                  (f" --device={args.device}" if args.device != "auto" else "") + \
                  (" --precompiled" if args.precompiled else "") + " --table"
        how = (f"; compiled and the reference evaluated on the build machine by "
               f"`--compile-only` (compiler {manifest['compiler']}), run here"
               if args.precompiled else "")
        write_table(args.table, args.target, args.device, args.seed, cases_dir, results,
                    seconds, command, how)
        print(f"run.py: wrote {args.table}")
    if args.results:
        write_results(args.results, args, results, cases_dir, expected, seconds, manifest)
        print(f"run.py: wrote {args.results}")

    unexpected = []
    for name in sorted(results):
        status, detail = results[name]
        want = expected.get(name, "pass") if expected is not None else "pass"
        if args.filter is None or re.search(args.filter, name):
            if status != want:
                unexpected.append((name, status, want, detail))
    counts = {s: sum(1 for st, _ in results.values() if st == s) for s in STATUSES}
    summary = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
    mode = " (precompiled)" if args.precompiled else ""
    print(f"run.py: {len(results)} cases on {args.target} ({args.device}){mode} in {seconds:.0f} s: {summary}")
    for name, status, want, detail in unexpected:
        print(f"  UNEXPECTED {name}: {status} (expected {want}): {detail[:300]}")
    if not args.cases and not args.precompiled:
        shutil.rmtree(cases_dir, ignore_errors=True)
    matched = len(results) - len(unexpected)
    print(f"{matched} passed, {len(unexpected)} failed")
    return 1 if unexpected else 0


def run_model(args, tools):
    """Checks a whole model's TOSA against the evaluator on the target."""
    work = args.cases or tempfile.mkdtemp(prefix="tosa-model-")
    os.makedirs(work, exist_ok=True)
    tosa = os.path.join(work, "model.tosa.mlir")
    rc, out = step([tools.compile, args.model, "--emit=tosa", "-o", tosa], args.timeout)
    if rc != 0:
        print(f"run.py: --emit=tosa failed: {first_error(out or '')}")
        return 1
    # LLVM 22 prints `extensions = []` in #tosa.target_env but cannot parse
    # it back; the attribute carries nothing the later stages need.
    text = open(tosa).read()
    text = re.sub(r",?\s*tosa\.target_env = #tosa\.target_env<[^>]*>", "", text)
    text = text.replace("attributes {, ", "attributes {").replace("attributes {}", "")
    with open(tosa, "w") as f:
        f.write(text)
    artifact = os.path.join(work, f"model.{args.target}.otsa")
    rc, out = step([tools.compile, tosa, f"--target={args.target}", "-o", artifact], args.timeout)
    if rc != 0:
        print(f"run.py: compile-error: {first_error(out or '')}")
        return 1
    dev_dir, ref_dir = os.path.join(work, "dev"), os.path.join(work, "ref")
    rc, out = step([tools.run, artifact, f"--device={args.device}", f"--random-inputs={args.seed}",
                    f"--output-dir={dev_dir}", "--quiet"], args.timeout)
    if rc != 0:
        print(f"run.py: run-error: {first_error(out or '')}")
        return 1
    inputs = [f for f in os.listdir(dev_dir) if f.startswith("input_") and f.endswith(".npy")]
    in_args = []
    for f in inputs:
        in_args += ["--input", f"{f[len('input_'):-4]}={os.path.join(dev_dir, f)}"]
    rc, out = step([tools.eval, tosa, *in_args, f"--output-dir={ref_dir}", "--compliance"], args.timeout)
    if rc not in (0, 3):
        print(f"run.py: ref-error: {first_error(out or '')}")
        return 1
    if rc == 3:
        print(f"run.py: unpredictable: {first_error(out.replace('unpredictable:', 'error:'))}")
        return 0
    failed = 0
    for f in sorted(os.listdir(ref_dir)):
        if not f.endswith(".compliance.json"):
            continue
        name = f[:-len(".compliance.json")]
        ok, detail = compliance.load_and_check(ref_dir, dev_dir, name)
        info = json.load(open(os.path.join(ref_dir, f)))
        ref, imp = np.load(os.path.join(ref_dir, name + ".npy")), np.load(os.path.join(dev_dir, name + ".npy"))
        t = info["element_type"]
        if t in compliance.FLOAT_TYPES:
            ulp = compliance.ulp_bound(ref, 1, t)
            with np.errstate(divide="ignore", invalid="ignore"):
                e = np.abs(imp.astype(np.float64) - ref) / np.where(ulp > 0, ulp, np.inf)
            worst = float(np.nanmax(e)) if e.size else 0.0
            verdict = ok or worst <= args.model_ulps
            print(f"{'PASS' if verdict else 'FAIL'} {name} ({info['op']}, {t}): "
                  f"last-op compliance {'ok' if ok else 'exceeded'} ({detail}); "
                  f"max error {worst:.3g} ULP (limit {args.model_ulps})")
        else:
            verdict = ok
            print(f"{'PASS' if ok else 'FAIL'} {name} ({info['op']}, {t}): {detail}")
        failed += not verdict
    print(f"run.py: model artifacts in {work}")
    return 1 if failed else 0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target", default="vulkan", choices=("vulkan", "cuda"))
    p.add_argument("--device", default="auto")
    p.add_argument("--bin-dir", default=os.environ.get("ONNX_TOSA_BIN_DIR", os.path.join(ROOT, "build", "bin")))
    p.add_argument("--eval-bin", help="onnx-tosa-eval to use (default: in --bin-dir)")
    p.add_argument("--run-bin", help="onnx-tosa-run to use (default: in --bin-dir)")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=60, help="seconds per step of a case")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--filter", help="only cases whose name matches this regex")
    p.add_argument("--cases", help="keep the generated cases (or model work files) here")
    p.add_argument("--table", help="write the per-op, per-dtype table (markdown) here")
    p.add_argument("--xfail", help="expected-failure list (default: test/tosa/xfail-<target>.txt)")
    p.add_argument("--update-xfail", action="store_true", help="rewrite the expected-failure list")
    p.add_argument("--model", help="check this ONNX model's TOSA instead of the op cases")
    p.add_argument("--model-ulps", type=float, default=64.0)
    p.add_argument("--results", help="write every case's status as JSON here")
    p.add_argument("--artifacts", default=os.path.join(ROOT, "build", "tosa-conformance"),
                   help="--compile-only writes, --precompiled reads DIR/<target> "
                   "(default: build/tosa-conformance)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--compile-only", action="store_true",
                      help="generate, evaluate the reference and compile into "
                      "--artifacts for a --precompiled run on a machine without "
                      "the compiler; runs and judges nothing")
    mode.add_argument("--precompiled", action="store_true",
                      help="run what --compile-only prepared in --artifacts (needs "
                      "only onnx-tosa-run, python3 and numpy)")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv[1:])
    if (args.compile_only or args.precompiled) and args.model:
        p.error("--compile-only / --precompiled apply to the op cases, not --model")
    if args.compile_only and (args.update_xfail or args.table or args.results):
        p.error("--compile-only runs and judges nothing: no --update-xfail, --table, --results")
    tools = Tools(args.bin_dir, args.eval_bin, args.run_bin)
    missing = tools.missing("compile-only" if args.compile_only else
                            "precompiled" if args.precompiled else "full")
    if missing:
        print(f"run.py: missing tools: {', '.join(missing)} (build them, or pass --bin-dir)")
        return 2
    return run_model(args, tools) if args.model else run_cases(args, tools)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
