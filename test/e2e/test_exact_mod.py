"""Float Mod is exact, as C's fmod and numpy's mod are: the remainder of two
floats is always representable, and the kernel computes it exactly rather
than as a - trunc(a/b)*b, which is off by a whole b where a/b rounds to an
integer (fmod(-7, 0.1) gave 0 for -0.0999999)."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S

N = 64


def hard_operands(dtype):
    rng = np.random.default_rng(17)
    a = [-7.0, 7.0, 1.0, 5.5, -5.5, 1e30, -3e38, 0.0, -0.0, 1e-30, 123456.7,
         3.0, np.inf, 2.0, np.nan, 6.0]
    b = [0.1, 0.1, 0.1, 0.3, -0.3, 3.0, 7e-3, 2.0, 2.0, 1e-31, 0.0001,
         np.inf, 2.0, 0.0, 1.0, -1e-38]
    ra = rng.uniform(-1e4, 1e4, N - len(a)) * 10.0 ** rng.integers(-3, 4, N - len(a))
    rb = rng.uniform(-10, 10, N - len(b)) * 10.0 ** rng.integers(-3, 2, N - len(b))
    a, b = np.concatenate([a, ra]), np.concatenate([b, rb])
    if dtype == np.float16:  # within float16's range
        a = np.clip(a, -6e4, 6e4)
        b = np.where((np.abs(b) < 1e-4) & (b != 0), 0.5, b)
    return a.astype(dtype), b.astype(dtype)


@pytest.mark.parametrize("fmod", [1, 0], ids=["fmod", "floored"])
@pytest.mark.parametrize("elem, dtype", [(TensorProto.FLOAT, np.float32),
                                         (TensorProto.FLOAT16, np.float16)],
                         ids=["f32", "f16"])
def test_float_mod_is_exact(compile_tool, run_tool, tmp_path, fmod, elem,
                            dtype):
    graph = helper.make_graph(
        [helper.make_node("Mod", ["a", "b"], ["y"], fmod=fmod)], "mod",
        [helper.make_tensor_value_info("a", elem, [N]),
         helper.make_tensor_value_info("b", elem, [N])],
        [helper.make_tensor_value_info("y", elem, [N])])
    path = tmp_path / "model.onnx"
    onnx.save_model(helper.make_model(
        graph, ir_version=8, opset_imports=[helper.make_opsetid("", 13)]),
        path)
    a, b = hard_operands(dtype)
    _, _, got = S.compile_and_run(compile_tool, run_tool, path,
                                  {"a": a, "b": b}, tmp_path)
    with np.errstate(all="ignore"):
        # The oracle: C's fmod (numpy.fmod), and numpy.mod for fmod=0, the
        # floored remainder that opset 28 specifies for floats too.
        want = np.fmod(a, b) if fmod else np.mod(a, b)
    # Exact: the same bits, NaN where the oracle has NaN. (Signed zeros
    # compare equal; subnormal results are flushed on GPUs, so b = 1e-38
    # with a remainder below 2^-126 is left out of the bitwise check.)
    subnormal = (np.abs(want) < np.finfo(dtype).tiny) & (want != 0)
    keep = ~subnormal
    np.testing.assert_array_equal(got["y"][keep], want[keep])
