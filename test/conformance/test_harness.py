"""Tests of the conformance harness itself (not of the compiler): output
comparison, failure classification, the xfail lists, the scoreboard, and a
whole run against stand-in tools that pass, mismatch, fail, crash and hang.
Fast, and needs no build:  .venv/bin/python -m pytest -q test/conformance
"""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness as H  # noqa: E402
import scoreboard as S  # noqa: E402
import xfail as X  # noqa: E402


# ------------------------------------------------------------ comparison

def test_floats_within_onnx_tolerance_match():
    e = np.array([1.0, 0.0, -2.0], np.float32)
    assert H.compare("y", e, e * (1 + 5e-4)) is None


def test_floats_outside_tolerance_mismatch():
    e = np.array([1.0, 2.0], np.float32)
    why = H.compare("y", e, np.array([1.0, 2.01], np.float32))
    assert why.startswith("output 'y': 1 of 2 values differ")
    assert "first at [1]" in why


def test_atol_is_tight_near_zero():
    e = np.array([0.0], np.float32)
    assert H.compare("y", e, np.array([1e-6], np.float32)) is not None


def test_nan_positions_must_agree():
    e = np.array([np.nan, 1.0], np.float32)
    assert H.compare("y", e, e.copy()) is None
    assert H.compare("y", e, np.array([0.0, 1.0], np.float32)) is not None
    assert H.compare("y", e, np.array([np.nan, np.nan], np.float32))


def test_infinities_must_agree():
    e = np.array([np.inf, -np.inf], np.float32)
    assert H.compare("y", e, e.copy()) is None
    assert H.compare("y", e, np.array([np.inf, np.inf], np.float32))


def test_integers_and_bools_are_exact():
    e = np.array([1, 2, 3], np.int64)
    assert H.compare("y", e, e.copy()) is None
    assert H.compare("y", e, np.array([1, 2, 4], np.int64)) is not None
    b = np.array([True, False])
    assert H.compare("y", b, b.copy()) is None
    assert H.compare("y", b, ~b) is not None


def test_dtype_and_shape_must_agree():
    e = np.zeros((2, 3), np.float32)
    assert "dtype float64" in H.compare("y", e, e.astype(np.float64))
    assert "shape [3, 2]" in H.compare("y", e, e.reshape(3, 2))
    assert "shape [1]" in H.compare("y", np.float32(1.0).reshape(()),
                                    np.ones((1,), np.float32))


def test_bfloat16_compares_as_float32():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    e = np.array([0.5, 1.5], dtype=ml_dtypes.bfloat16)
    assert H.compare("y", e, np.array([0.5, 1.5], np.float32)) is None


def test_bfloat16_allows_two_ulps_as_onnxs_runner_does():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    e = np.array([0.5, 1.5], dtype=ml_dtypes.bfloat16)
    ulp = 2.0**-7  # bfloat16's spacing in [1, 2); 2**-8 in [0.5, 1)
    # One step off 1.5 (relative 5.2e-3 > 1e-3) is within rtol 2**-6...
    assert H.compare("y", e, np.array([0.5, 1.5 + ulp], np.float32)) is None
    # ...and so are two off 0.5 (relative 2**-6, the limit)...
    assert H.compare("y", e, np.array([0.5 + 2 * 2.0**-8, 1.5],
                                      np.float32)) is None
    # ...but not three (relative 2.3e-2).
    why = H.compare("y", e, np.array([0.5 + 3 * 2.0**-8, 1.5], np.float32))
    assert why is not None and "first at [0]" in why
    # float32 outputs keep rtol 1e-3.
    f = np.array([1.5], np.float32)
    assert H.compare("y", f, np.array([1.5 + ulp], np.float32)) is not None


