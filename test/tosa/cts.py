#!/usr/bin/env python3
"""The official TOSA conformance tests on our pipeline: tosa-tools'
conformance generator (tosa_verif_conformance_generator, with its
cts-config selection, TOSA 1.0, profiles PRO-INT and PRO-FP, positive tests)
writes the tests of some operators; the official runner
(tosa_verif_run_tests) runs each on the reference model and on onnx-tosa
(test/tosa/cts/onnx_tosa_sut.py: compiled by onnx-tosa-compile, run by
onnx-tosa-run on a target) and judges our outputs with the specification's
compliance modes (tosa_verify). Failures are compared with an
expected-failure list, which only shrinks.

  cts.py                                       # the CI sample
  cts.py --operators all --per-operator 0      # every test (on demand; long)
"""
import argparse
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TOOLS = REPO / ".venv-tosa" / "bin"
SUT = "onnx_tosa_sut"
# A sample across the op families (elementwise, comparison, reduction,
# data movement, contraction, pooling, type conversion); each operator
# brings the tests the CTS selection gives it.
CI_OPERATORS = ["add", "mul", "sub", "abs", "negate", "exp", "tanh",
                "sigmoid", "reduce_sum", "reduce_max", "argmax", "matmul",
                "transpose", "reshape", "slice", "concat", "pad", "tile",
                "reverse", "clamp", "greater", "select", "gather", "cast",
                "max_pool2d", "avg_pool2d"]


def read_xfail(path):
    listed = set()
    if path.is_file():
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                listed.add(line)
    return listed


def results(xunit):
    """{test name: failure message or ''} of our system under test."""
    out = {}
    for case in ET.parse(xunit).getroot().iter("testcase"):
        if case.get("classname", "") != SUT and SUT not in case.get("classname", ""):
            continue
        name = Path(case.get("name")).name
        failure = case.find("failure")
        error = case.find("error")
        skipped = case.find("skipped")
        if skipped is not None:
            continue
        bad = failure if failure is not None else error
        out[name] = "" if bad is None else (bad.get("message") or
                                            (bad.text or "").strip() or "fail")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--operators", nargs="+", default=CI_OPERATORS,
                   help="operators (lower case, as the CTS names them), or "
                        "'all'")
    p.add_argument("--target", default="vulkan")
    p.add_argument("--bin-dir", type=Path, default=REPO / "build" / "bin")
    p.add_argument("--out", type=Path, default=REPO / "build" / "tosa-cts")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--per-operator", type=int, default=12,
                   help="run at most this many of each operator's tests, "
                        "spread evenly over its sorted list (0: all)")
    p.add_argument("--xfail", type=Path, default=HERE / "xfail-cts.txt")
    p.add_argument("--update-xfail", action="store_true")
    args = p.parse_args()

    env = dict(os.environ, PATH=f"{TOOLS}:{os.environ.get('PATH', '')}",
               PYTHONPATH=str(HERE / "cts"))
    tests = args.out / "tests"
    start = time.time()
    if tests.exists():
        subprocess.run(["rm", "-rf", str(tests)], check=True)
    gen = ["tosa_verif_conformance_generator", "--profile", "tosa-pro-int",
           "tosa-pro-fp", "--extension", "none", "--test-type", "positive",
           "--tosa-version", "1.0", "--output-type", "binary", "--seed", "42",
           "--ref-model-path", str(TOOLS / "tosa_reference_model"),
           "--output-directory", str(tests),
           "--build-directory", str(args.out / "generate"), "-j",
           str(args.jobs)]
    if args.operators != ["all"]:
        gen += ["--operators", *args.operators]
    print(f"cts: generating the conformance tests of "
          f"{'every operator' if args.operators == ['all'] else ', '.join(args.operators)}")
    g = subprocess.run(gen, env=env, capture_output=True, text=True)
    if g.returncode != 0:
        print(g.stdout[-2000:], g.stderr[-2000:], file=sys.stderr)
        print("cts: the conformance generator failed", file=sys.stderr)
        return 2
    # A sample of each operator's tests (the CTS gives conv2d hundreds):
    # evenly spaced over their sorted names, so the same for a seed.
    generated = sorted(d.parent for d in tests.rglob("desc.json"))
    by_op = {}
    for d in generated:
        by_op.setdefault(d.parent, []).append(d)
    kept = []
    for op_tests in by_op.values():
        n = len(op_tests)
        k = args.per_operator
        if k and n > k:
            chosen = {round(i * (n - 1) / (k - 1)) for i in range(k)}
            for i, d in enumerate(op_tests):
                if i not in chosen:
                    subprocess.run(["rm", "-rf", str(d)], check=True)
            op_tests = [op_tests[i] for i in sorted(chosen)]
        kept += op_tests
    print(f"cts: {len(generated)} tests generated in "
          f"{time.time() - start:.0f} s; running {len(kept)} of them on the "
          f"reference model and on onnx-tosa ({args.target})")
    xunit = args.out / "results.xml"
    run = ["tosa_verif_run_tests", "-r", "-t", str(tests), "--ref-model-path",
           str(TOOLS / "tosa_reference_model"), "--sut-module",
           "runner.tosa_refmodel_compliance_sut_run", SUT,
           "--sut-module-args", f"{SUT}:bin={args.bin_dir}",
           f"{SUT}:target={args.target}", "-j", str(args.jobs),
           "--no-color", "--xunit-file", str(xunit)]
    r = subprocess.run(run, env=env, capture_output=True, text=True)
    if not xunit.is_file():
        print(r.stdout[-3000:], r.stderr[-3000:], file=sys.stderr)
        print("cts: the test runner wrote no results", file=sys.stderr)
        return 2
    got = results(xunit)
    failed = {n: m for n, m in got.items() if m}
    listed = read_xfail(args.xfail)
    unexpected = sorted(set(failed) - listed)
    now_pass = sorted(n for n in listed & set(got) if not got[n])
    print(f"cts: {len(got)} tests in {time.time() - start:.0f} s: "
          f"{len(got) - len(failed)} pass, {len(failed)} fail "
          f"({len(failed) - len(unexpected)} expected); unexpected failures "
          f"{len(unexpected)}, unexpected passes {len(now_pass)}")
    by_op = {}
    for n in failed:
        by_op.setdefault(re.sub(r"_.*", "", n), []).append(n)
    for op, names in sorted(by_op.items()):
        print(f"  {op}: {len(names)} failing")
    if args.update_xfail:
        args.xfail.write_text(
            "# Official TOSA conformance tests (test/tosa/cts.py, the CI\n"
            "# sample) that fail on onnx-tosa (vulkan), with the runner's\n"
            "# message. Only shrinks: rewrite deliberately with\n"
            "#   test/tosa/cts.py --update-xfail\n" +
            "".join(f"{n}  # {failed[n][:160]}\n" for n in sorted(failed)))
        print(f"cts: wrote {args.xfail}")
        return 0
    for n in unexpected:
        print(f"  UNEXPECTED FAILURE {n}: {failed[n][:300]}")
    for n in now_pass:
        print(f"  UNEXPECTED PASS {n}: remove it from {args.xfail.name}")
    return 1 if unexpected or now_pass else 0


if __name__ == "__main__":
    sys.exit(main())
