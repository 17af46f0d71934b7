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

The negative tests (--test-type negative) are graphs the specification
says are errors (ERROR_IF): each must be refused by the compiler as invalid
TOSA, not compiled. Those whose error is a wrong operand or result list
(ERRORIF_WrongInputList, ERRORIF_WrongOutputList) cannot be told apart in
MLIR, where an op's operands are fixed by its definition: tosa-opt drops
the extra operand or fails to read the graph; they are counted apart.

  cts.py                                       # the CI sample
  cts.py --test-type negative                  # every ERROR_IF test (CI)
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
# Negative tests whose error is the op's operand or result list.
UNREPRESENTABLE = re.compile(r"_ERRORIF_Wrong(Input|Output)List_")
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
    p.add_argument("--test-type", choices=["positive", "negative"],
                   default="positive",
                   help="positive tests (run and judged) or negative ones "
                        "(ERROR_IF graphs, to be refused; default: every "
                        "operator's, all of them)")
    p.add_argument("--xfail", type=Path,
                   help="default: xfail-cts.txt, or xfail-cts-negative.txt "
                        "for the negative tests")
    p.add_argument("--update-xfail", action="store_true")
    args = p.parse_args()
    negative = args.test_type == "negative"
    if negative and "--operators" not in sys.argv:
        args.operators = ["all"]
    if negative and "--per-operator" not in sys.argv:
        args.per_operator = 0
    if args.xfail is None:
        args.xfail = HERE / ("xfail-cts-negative.txt" if negative
                             else "xfail-cts.txt")
    if negative and "--out" not in sys.argv:
        args.out = args.out.parent / (args.out.name + "-negative")

    env = dict(os.environ, PATH=f"{TOOLS}:{os.environ.get('PATH', '')}",
               PYTHONPATH=str(HERE / "cts"))
    tests = args.out / "tests"
    start = time.time()
    if tests.exists():
        subprocess.run(["rm", "-rf", str(tests)], check=True)
    gen = ["tosa_verif_conformance_generator", "--profile", "tosa-pro-int",
           "tosa-pro-fp", "--extension", "none", "--test-type", args.test_type,
           "--tosa-version", "1.0", "--output-type", "binary", "--seed", "42",
           "--ref-model-path", str(TOOLS / "tosa_reference_model"),
           "--output-directory", str(tests),
           "--build-directory", str(args.out / "generate"), "-j",
           str(args.jobs)]
    if args.operators != ["all"]:
        gen += ["--operators", *args.operators]
    print(f"cts: generating the {args.test_type} conformance tests of "
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
           f"{SUT}:target={args.target}", "--test-type", args.test_type,
           "-j", str(args.jobs),
           "--no-color", "--xunit-file", str(xunit)]
    r = subprocess.run(run, env=env, capture_output=True, text=True)
    if not xunit.is_file():
        print(r.stdout[-3000:], r.stderr[-3000:], file=sys.stderr)
        print("cts: the test runner wrote no results", file=sys.stderr)
        return 2
    # (Messages without this machine's paths: they go into the list.)
    got = {n: m.replace(f"{tests}/", "").replace(f"{REPO}/", "")
           for n, m in results(xunit).items()}
    if negative:
        unrepresentable = {n for n in got if UNREPRESENTABLE.search(n)}
        refused = sum(1 for n, m in got.items()
                      if not m and n not in unrepresentable)
        accepted = sum(1 for n, m in got.items()
                       if "UNEXPECTED_PASS" in m and n not in unrepresentable)
        unread = sum(1 for n, m in got.items()
                     if "tosa-opt:" in m and n not in unrepresentable)
        print(f"cts: negative tests: {len(got)}; of the "
              f"{len(got) - len(unrepresentable)} that MLIR can express, "
              f"{refused} refused as invalid TOSA, {accepted} accepted, "
              f"{unread} not read by tosa-opt, "
              f"{len(got) - len(unrepresentable) - refused - accepted - unread}"
              f" failed otherwise; {len(unrepresentable)} are a wrong "
              f"operand or result list, which it cannot")
        got = {n: m for n, m in got.items() if n not in unrepresentable}
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
            f"# Official TOSA conformance tests (test/tosa/cts.py "
            f"--test-type {args.test_type},\n"
            f"# the CI selection) that fail on onnx-tosa ({args.target}), "
            f"with the runner's\n"
            "# message. Only shrinks: rewrite deliberately with\n"
            f"#   test/tosa/cts.py --test-type {args.test_type} "
            "--update-xfail\n" +
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