def test_narrow_types_travel_and_compare_as_bits():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    e = np.array([0.5, -448.0, np.nan, -0.0], np.float32).astype(
        ml_dtypes.float8_e4m3fn)
    bits = H.to_runner_array(e)
    assert bits.dtype == np.uint8
    assert bits.tolist() == [0x30, 0xFE, 0x7F, 0x80]
    assert H.compare("y", e, bits) is None
    # Any NaN matches a NaN; -0 is not +0; a uint8 array is required.
    assert H.compare("y", e, np.array([0x30, 0xFE, 0xFF, 0x80],
                                      np.uint8)) is None
    why = H.compare("y", e, np.array([0x30, 0xFE, 0x7F, 0x00], np.uint8))
    assert "first at [3]" in why and "bits 0x00" in why
    assert "uint8 bit patterns" in H.compare("y", e, bits.astype(np.int8))
    # 4-bit integers: the code in the low bits.
    i4 = np.array([-1, 7, -8], np.int8).astype(ml_dtypes.int4)
    assert H.to_runner_array(i4).tolist() == [0xF, 0x7, 0x8]


# -------------------------------------------------------- classification

def proc(rc, stderr="", timed_out=False):
    return H.Proc(rc, "", stderr, timed_out, 0.1)


def test_compiler_stage_comes_from_its_error_line():
    err = ("onnx-tosa-compile: warning: import: something odd\n"
           "onnx-tosa-compile: error: legalization: node 'n' (Acos, domain "
           "'ai.onnx', opset 22): unsupported op\n"
           "onnx-tosa-compile: error: legalization: a second one\n")
    stage, msg = H.classify_tool_failure("compile", proc(1, err), 60)
    assert stage == "legalization"
    assert msg == "node 'n' (Acos, domain 'ai.onnx', opset 22): unsupported op"
    assert S.unsupported_op(msg) == "Acos"


def test_compiler_error_without_stage():
    stage, msg = H.classify_tool_failure(
        "compile", proc(1, "onnx-tosa-compile: error: cannot open x\n"), 60)
    assert (stage, msg) == ("compile", "cannot open x")


def test_signal_is_a_crash():
    stage, msg = H.classify_tool_failure(
        "compile", proc(-11, "Stack dump:\n0. Program arguments: x\n"), 60)
    assert stage == "crash"
    assert msg.startswith("onnx-tosa-compile killed by SIGSEGV")


def test_internal_error_report_is_a_crash():
    stage, _ = H.classify_tool_failure(
        "run", proc(1, "x.cpp:3: Assertion `a' failed.\n"), 60)
    assert stage == "crash"


def test_timeout():
    assert H.classify_tool_failure("run", proc(-9, "", True), 60) == (
        "timeout", "onnx-tosa-run timed out after 60 s")


def test_run_error_is_runtime_and_paths_are_hidden():
    stage, msg = H.classify_tool_failure(
        "run", proc(1, "onnx-tosa-run: error: cannot read /w/c1/in0.npy\n"),
        60, replacements=(("/w/c1", "<work>"),))
    assert (stage, msg) == ("runtime", "cannot read <work>/in0.npy")


def test_success_is_not_a_failure():
    assert H.classify_tool_failure("compile", proc(0), 60) is None


def test_sanitize_matches_the_runner():
    assert H.sanitize("a/b:c d.e-f_g") == "a_b_c_d.e-f_g"


def test_sequences_and_optionals_travel_one_tensor_each():
    a, b = np.zeros(2), np.ones(3)
    assert H.flatten_value("s", [a, b]) == [("s.0", a), ("s.1", b)]
    assert H.flatten_value("s", []) == []
    assert H.flatten_value("o", None) == []  # an absent optional
    assert H.flatten_value("o", a) == [("o", a)]
    assert H.flatten_value("o", [a]) == [("o.0", a)]  # optional sequence


def test_structure_args_from_the_data(tmp_path):
    from onnx import numpy_helper
    from cases import Case
    ds = tmp_path / "test_data_set_0"
    ds.mkdir()
    seq = numpy_helper.from_list([np.zeros((2, 3), np.float32),
                                  np.zeros(4, np.float32)], "s")
    (ds / "input_0.pb").write_bytes(seq.SerializeToString())
    absent = numpy_helper.from_optional(None, "o")
    (ds / "input_1.pb").write_bytes(absent.SerializeToString())
    case = Case("c", "node", tmp_path, input_names=["s", "o"],
                all_input_names=["s", "o"],
                structured={"s": "sequence", "o": "optional"})
    assert H.structure_args(case) == [
        "--sequence-length=s=2", "--input-shape=s.0=2x3",
        "--input-shape=s.1=4", "--absent-input=o"]


