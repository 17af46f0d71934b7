"""Compliance checks of the TOSA 1.0 specification, on numpy arrays.

Judges an implementation's output of one TOSA op against the reference
evaluator's fp64 / exact output, in the modes the specification defines
(section "Compliance" of the introduction, and each operator's "Precision
Requirements"):

* integer (and boolean) results must match exactly;
* floating-point results use tosa_reference_check_fp (a number of ULPs),
  tosa_reference_check_fp_bnd with an absolute bound (calcAbsErrorBound), the
  dot-product check (tosa_reference_check_dotproduct) or an op's own rule
  (CAST, REDUCE_PRODUCT, RESIZE, RESCALE with INEXACT_ROUND);
* special values (NaN, +-infinity, +-0) follow each op's "Floating-point
  behavior" table.

The evaluator (`onnx-tosa-eval --compliance`) writes, per result, the op name,
attributes, operands and (dot products) the bound reference; `check_output`
reads those and returns (passed, detail).

Usage as a tool: compliance.py REF_DIR IMP_DIR  (exit 0 when all pass).
"""
import json
import math
import os
import re
import sys

import numpy as np

# normal_frac, log2(normal_min), normal_max per type ("Numeric Accuracy
# Helpers").
FORMATS = {
    "f32": (23, -126, float(np.finfo(np.float32).max)),
    "f16": (10, -14, 65504.0),
    "bf16": (7, -126, (2 - 2.0**-7) * 2.0**127),
    "f8E4M3FN": (3, -6, 448.0),
    "f8E5M2": (2, -14, 57344.0),
    "f64": (52, -1022, float(np.finfo(np.float64).max)),
}
FLOAT_TYPES = set(FORMATS)


def normal_frac(t):
    return FORMATS[t][0]


def normal_min(t):
    return 2.0 ** FORMATS[t][1]


def normal_max(t):
    return FORMATS[t][2]


def _f64(a):
    return np.asarray(a, dtype=np.float64)


def check_fp_bnd(imp, ref, err_bnd, t):
    """tosa_reference_check_fp_bnd, elementwise; returns a bool array."""
    imp, ref = _f64(imp).copy(), _f64(ref).copy()
    err_bnd = np.broadcast_to(_f64(err_bnd), ref.shape).copy()
    ok = np.zeros(ref.shape, dtype=bool)
    nan_ref = np.isnan(ref)
    ok[nan_ref] = np.isnan(imp[nan_ref])
    free = ~nan_ref & ~np.isfinite(err_bnd)
    ok[free] = True
    rest = ~nan_ref & ~free
    neg = rest & (ref < 0)
    ref[neg], imp[neg] = -ref[neg], -imp[neg]
    with np.errstate(invalid="ignore", over="ignore"):
        ref_max = ref + err_bnd
        ref_min = ref - err_bnd
    ref_max[ref_max > normal_max(t)] = np.inf
    ref_min[ref_min > normal_max(t)] = np.inf
    ref_min[ref_min < -normal_max(t)] = -np.inf
    zero = rest & (imp == 0)
    # Subnormal results may be flushed to zero.
    ok[zero] = ref_min[zero] < normal_min(t)
    other = rest & ~zero
    with np.errstate(invalid="ignore"):
        ok[other] = (imp[other] >= ref_min[other]) & (imp[other] <= ref_max[other])
    return ok


def ulp_bound(ref, num_ulp, t):
    """The err_bnd of tosa_reference_check_fp."""
    ref = _f64(ref)
    a = np.abs(ref)
    normal = np.isfinite(a) & (a >= np.finfo(np.float64).tiny)
    with np.errstate(divide="ignore", invalid="ignore"):
        _, e = np.frexp(np.where(normal, a, 1.0))
    pow2 = np.maximum(np.ldexp(1.0, e - 1), normal_min(t))
    return np.where(normal, pow2 * 2.0 ** -normal_frac(t) * num_ulp, 0.0)


def check_fp(imp, ref, num_ulp, t):
    """tosa_reference_check_fp."""
    return check_fp_bnd(imp, ref, ulp_bound(ref, num_ulp, t), t)


def calc_abs_error_bound(bound_magnitude, bounds_value, lower_bound,
                         normal_divisor, t):
    """calcAbsErrorBound ("Numeric Accuracy Helpers")."""
    mag = np.abs(_f64(bound_magnitude))
    bv = _f64(bounds_value)
    mag, bv = np.broadcast_arrays(mag, bv)
    use = np.isfinite(bv) | (mag != 0)
    value_bound = np.maximum(mag, normal_min(t))
    if lower_bound > 0:
        with np.errstate(divide="ignore"):
            value_bound = np.maximum(lower_bound / bv, value_bound)
    with np.errstate(invalid="ignore", over="ignore"):
        err = 2.0 ** (-normal_frac(t) / normal_divisor) * value_bound * bv
    return np.where(use, err, 0.0)


