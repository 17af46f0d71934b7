"""Unit tests of compliance.py against values computed by hand from the TOSA
1.0 compliance functions."""
import math

import numpy as np
import pytest

import compliance as c


def test_ulp_bound_is_the_spacing_of_the_reference():
    # 1.0 in f32: ulp 2^-23; in f16: 2^-10; below normal_min it is normal_min's.
    assert c.ulp_bound(1.0, 1, "f32") == 2.0**-23
    assert c.ulp_bound(1.5, 0.5, "f16") == 2.0**-11
    assert c.ulp_bound(2.0**-130, 1, "f32") == 2.0**-126 * 2.0**-23
    assert c.ulp_bound(0.0, 1, "f32") == 0.0


def test_half_ulp_accepts_only_the_rounded_neighbours():
    ref = 1.0 + 2.0**-24  # halfway between two f32 values
    ok = c.check_fp([1.0, 1.0 + 2.0**-23, 1.0 + 2.0**-22], [ref] * 3, 0.5, "f32")
    assert ok.tolist() == [True, True, False]


def test_nan_reference_needs_nan_and_overflow_accepts_infinity():
    assert c.check_fp([np.nan, 1.0], [np.nan, np.nan], 0.5, "f32").tolist() == [True, False]
    # 65519 is within 0.5 ulp (16) of f16's max 65504 and of infinity.
    assert c.check_fp([65504.0, np.inf], [65519.0] * 2, 0.5, "f16").all()


def test_flush_to_zero_only_below_normal_min():
    assert c.check_fp([0.0], [2.0**-127], 0.5, "f32")[0]
    assert not c.check_fp([0.0], [2.0**-125], 0.5, "f32")[0]


def test_calc_abs_error_bound():
    # EXP at x = 2: 2^-23 * exp(2) * (1 + 2)
    b = c.calc_abs_error_bound(math.exp(2), 3.0, 0, 1, "f32")
    assert b == pytest.approx(2.0**-23 * math.exp(2) * 3)
    # TANH's lower bound: max(0.5 / bounds, |ref|)
    b = c.calc_abs_error_bound(0.0, 4.0, 0.5, 1, "f32")
    assert b == pytest.approx(2.0**-23 * 0.125 * 4.0)


def test_special_value_tables():
    x = np.array([np.inf, -np.inf, -0.0, 0.0, np.nan])
    good = np.array([0.0, -0.0, -np.inf, np.inf, np.nan])
    ok = np.zeros(5, dtype=bool)
    assert c.check_specials("tosa.reciprocal", x, good, ok).all() and ok.all()
    bad = np.array([0.0, 0.0, np.inf, np.inf, 1.0])  # -0 and sign of inf wrong
    ok = np.zeros(5, dtype=bool)
    c.check_specials("tosa.reciprocal", x, bad, ok)
    assert ok.tolist() == [True, False, False, True, False]


def test_dot_product_bounds():
    info = {"op": "tosa.matmul", "element_type": "f32", "kernel_size": 4,
            "bias_nonzero": False, "operands": []}
    ref = np.array([1.0, 2.0])
    bnd = np.array([4.0, 4.0])
    # ABS_BOUND = 2 * ksb = 8 units of bnd * 2^-24
    biased = ref + 7 * 4.0 * 2.0**-24  # within ABS_BOUND, but every error the same
    bad = ref + 9 * 4.0 * 2.0**-24
    assert c.check_output(info, ref, biased, [], bnd)[0] is False  # sum 49*2 > 1.6*4*2
    assert c.check_output(info, ref, ref + 2.0**-24, [], bnd)[0]
    assert not c.check_output(info, ref, bad, [], bnd)[0]


def test_cast_float_to_float_allows_nearest_or_toward_zero():
    info = {"op": "tosa.cast", "element_type": "f16",
            "operands": [{"element_type": "f32"}]}
    ref = np.array([1.0 + 1.5 * 2.0**-10, 70000.0])
    assert c.check_output(info, ref, np.array([1.0 + 2.0**-9, np.inf]), [ref])[0]
    assert c.check_output(info, ref, np.array([1.0 + 2.0**-10, np.inf]), [ref])[0]
    assert not c.check_output(info, ref, np.array([1.0, np.inf]), [ref])[0]
    assert not c.check_output(info, ref, np.array([1.0 + 2.0**-9, 65504.0]), [ref])[0]


def test_rescale_inexact_range():
    info = {"op": "tosa.rescale", "element_type": "i8",
            "attrs": {"rounding_mode": "INEXACT_ROUND", "per_channel": "false"},
            "operands": [{"element_type": "i32"}]}
    ops = [np.array([3, 5]), np.array([1 << 30]), np.array([31]), np.array([0]), np.array([0])]
    # 1.5 -> 1 or 2; 2.5 -> 2 or 3
    assert c.check_output(info, np.array([2, 3]), np.array([1, 2]), ops)[0]
    assert not c.check_output(info, np.array([2, 3]), np.array([0, 2]), ops)[0]


def test_integers_are_exact():
    info = {"op": "tosa.add", "element_type": "i32", "operands": []}
    assert c.check_output(info, np.array([1, 2]), np.array([1, 2]), [])[0]
    assert not c.check_output(info, np.array([1, 2]), np.array([1, 3]), [])[0]