# ----------------------------------------------------------- xfail lists

def test_xfail_roundtrip_and_update(tmp_path):
    path = tmp_path / "xfail-vulkan.txt"
    X.write(path, "vulkan", {"test_b": "legalization: x", "test_a": ""})
    text = path.read_text()
    assert text.index("test_a\n") < text.index("test_b  # legalization: x")
    listed = X.read(path)
    assert listed == {"test_a": "", "test_b": "legalization: x"}

    results = {"test_a": {"status": "pass"},
               "test_c": {"status": "fail", "stage": "runtime", "error": "e"}}
    assert X.check(listed, results) == (["test_c"], ["test_a"], [])
    # A subset run keeps the entries of cases it did not run ...
    assert X.updated(listed, results, None) == {
        "test_b": "legalization: x", "test_c": "runtime: e"}
    # ... a full run drops entries naming no existing case.
    assert X.updated(listed, results, {"test_a", "test_c"}) == {
        "test_c": "runtime: e"}


# ------------------------------------------------------------ scoreboard

def test_scoreboard_merges_targets():
    def run(target, statuses):
        cases = {}
        for name, st in statuses.items():
            r = {"kind": "node", "ops": ["Acos"], "primary_ops": ["Acos"],
                 "status": st, "expectation": "pass"}
            if st == "fail":
                r.update(stage="legalization", expectation="expected-failure",
                         error="node '' (Acos, domain 'ai.onnx', opset 22): "
                               "unsupported op")
            cases[name] = r
        return {"target": target, "cases": cases, "wall_s": 1, "jobs": 2}
    page = S.render([run("cuda", {"test_acos": "pass", "test_acos2": "fail"}),
                     run("vulkan", {"test_acos": "fail",
                                    "test_acos2": "fail"})])
    assert "| op | vulkan | cuda |" in page          # vulkan first
    assert "| Acos | 2 | 1 |" in page                # unsupported-op counts
    assert "| Acos | 2 | 0 | 0/2 (legalization 2) | 1/2 (legalization 1) |" \
        in page
    assert "| legalization | 2 | 1 |" in page


def test_shards_join_into_one_run():
    import run_conformance as R

    def part(shard, names, compiler="c1", whole=True):
        return {"target": "cuda", "compiler_hash": compiler, "shard": shard,
                "shards_of_whole_suite": whole, "wall_s": 10, "jobs": 4,
                "full_run": False,
                "cases": {n: {"kind": "node", "status": "pass"}
                          for n in names}}
    joined = R.join_shards([part("2/2", ["b", "d"]), part("1/2", ["a", "c"])])
    assert list(joined["cases"]) == ["a", "b", "c", "d"]
    assert joined["full_run"] and joined["parts"] == 2
    assert joined["wall_s"] == 20
    # Parts of a filtered selection, or a part missing: not the whole suite.
    assert not R.join_shards([part("1/2", ["a"], whole=False),
                              part("2/2", ["b"], whole=False)])["full_run"]
    assert not R.join_shards([part("1/3", ["a"]),
                              part("2/3", ["b"])])["full_run"]
    # Different compilers, or a run that is no part: the last one stands.
    last = part("2/2", ["b"], compiler="c2")
    assert R.join_shards([part("1/2", ["a"]), last]) is last
    whole = dict(part(None, ["a", "b"]), full_run=True)
    assert R.join_shards([part("1/2", ["a"]), whole]) is whole
    with pytest.raises(R.Fatal):
        R.parse_shard("3/2")


# ------------------------------------- a whole run, against stand-in tools