def rounds_to_infinity(x, t):
    """Whether fp64 x rounds to infinity in type t (round to nearest)."""
    frac, _, mx = FORMATS[t]
    threshold = mx + 2.0 ** (math.floor(math.log2(mx)) - frac - 1)
    return np.abs(x) >= threshold


# "Floating-point behavior" tables: input -> output for the special inputs.
# Strings: "nan" any NaN; "+0"/"-0" a zero of that sign; "0" either zero.
SPECIALS = {
    "tosa.abs": {"-inf": "inf", "inf": "inf", "-0": "+0", "+0": "+0"},
    "tosa.ceil": {"-inf": "-inf", "inf": "inf", "-0": "-0", "+0": "+0"},
    "tosa.floor": {"-inf": "-inf", "inf": "inf", "-0": "-0", "+0": "+0"},
    "tosa.cos": {"-inf": "nan", "inf": "nan", "-0": "1", "+0": "1"},
    "tosa.exp": {"-inf": "0", "inf": "inf", "-0": "1", "+0": "1"},
    "tosa.log": {"-inf": "nan", "inf": "inf", "-0": "-inf", "+0": "-inf"},
    "tosa.negate": {"-inf": "inf", "inf": "-inf", "-0": "+0", "+0": "-0"},
    "tosa.reciprocal": {"-inf": "-0", "inf": "+0", "-0": "-inf", "+0": "inf"},
    "tosa.rsqrt": {"-inf": "nan", "inf": "+0", "-0": "-inf", "+0": "inf"},
    "tosa.sin": {"-inf": "nan", "inf": "nan", "-0": "-0", "+0": "+0"},
    "tosa.sigmoid": {"-inf": "0", "inf": "1", "-0": "0.5", "+0": "0.5"},
    "tosa.tanh": {"-inf": "-1", "inf": "1", "-0": "-0", "+0": "0"},
}


def _special_key(x):
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "-0" if np.signbit(x) else "+0"
    return None


def _matches(expected, v):
    if expected == "nan":
        return bool(np.isnan(v))
    if expected in ("+0", "-0"):
        return v == 0 and bool(np.signbit(v)) == (expected == "-0")
    return float(v) == float(expected)


def check_specials(op, x, imp, ok):
    """Applies the op's special-value table where the input is special;
    returns the mask of the positions it decided."""
    table = SPECIALS.get(op)
    decided = np.zeros(x.shape, dtype=bool)
    if table is None:
        return decided
    xf, impf = x.ravel(), imp.ravel()
    okf, df = ok.reshape(-1), decided.reshape(-1)
    for i in np.flatnonzero(~np.isfinite(xf) | (xf == 0)):
        key = _special_key(xf[i])
        if key == "nan":
            okf[i], df[i] = bool(np.isnan(impf[i])), True
        elif key in table:
            okf[i], df[i] = _matches(table[key], impf[i]), True
    return decided


def check_exact_float(imp, ref, t, any_zero_sign):
    """Exact floating-point results: NaN for NaN, equal values, a zero of
    the right sign (either sign where the op permits), subnormal results may
    flush to zero."""
    imp, ref = _f64(imp), _f64(ref)
    ok = np.zeros(ref.shape, dtype=bool)
    nan = np.isnan(ref)
    ok[nan] = np.isnan(imp[nan])
    rest = ~nan
    same = imp == ref
    if not any_zero_sign:
        same &= np.signbit(imp) == np.signbit(ref)
    flush = (np.abs(ref) < normal_min(t)) & (imp == 0)
    ok[rest] = (same | flush)[rest]
    return ok