FAKE_COMPILER = """\
#!{python}
# Stand-in onnx-tosa-compile: behaves according to the case's name.
import os, signal, sys, time
if "--help" in sys.argv:
    sys.exit(0)
model = sys.argv[1]
out = sys.argv[sys.argv.index("-o") + 1]
case = os.path.basename(os.path.dirname(model))
if case.endswith("_crash_compile"):
    os.kill(os.getpid(), signal.SIGSEGV)
if case.endswith("_hang_compile"):
    time.sleep(60)
if case.endswith("_unsupported"):
    sys.stderr.write("onnx-tosa-compile: error: legalization: node '' "
                     "(Foo, domain 'ai.onnx', opset 1): unsupported op\\n")
    sys.exit(1)
open(out, "w").write(os.path.dirname(model))
"""

FAKE_RUNNER = """\
#!{python}
# Stand-in onnx-tosa-run: writes the expected outputs (perturbed for
# '_wrong' cases), or misbehaves according to the case's name.
import os, shutil, signal, sys, time
if "--help" in sys.argv:
    sys.exit(0)
case_dir = open(sys.argv[1]).read()
case = os.path.basename(case_dir)
out_dir = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--output-dir=")][0]
if case.endswith("_crash_run"):
    os.kill(os.getpid(), signal.SIGABRT)
if case.endswith("_hang_run"):
    time.sleep(60)
if case.endswith("_runtime"):
    sys.stderr.write("onnx-tosa-run: error: device lost\\n")
    sys.exit(1)
print("device: fake:0 (stand-in)")
expected = os.path.join(case_dir, "expected_y_0.npy")  # y:0, sanitized
if case.endswith("_wrong"):
    import numpy as np
    np.save(os.path.join(out_dir, "y_0.npy"), np.load(expected) + 1)
else:
    shutil.copyfile(expected, os.path.join(out_dir, "y_0.npy"))
"""


def _write_case(root, name):
    """A one-Relu case with its data, under root/node/<name>."""
    from onnx import TensorProto, helper, numpy_helper
    d = root / name
    (d / "test_data_set_0").mkdir(parents=True)
    x = np.array([[-1.0, 2.0]], np.float32)
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y:0"])], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("y:0", TensorProto.FLOAT, [1, 2])])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 14)])
    (d / "model.onnx").write_bytes(model.SerializeToString())
    (d / "test_data_set_0" / "input_0.pb").write_bytes(
        numpy_helper.from_array(x, "x").SerializeToString())
    (d / "test_data_set_0" / "output_0.pb").write_bytes(
        numpy_helper.from_array(np.maximum(x, 0), "y:0").SerializeToString())
    np.save(d / "expected_y_0.npy", np.maximum(x, 0))  # for the stand-in


@pytest.fixture
def fake_suite(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("onnx-tosa-compile", FAKE_COMPILER),
                       ("onnx-tosa-run", FAKE_RUNNER)):
        p = bin_dir / name
        p.write_text(text.format(python=sys.executable))
        p.chmod(0o755)
    build = tmp_path / "build"
    node_root = build / "conformance" / "data" / "node"
    for name in ("test_ok", "test_ok2", "test_x_wrong", "test_x_unsupported",
                 "test_x_crash_compile", "test_x_hang_compile",
                 "test_x_crash_run", "test_x_hang_run", "test_x_runtime"):
        _write_case(node_root, name)
    return tmp_path, bin_dir, build, node_root


def _run(tmp_path, bin_dir, build, node_root, *extra):
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(HERE)!r})
        import cases
        from pathlib import Path
        cases.case_roots = lambda cache, kinds=None, log=None: {{
            "node": Path({str(node_root)!r})}}
        import run_conformance
        try:
            sys.exit(run_conformance.main(sys.argv[1:]))
        except run_conformance.Fatal as e:
            print(e); sys.exit(2)
        """)
    return subprocess.run(
        [sys.executable, "-c", code, "--kinds=node", f"--bin-dir={bin_dir}",
         f"--build-dir={build}", "--compile-timeout=3", "--run-timeout=3",
         "-j2", f"--xfail={tmp_path / 'xfail.txt'}",
         f"--scoreboard-file={tmp_path / 'board.md'}", *extra],
        capture_output=True, text=True, timeout=120)


def test_whole_run_classifies_and_survives_crashes_and_hangs(fake_suite):
    tmp_path, bin_dir, build, node_root = fake_suite
    p = _run(*fake_suite, "--update-xfail", "--scoreboard")
    assert p.returncode == 0, p.stdout + p.stderr
    res = json.loads((build / "conformance-vulkan.json").read_text())
    got = {n: (r["status"], r.get("stage")) for n, r in res["cases"].items()}
    assert got == {
        "test_ok": ("pass", None), "test_ok2": ("pass", None),
        "test_x_wrong": ("fail", "mismatch"),
        "test_x_unsupported": ("fail", "legalization"),
        "test_x_crash_compile": ("fail", "crash"),
        "test_x_hang_compile": ("fail", "timeout"),
        "test_x_crash_run": ("fail", "crash"),
        "test_x_hang_run": ("fail", "timeout"),
        "test_x_runtime": ("fail", "runtime")}
    assert res["device_name"] == "fake:0 (stand-in)"
    assert res["cases"]["test_ok"]["primary_ops"] == ["Relu"]
    listed = X.read(tmp_path / "xfail.txt")
    assert sorted(listed) == sorted(n for n in got if n.startswith("test_x"))
    assert listed["test_x_runtime"] == "runtime: device lost"
    assert "| Relu | 9 | 0 | 2/9" in (tmp_path / "board.md").read_text()

    # Now the cases behave as listed: exit 0, from the cache where it can.
    # (These runs leave out the hanging cases, to keep the test quick.)
    p = _run(*fake_suite, "-k", "ok|unsupported|wrong")
    assert p.returncode == 0, p.stdout + p.stderr
    res = json.loads((build / "conformance-vulkan.json").read_text())
    assert res["cases"]["test_ok"]["compile_cached"] is True
    assert res["cases"]["test_x_unsupported"]["compile_cached"] is True

    # A listed case that passes and an unlisted one that fails: exit 1.
    X.write(tmp_path / "xfail.txt", "vulkan", {**listed, "test_ok": ""})
    (node_root / "test_ok2").rename(node_root / "test_ok2_runtime")
    p = _run(*fake_suite, "--no-cache", "-k", "ok|unsupported")
    assert p.returncode == 1, p.stdout + p.stderr
    assert "UNEXPECTED FAILURES (1)" in p.stdout
    assert "test_ok2_runtime  # runtime: device lost" in p.stdout
    assert "UNEXPECTED PASSES (1)" in p.stdout


def test_compile_here_run_there(fake_suite):
    """--compile-only fills the cache; --precompiled runs from it alone."""
    tmp_path, bin_dir, build, node_root = fake_suite
    sel = ("-k", "ok|unsupported|wrong|crash_compile")
    p = _run(*fake_suite, "--compile-only", *sel)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "compiled 3 of 5 cases" in p.stdout
    assert not (build / "conformance-vulkan.json").exists()
    (bin_dir / "onnx-tosa-compile").unlink()     # the device machine has none
    p = _run(*fake_suite, "--precompiled", "--update-xfail", *sel)
    assert p.returncode == 0, p.stdout + p.stderr
    res = json.loads((build / "conformance-vulkan.json").read_text())
    got = {n: (r["status"], r.get("stage")) for n, r in res["cases"].items()}
    assert got == {"test_ok": ("pass", None), "test_ok2": ("pass", None),
                   "test_x_wrong": ("fail", "mismatch"),
                   "test_x_unsupported": ("fail", "legalization"),
                   "test_x_crash_compile": ("fail", "crash")}
    # A model the cache has not seen is reported, not compiled.
    _write_case(node_root, "test_new_ok")
    p = _run(*fake_suite, "--precompiled", "-k", "new")
    assert p.returncode == 1
    assert "test_new_ok  # harness: no precompiled artifact" in p.stdout