def check_dot_product(imp, ref, bnd, ks, bias_nonzero, out_t, acc_t):
    """tosa_reference_check_dotproduct without the bias-sum test (it needs
    the spec's data sets 3-5); returns (ok, detail)."""
    imp, ref, bnd = _f64(imp).ravel(), _f64(ref).ravel(), _f64(bnd).ravel()
    ksb = math.ceil(ks / 2.0 ** ((normal_frac(acc_t) - normal_frac(out_t)) / 2))
    ksb += 1 if bias_nonzero else 0
    abs_bound = 2 * ksb
    var_bound = 4 * 0.4 * ksb
    err = np.zeros(ref.shape)
    for name, cond in (("NaN reference", np.isnan(ref)),):
        bad = cond & ~np.isnan(imp)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            return False, f"{name} at {i}: got {float(imp[i])!r}"
    live = ~np.isnan(ref) & ~np.isnan(bnd)
    with np.errstate(over="ignore", invalid="ignore"):
        live &= ~rounds_to_infinity(bnd * (1 + abs_bound * 2.0 ** (-1 - normal_frac(out_t))), out_t)
    zero = live & (bnd == 0)
    bad = zero & ((ref != 0) | (imp != 0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        return False, f"element {i}: bound 0 needs 0, got {float(imp[i])!r}"
    live &= bnd != 0
    err_bnd = np.maximum(bnd * 2.0 ** (-1 - normal_frac(out_t)), normal_min(out_t))
    with np.errstate(invalid="ignore"):
        err[live] = (imp[live] - ref[live]) / err_bnd[live]
    worst = int(np.nanargmax(np.abs(np.where(live, err, 0)))) if live.any() else 0
    if live.any() and not np.all(np.abs(err[live]) <= abs_bound):
        bad = live & ~(np.abs(err) <= abs_bound)
        i = int(np.flatnonzero(bad)[0])
        return False, (f"element {i}: got {float(imp[i])!r}, reference {float(ref[i])!r}, "
                       f"error {err[i]:.3g} > ABS_BOUND {abs_bound} "
                       f"(units of bound 2^-{normal_frac(out_t) + 1})")
    sumsq = float(np.sum(err * err))
    if sumsq > var_bound * ref.size:
        return False, (f"error variance {sumsq:.4g} > VARIANCE_ERROR_BOUND * T"
                       f" = {var_bound * ref.size:.4g}")
    return True, f"max error {abs(err[worst]):.3g} of ABS_BOUND {abs_bound}"


# Ops whose floating-point results use tosa_reference_check_fp with N ULPs.
ULP_OPS = {
    "tosa.add": 0.5, "tosa.sub": 0.5, "tosa.mul": 0.5,
    "tosa.floor": 0.5, "tosa.ceil": 0.5,
    "tosa.reciprocal": 1, "tosa.rsqrt": 2, "tosa.log": 5, "tosa.erf": 5,
}
EXACT_SIGNED_ZERO_OPS = {"tosa.abs", "tosa.negate"}
EXACT_ANY_ZERO_OPS = {
    "tosa.maximum", "tosa.minimum", "tosa.clamp", "tosa.reduce_max",
    "tosa.reduce_min", "tosa.max_pool2d",
}
DOT_PRODUCT_OPS = {
    "tosa.conv2d", "tosa.conv3d", "tosa.depthwise_conv2d",
    "tosa.transpose_conv2d", "tosa.matmul", "tosa.avg_pool2d",
    "tosa.reduce_sum", "tosa.fft2d", "tosa.rfft2d",
}


def _attr(info, name, default=None):
    return info.get("attrs", {}).get(name, default)


def _acc_type(info, out_t):
    acc = _attr(info, "acc_type")
    return acc if acc in FORMATS else out_t


def _summary(ok, imp, ref):
    bad = np.flatnonzero(~ok.ravel())
    if bad.size == 0:
        return True, "ok"
    i = int(bad[0])
    at = tuple(int(k) for k in np.unravel_index(i, ok.shape)) if ok.ndim else ()
    return False, (f"{bad.size} of {ok.size} elements out of bounds; first at "
                   f"{list(at)}: got {_scalar(imp.ravel()[i])}, reference "
                   f"{_scalar(ref.ravel()[i])}")


def _scalar(v):
    return repr(int(v)) if np.issubdtype(np.asarray(v).dtype, np.integer) else repr(float(v))


def check_output(info, ref, imp, operands, bound=None):
    """Judges one result; `info` is the evaluator's compliance JSON."""
    op = info.get("op", "")
    t = info["element_type"]
    ref = np.asarray(ref)
    imp = np.asarray(imp)
    if ref.shape != imp.shape:
        return False, f"shape {imp.shape}, expected {ref.shape}"
    if t not in FLOAT_TYPES:
        if op == "tosa.rescale" and "INEXACT_ROUND" in _attr(info, "rounding_mode", ""):
            return check_rescale_inexact(info, imp, operands)
        ok = imp.astype(np.int64) == ref.astype(np.int64)
        return _summary(ok, imp, ref)

    x = _f64(operands[0]) if operands else None
    if op in ULP_OPS:
        ok = check_fp(imp, ref, ULP_OPS[op], t)
    elif op in EXACT_SIGNED_ZERO_OPS:
        ok = check_exact_float(imp, ref, t, any_zero_sign=False)
    elif op in EXACT_ANY_ZERO_OPS:
        ok = check_exact_float(imp, ref, t, any_zero_sign=True)
    elif op == "tosa.exp":
        ok = check_fp_bnd(imp, ref, calc_abs_error_bound(ref, 1 + np.abs(x), 0, 1, t), t)
    elif op == "tosa.sin":
        bnd = np.maximum(calc_abs_error_bound(x, 1, 0, 2, t), math.pi * normal_min(t))
        ok = check_fp_bnd(imp, ref, bnd, t)
    elif op == "tosa.cos":
        ok = check_fp_bnd(imp, ref, calc_abs_error_bound(1 + np.abs(x), 1, 0, 2, t), t)
    elif op == "tosa.sigmoid":
        ok = check_fp_bnd(imp, ref, calc_abs_error_bound(ref, 2 * (1 + np.abs(x)), 0, 1, t), t)
    elif op == "tosa.tanh":
        ok = check_fp_bnd(imp, ref, calc_abs_error_bound(ref, 4 * (1 + np.abs(x)), 0.5, 1, t), t)
    elif op == "tosa.pow":
        return check_pow(imp, ref, x, _f64(operands[1]), t)
    elif op == "tosa.reduce_product":
        axis = int(re.match(r"-?\d+", _attr(info, "axis", "0")).group())
        n = x.shape[axis]
        bnd = np.maximum(np.abs(_f64(ref)), normal_min(t)) * (
            (1 + 2.0 ** (-normal_frac(t) - 1)) ** n - 1)
        ok = check_fp_bnd(imp, ref, bnd, t)
    elif op == "tosa.cast":
        return check_cast(info, imp, ref, operands, t)
    elif op == "tosa.resize":
        m = float(np.max(np.abs(x))) if x.size else 0.0
        bnd = max(float(calc_abs_error_bound(m, 20.0, 0, 1, t)), m * 0.006)
        ok = check_fp_bnd(imp, ref, bnd, t)
    elif op in DOT_PRODUCT_OPS:
        if bound is None:
            return False, "no dot-product bound from the evaluator"
        return check_dot_product(imp, ref, bound, info.get("kernel_size", 1),
                                 info.get("bias_nonzero", False), t,
                                 _acc_type(info, t))
    else:
        # Data movement (and anything without its own rule) is exact.
        ok = check_exact_float(imp, ref, t, any_zero_sign=False)
    if x is not None and x.shape == ref.shape:
        check_specials(op, x, _f64(imp), ok)
    return _summary(ok, imp, ref)


def check_pow(imp, ref, x, y, t):
    """POW's rules for NaN and infinities, then the absolute bound."""
    x, y = np.broadcast_arrays(x, y)
    imp, ref = _f64(imp), _f64(ref)
    ok = np.ones(ref.shape, dtype=bool)
    decided = np.zeros(ref.shape, dtype=bool)
    rules = [
        ((x != 1) & np.isnan(y), lambda v: np.isnan(v)),
        ((y != 0) & np.isnan(x), lambda v: np.isnan(v)),
        ((x == 1) & np.isnan(y), lambda v: np.isnan(v) | (v == 1)),
        ((y == 0) & np.isnan(x), lambda v: np.isnan(v) | (v == 1)),
        (np.isinf(y) & (np.abs(x) > 1), lambda v: v == np.inf),
        (np.isinf(y) & (np.abs(x) == 1), lambda v: v == 1),
        (np.isinf(y) & (np.abs(x) < 1), lambda v: (v == 0) & ~np.signbit(v)),
        (np.isinf(x) & (y > 0), lambda v: np.isinf(v)),
        (np.isinf(x) & (y == 0), lambda v: v == 1),
        (np.isinf(x) & (y < 0), lambda v: v == 0),
    ]
    for cond, test in rules:
        cond = cond & ~decided
        ok[cond] = test(imp[cond])
        decided |= cond
    with np.errstate(divide="ignore", invalid="ignore"):
        bv = 2 * (1 + np.abs(np.log(np.abs(x)) * y))
    bnd = calc_abs_error_bound(ref, bv, 0, 1, t)
    rest = ~decided
    ok[rest] = check_fp_bnd(imp, ref, bnd, t)[rest]
    return _summary(ok, imp, ref)


def check_cast(info, imp, ref, operands, t):
    """CAST to a floating-point type: from an integer (or bool) 0.5 ULP; from
    a float, round to nearest or toward zero, overflow to infinity."""
    src = info["operands"][0]["element_type"]
    if src not in FLOAT_TYPES:
        return _summary(check_fp(imp, ref, 0.5, t), imp, ref)
    imp, ref = _f64(imp), _f64(ref)
    ok = np.zeros(ref.shape, dtype=bool)
    nan = np.isnan(ref)
    ok[nan] = np.isnan(imp[nan])
    over = ~nan & rounds_to_infinity(ref, t)
    ok[over] = imp[over] == np.copysign(np.inf, ref[over])
    rest = ~nan & ~over
    ulp = ulp_bound(ref, 1, t)
    a, r = np.abs(imp), np.abs(ref)
    sign_ok = (np.signbit(imp) == np.signbit(ref)) | (imp == 0)
    inside = (r - ulp <= a) & (a <= r + 0.5 * ulp)
    flush = (r < normal_min(t)) & (imp == 0)
    ok[rest] = ((inside & sign_ok) | flush)[rest]
    return _summary(ok, imp, ref)


def check_rescale_inexact(info, imp, operands):
    """RESCALE with INEXACT_ROUND: the range of the specification's
    err_bnd around (x - input_zp) * m * 2^-shift."""
    x, mult, shift, in_zp, out_zp = [np.asarray(o).astype(np.int64) for o in operands[:5]]
    bits = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}[info["element_type"]]
    in_bits = {"i8": 8, "i16": 16, "i32": 32, "i48": 48}[info["operands"][0]["element_type"]]
    if "true" in _attr(info, "input_unsigned", "false"):
        x = x & ((1 << in_bits) - 1)
        in_zp = in_zp & ((1 << in_bits) - 1)
    out_unsigned = "true" in _attr(info, "output_unsigned", "false")
    if out_unsigned:
        out_zp = out_zp & ((1 << bits) - 1)
    per_channel = "true" in _attr(info, "per_channel", "false")
    c = (np.arange(x.size) % x.shape[-1]) if per_channel else np.zeros(x.size, dtype=np.int64)
    m = mult.ravel()[c].astype(np.float64)
    s = shift.ravel()[c].astype(np.float64)
    out_ref = (x.ravel().astype(np.float64) - float(in_zp.ravel()[0])) * m * 2.0 ** -s
    zp = float(out_zp.ravel()[0])
    err = 0.5 + (3 * np.abs(out_ref) + np.abs(out_ref + zp)) * 2.0 ** (-23 - 1)
    lo_t, hi_t = (0, 2**bits - 1) if out_unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    lo = np.clip(np.ceil(out_ref - err + zp), lo_t, hi_t)
    hi = np.clip(np.floor(out_ref + err + zp), lo_t, hi_t)
    got = imp.astype(np.int64).ravel()
    if out_unsigned:
        got = got & ((1 << bits) - 1)
    ok = (got >= lo) & (got <= hi)
    return _summary(ok.reshape(imp.shape), imp, out_ref.reshape(imp.shape))


def load_and_check(ref_dir, imp_dir, name):
    """Checks DIR/<name>.npy of the implementation against the reference
    directory written by `onnx-tosa-eval --compliance`."""
    ref = np.load(os.path.join(ref_dir, name + ".npy"))
    imp_path = os.path.join(imp_dir, name + ".npy")
    if not os.path.exists(imp_path):
        return False, f"the implementation wrote no '{name}.npy'"
    imp = np.load(imp_path)
    info_path = os.path.join(ref_dir, name + ".compliance.json")
    if not os.path.exists(info_path):
        info = {"op": "", "element_type": "f32" if ref.dtype == np.float64 else "i32",
                "operands": []}
        operands, bound = [], None
    else:
        with open(info_path) as f:
            info = json.load(f)
        operands = [np.load(os.path.join(ref_dir, o["file"])) for o in info["operands"]]
        bound = np.load(os.path.join(ref_dir, info["bound"])) if "bound" in info else None
    return check_output(info, ref, imp, operands, bound)


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    ref_dir, imp_dir = argv[1], argv[2]
    names = sorted(f[:-4] for f in os.listdir(ref_dir)
                   if f.endswith(".npy") and ".operand" not in f and not f.endswith(".bound.npy"))
    failed = 0
    for name in names:
        ok, detail = load_and_check(ref_dir, imp_dir, name)
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
