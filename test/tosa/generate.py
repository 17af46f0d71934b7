"""Seeded generator of single-op TOSA conformance cases.

Each case is a directory holding `model.mlir` (a func.func @main with one TOSA
op under test, plus the constants it needs), one `input<i>.npy` per argument
and `case.json` ({"name", "op", "dtype"}). Shapes, attributes and values are
drawn from a seeded generator; value ranges include the special values of the
specification (NaN, +-infinity, +-0) for ops whose precision requirements
define them, and avoid the REQUIREs that would make a result unpredictable
(integer overflow, out-of-range shifts).

  generate.py OUT_DIR [--seed N] [--filter REGEX]
"""
import argparse
import json
import os
import re
import shutil
import sys

import numpy as np

NP = {"f32": np.float32, "f16": np.float16, "bf16": np.float32,
      "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
      "i64": np.int64}
FLOATS = ("f32", "f16", "bf16")
INFO = {"i8": np.iinfo(np.int8), "i16": np.iinfo(np.int16),
        "i32": np.iinfo(np.int32)}
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0]


def ttype(shape, dt):
    dims = "x".join(str(d) for d in shape)
    return f"tensor<{dims}x{dt}>" if shape else f"tensor<{dt}>"


def fmt_value(v, dt):
    if dt in FLOATS:
        if np.isnan(v):
            return "0x7FC00000" if dt != "f16" else "0x7E00"
        if np.isinf(v):
            return {"f32": "0x7F800000", "bf16": "0x7F80", "f16": "0x7C00"}[dt] if v > 0 \
                else {"f32": "0xFF800000", "bf16": "0xFF80", "f16": "0xFC00"}[dt]
        return repr(float(v))
    if dt == "i1":
        return "true" if v else "false"
    return str(int(v))


def dense(values, shape, dt):
    arr = np.asarray(values).ravel()
    if arr.size == 1 or (arr == arr[0]).all() and not (dt in FLOATS and np.isnan(arr[0])):
        body = fmt_value(arr[0], dt)
    else:
        body = "[" + ", ".join(fmt_value(v, dt) for v in arr) + "]"
        if len(shape) > 1:  # a flat list needs the nesting of the shape
            body = nest([fmt_value(v, dt) for v in arr], shape)
    return f"dense<{body}> : {ttype(shape, dt)}"


def nest(items, shape):
    if len(shape) == 1:
        return "[" + ", ".join(items) + "]"
    step = len(items) // shape[0]
    return "[" + ", ".join(nest(items[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


class Case:
    """Builds @main: arguments (with their .npy values), constants, one op."""

    def __init__(self, name, op, dtype):
        self.name, self.op, self.dtype = name, op, dtype
        self.args, self.lines, self.inputs = [], [], []
        self.n = 0

    def arg(self, values, dt):
        values = np.asarray(values)
        name = f"%arg{len(self.args)}"
        self.args.append(f"{name}: {ttype(values.shape, dt)}")
        self.inputs.append(np.asarray(values).astype(NP[dt]))
        return name, values.shape, dt

    def const(self, values, shape, dt):
        name = f"%c{self.n}"
        self.n += 1
        self.lines.append(f'{name} = "tosa.const"() <{{values = {dense(values, shape, dt)}}}> '
                          f": () -> {ttype(shape, dt)}")
        return name, tuple(shape), dt

    def shape(self, values):
        name = f"%c{self.n}"
        self.n += 1
        self.lines.append(f"{name} = tosa.const_shape {{values = dense<[{', '.join(str(int(v)) for v in values)}]> "
                          f": tensor<{len(values)}xindex>}} : () -> !tosa.shape<{len(values)}>")
        return name, None, f"!tosa.shape<{len(values)}>"

    def emit(self, opname, operands, result_shapes, result_dt, attrs=""):
        results = result_shapes if isinstance(result_shapes, list) else [result_shapes]
        rdts = result_dt if isinstance(result_dt, list) else [result_dt] * len(results)
        names = [f"%r{i}" for i in range(len(results))]
        types_in = ", ".join(o[2] if o[1] is None else ttype(o[1], o[2]) for o in operands)
        types_out = ", ".join(ttype(s, d) for s, d in zip(results, rdts))
        a = f" {{{attrs}}}" if attrs else ""
        outs = types_out if len(results) == 1 else f"({types_out})"
        self.lines.append(f"{', '.join(names)} = {opname} {', '.join(o[0] for o in operands)}{a} "
                          f": ({types_in}) -> {outs}")
        self.results = list(zip(names, [ttype(s, d) for s, d in zip(results, rdts)]))

    def text(self):
        rtypes = ", ".join(t for _, t in self.results)
        rt = rtypes if len(self.results) == 1 else f"({rtypes})"
        body = "\n".join("  " + l for l in self.lines)
        ret = ", ".join(n for n, _ in self.results)
        return (f"func.func @main({', '.join(self.args)}) -> {rt} {{\n{body}\n"
                f"  return {ret} : {rtypes}\n}}\n")

    def write(self, root):
        d = os.path.join(root, self.name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "model.mlir"), "w") as f:
            f.write(self.text())
        for i, v in enumerate(self.inputs):
            np.save(os.path.join(d, f"input{i}.npy"), v)
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump({"name": self.name, "op": self.op, "dtype": self.dtype}, f)


def to_bf16(v):
    """Rounds float32 values to bfloat16 (ties to even), kept as float32."""
    bits = np.asarray(v, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    out = bits.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(v), np.float32(np.nan), out)


def fvals(rng, shape, lo, hi, dt, specials=False):
    v = rng.uniform(lo, hi, size=shape)
    if specials:
        flat = v.reshape(-1)
        flat[:len(SPECIALS)] = SPECIALS
    if dt == "bf16":
        return to_bf16(v.astype(np.float32))
    return v.astype(NP[dt])


def ivals(rng, shape, lo, hi, dt):
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(NP[dt])


def zero(c, dt):
    return c.const([0.0 if dt in FLOATS else 0], [1], dt)


# --------------------------------------------------------------------------
# Case families
# --------------------------------------------------------------------------

FLOAT_UNARY = {  # op: (low, high, specials)
    "exp": (-10, 10, True), "log": (0.001, 100, True),
    "reciprocal": (0.01, 100, True), "rsqrt": (0.001, 100, True),
    "tanh": (-6, 6, True), "sigmoid": (-10, 10, True), "erf": (-4, 4, True),
    "sin": (-10, 10, True), "cos": (-10, 10, True), "floor": (-100, 100, True),
    "ceil": (-100, 100, True), "abs": (-100, 100, True),
}


def unary_float(rng, cases):
    for op, (lo, hi, sp) in FLOAT_UNARY.items():
        for dt in ("f32", "f16"):
            c = Case(f"{op}.{dt}", op, dt)
            shape = (3, 37)
            v = fvals(rng, shape, lo, hi, dt, sp)
            if op in ("reciprocal", "log", "rsqrt"):
                v.reshape(-1)[5:15] *= -1 if op == "reciprocal" else 1
            if op in ("floor", "ceil"):
                v.reshape(-1)[5:15] = np.arange(10) - 4.5
            x = c.arg(v, dt)
            c.emit(f"tosa.{op}", [x], shape, dt)
            cases.append(c)
    for dt in ("f32", "f16"):
        c = Case(f"negate.{dt}", "negate", dt)
        x = c.arg(fvals(rng, (64,), -100, 100, dt, True), dt)
        c.emit("tosa.negate", [x, zero(c, dt), zero(c, dt)], (64,), dt)
        cases.append(c)
        for mode in ("PROPAGATE", "IGNORE"):
            c = Case(f"clamp.{dt}.{mode.lower()}", "clamp", dt)
            x = c.arg(fvals(rng, (64,), -10, 10, dt, True), dt)
            c.emit("tosa.clamp", [x], (64,), dt,
                   f"min_val = -2.5 : {dt}, max_val = 3.0 : {dt}, nan_mode = {mode}")
            cases.append(c)
    c = Case("exp.bf16", "exp", "bf16")
    x = c.arg(fvals(rng, (32,), -5, 5, "bf16"), "bf16")
    c.emit("tosa.exp", [x], (32,), "bf16")
    cases.append(c)


def binary_float(rng, cases):
    ops = {"add": (-100, 100), "sub": (-100, 100), "mul": (-100, 100),
           "maximum": (-10, 10), "minimum": (-10, 10), "pow": (0.1, 4),
           "equal": (-2, 2), "greater": (-2, 2), "greater_equal": (-2, 2)}
    for op, (lo, hi) in ops.items():
        for dt in ("f32", "f16"):
            c = Case(f"{op}.{dt}", op, dt)
            a = fvals(rng, (2, 1, 19), lo, hi, dt)
            b = fvals(rng, (1, 3, 19), lo, hi, dt)
            if op in ("equal", "greater", "greater_equal"):
                a, b = np.round(a), np.round(b)
            if op == "pow":
                b = fvals(rng, (1, 3, 19), -3, 3, dt)
            a.reshape(-1)[:5] = SPECIALS if op != "pow" else [2.0, np.inf, 0.5, 1.0, np.nan]
            x, y = c.arg(a, dt), c.arg(b, dt)
            operands = [x, y]
            out_dt = "i1" if op in ("equal", "greater", "greater_equal") else dt
            attrs = ""
            if op == "mul":
                operands.append(c.const([0], [1], "i8"))
            c.emit(f"tosa.{op}", operands, (2, 3, 19), out_dt, attrs)
            cases.append(c)
    for op in ("maximum", "minimum"):
        c = Case(f"{op}.f32.ignore", op, "f32")
        a = fvals(rng, (40,), -5, 5, "f32", True)
        b = fvals(rng, (40,), -5, 5, "f32")
        b[6:9] = np.nan
        x, y = c.arg(a, "f32"), c.arg(b, "f32")
        c.emit(f"tosa.{op}", [x, y], (40,), "f32", "nan_mode = IGNORE")
        cases.append(c)
    c = Case("add.bf16", "add", "bf16")
    x, y = c.arg(fvals(rng, (32,), -9, 9, "bf16"), "bf16"), c.arg(fvals(rng, (32,), -9, 9, "bf16"), "bf16")
    c.emit("tosa.add", [x, y], (32,), "bf16")
    cases.append(c)
    for dt in ("f32", "i32", "i8"):
        c = Case(f"select.{dt}", "select", dt)
        p = c.arg(rng.integers(0, 2, size=(4, 8)).astype(bool), "i1")
        mk = (lambda: fvals(rng, (4, 8), -9, 9, dt)) if dt in FLOATS else \
            (lambda: ivals(rng, (4, 8), INFO[dt].min, INFO[dt].max, dt))
        x, y = c.arg(mk(), dt), c.arg(mk(), dt)
        c.emit("tosa.select", [p, x, y], (4, 8), dt)
        cases.append(c)


def elementwise_int(rng, cases):
    shape = (3, 29)
    for dt in ("i8", "i16", "i32"):
        lo, hi = int(INFO[dt].min), int(INFO[dt].max)
        half = (lo // 2, hi // 2)
        def two(op, a, b, out_dt=dt, attrs="", extra=()):
            c = Case(f"{op}.{dt}" + (".round" if "round = true" in attrs else ""), op, dt)
            x, y = c.arg(a, dt), c.arg(b, dt)
            c.emit(f"tosa.{op}", [x, y] + [e(c) for e in extra], shape, out_dt, attrs)
            cases.append(c)
        two("add", ivals(rng, shape, *half, dt), ivals(rng, shape, *half, dt))
        two("sub", ivals(rng, shape, *half, dt), ivals(rng, shape, *half, dt))
        two("mul", ivals(rng, shape, lo, hi, dt), ivals(rng, shape, lo, hi, dt),
            out_dt="i32", extra=(lambda c: c.const([0], [1], "i8"),))
        for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "maximum", "minimum"):
            two(op, ivals(rng, shape, lo, hi, dt), ivals(rng, shape, lo, hi, dt))
        bits = {"i8": 8, "i16": 16, "i32": 32}[dt]
        for op in ("logical_left_shift", "logical_right_shift"):
            two(op, ivals(rng, shape, lo, hi, dt), ivals(rng, shape, 0, bits - 1, dt))
        for rnd in ("false", "true"):
            two("arithmetic_right_shift", ivals(rng, shape, lo, hi, dt),
                ivals(rng, shape, 0, bits - 1, dt), attrs=f"round = {rnd}")
        for op in ("equal", "greater", "greater_equal"):
            a = ivals(rng, shape, -3, 3, dt)
            two(op, a, ivals(rng, shape, -3, 3, dt), out_dt="i1")
        def one(op, a, attrs="", extra=()):
            c = Case(f"{op}.{dt}", op, dt)
            x = c.arg(a, dt)
            c.emit(f"tosa.{op}", [x] + [e(c) for e in extra], shape, dt, attrs)
            cases.append(c)
        one("abs", ivals(rng, shape, lo + 1, hi, dt))
        one("bitwise_not", ivals(rng, shape, lo, hi, dt))
        one("clamp", ivals(rng, shape, lo, hi, dt),
            attrs=f"min_val = {lo // 3} : {dt}, max_val = {hi // 5} : {dt}")
        zps = (7, -3) if dt == "i8" else (0, 0)
        one("negate", ivals(rng, shape, lo + 1, hi, dt),
            extra=(lambda c: c.const([zps[0]], [1], dt), lambda c: c.const([zps[1]], [1], dt)))
    # i32 only: MUL with a rounding shift, INTDIV, CLZ.
    c = Case("mul.i32.shift", "mul", "i32")
    x, y = c.arg(ivals(rng, shape, -46340, 46340, "i32"), "i32"), c.arg(ivals(rng, shape, -46340, 46340, "i32"), "i32")
    c.emit("tosa.mul", [x, y, c.const([13], [1], "i8")], shape, "i32")
    cases.append(c)
    c = Case("intdiv.i32", "intdiv", "i32")
    b = ivals(rng, shape, -1000, 1000, "i32")
    b[b == 0] = 7
    x, y = c.arg(ivals(rng, shape, -2**31 + 1, 2**31 - 1, "i32"), "i32"), c.arg(b, "i32")
    c.emit("tosa.intdiv", [x, y], shape, "i32")
    cases.append(c)
    c = Case("clz.i32", "clz", "i32")
    v = ivals(rng, shape, -2**31, 2**31 - 1, "i32") >> rng.integers(0, 32, size=shape)
    x = c.arg(v.astype(np.int32), "i32")
    c.emit("tosa.clz", [x], shape, "i32")
    cases.append(c)
    for op in ("logical_and", "logical_or", "logical_xor"):
        c = Case(f"{op}.i1", op, "i1")
        x = c.arg(rng.integers(0, 2, size=shape).astype(bool), "i1")
        y = c.arg(rng.integers(0, 2, size=shape).astype(bool), "i1")
        c.emit(f"tosa.{op}", [x, y], shape, "i1")
        cases.append(c)
    c = Case("logical_not.i1", "logical_not", "i1")
    x = c.arg(rng.integers(0, 2, size=shape).astype(bool), "i1")
    c.emit("tosa.logical_not", [x], shape, "i1")
    cases.append(c)


def cast_cases(rng, cases):
    pairs = [("f32", "i8"), ("f32", "i16"), ("f32", "i32"), ("f32", "f16"),
             ("f16", "f32"), ("f32", "bf16"), ("f32", "i1"), ("i8", "f32"),
             ("i32", "f32"), ("i16", "f16"), ("i32", "i8"), ("i8", "i32"),
             ("i32", "i16"), ("i16", "i8"), ("i1", "f32"), ("i1", "i32"),
             ("i8", "i1")]
    for src, dst in pairs:
        c = Case(f"cast.{src}_to_{dst}", "cast", f"{src}->{dst}")
        shape = (64,)
        if src in FLOATS:
            v = rng.uniform(-300, 300, size=shape)
            v[:12] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 127.5, -128.5, 1e10, -1e10, np.inf, -np.inf]
            if dst in ("f16", "bf16", "f32", "i1"):
                v[:5] = [np.nan, np.inf, -np.inf, 70000.0, -0.0]
                v[5:9] = [1.0009765625 + 2.0**-11, 65519.0, 65520.0, 3e-8]
            with np.errstate(over="ignore"):
                v = v.astype(NP[src])
        elif src == "i1":
            v = rng.integers(0, 2, size=shape).astype(bool)
        else:
            v = ivals(rng, shape, int(INFO[src].min), int(INFO[src].max), src)
        x = c.arg(v, src)
        c.emit("tosa.cast", [x], shape, dst)
        cases.append(c)


def rescale_case(rng, cases, name, in_dt, out_dt, mode="SINGLE_ROUND", scale32=True,
                 per_channel=False, in_unsigned=False, out_unsigned=False,
                 in_zp=0, out_zp=0, shape=(4, 16)):
    c = Case(f"rescale.{name}", "rescale", f"{in_dt}->{out_dt}")
    channels = shape[-1] if per_channel else 1
    if scale32:
        mult = rng.integers(1 << 30, (1 << 31) - 1, size=channels)
    else:
        mult = rng.integers(1 << 14, (1 << 15) - 1, size=channels)
    in_bits = {"i8": 8, "i16": 16, "i32": 32}[in_dt]
    out_bits = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}[out_dt]
    # shift so that the scale lands the input range around the output range
    base = 30 if scale32 else 14
    shift = base + np.clip(in_bits - out_bits + rng.integers(-1, 3, size=channels), 1, 30)
    if in_unsigned:
        v = rng.integers(0, (1 << in_bits) - 1, size=shape)
        v = np.where(v >= 1 << (in_bits - 1), v - (1 << in_bits), v)
    else:
        lim = min(1 << (in_bits - 1), 1 << (int(shift.min()) - 2))
        v = rng.integers(-lim, lim - 1, size=shape)
    x = c.arg(v.astype(NP[in_dt]), in_dt)
    m = c.const(mult, [channels], "i32" if scale32 else "i16")
    s = c.const(shift, [channels], "i8")
    iz = c.const([in_zp], [1], in_dt)
    oz = c.const([out_zp], [1], out_dt)
    c.emit("tosa.rescale", [x, m, s, iz, oz], shape, out_dt,
           f"scale32 = {str(scale32).lower()}, rounding_mode = {mode}, "
           f"per_channel = {str(per_channel).lower()}, input_unsigned = {str(in_unsigned).lower()}, "
           f"output_unsigned = {str(out_unsigned).lower()}")
    cases.append(c)


def rescale_cases(rng, cases):
    rescale_case(rng, cases, "i32_to_i8.single", "i32", "i8")
    rescale_case(rng, cases, "i32_to_i8.double", "i32", "i8", "DOUBLE_ROUND")
    rescale_case(rng, cases, "i32_to_i8.inexact", "i32", "i8", "INEXACT_ROUND")
    rescale_case(rng, cases, "i32_to_i8.per_channel", "i32", "i8", per_channel=True)
    rescale_case(rng, cases, "i32_to_i8.zp", "i32", "i8", out_zp=-5)
    rescale_case(rng, cases, "i32_to_i16", "i32", "i16", "DOUBLE_ROUND")
    rescale_case(rng, cases, "i8_to_i32", "i8", "i32", in_zp=3)
    rescale_case(rng, cases, "i16_to_i8.scale16", "i16", "i8", scale32=False)
    rescale_case(rng, cases, "u8_to_i8", "i8", "i8", in_unsigned=True, in_zp=-128)
    rescale_case(rng, cases, "i8_to_u8", "i8", "i8", out_unsigned=True, out_zp=-128)
    rescale_case(rng, cases, "u16_to_i16", "i16", "i16", in_unsigned=True, in_zp=-32768)
    rescale_case(rng, cases, "i32_to_i64", "i32", "i64")


def reductions(rng, cases):
    shape = (3, 7, 5)
    for dt in ("f32", "f16"):
        for op in ("reduce_sum", "reduce_max", "reduce_min", "reduce_product"):
            c = Case(f"{op}.{dt}", op, dt)
            lo, hi = (0.5, 1.5) if op == "reduce_product" else (-1, 1)
            x = c.arg(fvals(rng, shape, lo, hi, dt), dt)
            c.emit(f"tosa.{op}", [x], (3, 1, 5), dt, "axis = 1 : i32")
            cases.append(c)
    for mode in ("PROPAGATE", "IGNORE"):
        c = Case(f"reduce_max.f32.nan_{mode.lower()}", "reduce_max", "f32")
        v = fvals(rng, shape, -1, 1, "f32")
        v[0, :, 0] = np.nan
        v[1, 2, :] = np.nan
        x = c.arg(v, "f32")
        c.emit("tosa.reduce_max", [x], (3, 7, 1), "f32", f"axis = 2 : i32, nan_mode = {mode}")
        cases.append(c)
    for dt in ("i8", "i16", "i32"):
        for op in ("reduce_max", "reduce_min"):
            c = Case(f"{op}.{dt}", op, dt)
            x = c.arg(ivals(rng, shape, int(INFO[dt].min), int(INFO[dt].max), dt), dt)
            c.emit(f"tosa.{op}", [x], (1, 7, 5), dt, "axis = 0 : i32")
            cases.append(c)
    c = Case("reduce_sum.i32", "reduce_sum", "i32")
    x = c.arg(ivals(rng, shape, -2**27, 2**27, "i32"), "i32")
    c.emit("tosa.reduce_sum", [x], (3, 1, 5), "i32", "axis = 1 : i32")
    cases.append(c)
    for op in ("reduce_all", "reduce_any"):
        c = Case(f"{op}.i1", op, "i1")
        x = c.arg(rng.random(shape) < (0.8 if op == "reduce_all" else 0.1), "i1")
        c.emit(f"tosa.{op}", [x], (3, 7, 1), "i1", "axis = 2 : i32")
        cases.append(c)
    for dt in ("f32", "f16", "i8", "i32"):
        c = Case(f"argmax.{dt}", "argmax", dt)
        v = fvals(rng, shape, -4, 4, dt) if dt in FLOATS else ivals(rng, shape, -4, 4, dt)
        if dt in FLOATS:
            v = np.round(v)  # ties: the first index wins
        x = c.arg(v, dt)
        c.emit("tosa.argmax", [x], (3, 5), "i32", "axis = 1 : i32")
        cases.append(c)
    c = Case("argmax.f32.nan_ignore", "argmax", "f32")
    v = fvals(rng, shape, -4, 4, "f32")
    v[0, 3, :] = np.nan
    x = c.arg(v, "f32")
    c.emit("tosa.argmax", [x], (3, 5), "i32", "axis = 1 : i32, nan_mode = IGNORE")
    cases.append(c)
    # REDUCE_MAX (MIN) starts at -inf (+inf), not -FLT_MAX: a row of -inf
    # (+inf) gives -inf (+inf). With nan_mode = IGNORE only an all-NaN row
    # gives NaN. The (8, 256) cases have rows long enough for
    # onnx-tosa-split-reductions to split. (Inputs from a fixed pattern, not
    # `rng`: the cases after these keep their data.)
    for op, inf in (("reduce_max", -np.inf), ("reduce_min", np.inf)):
        for dt, shape_, name in (("f32", (3, 7, 5), "f32"), ("f16", (3, 7, 5), "f16"),
                                 ("f32", (8, 256), "f32.long")):
            k = shape_[1]
            rows = np.sin(np.arange(np.prod(shape_)) * 0.7).reshape(-1, k)
            rows[0, :] = inf                    # all infinities
            rows[1, :] = inf                    # ... but one finite value
            rows[1, k // 2] = 0.25
            rows[2, :] = np.nan                 # all NaN
            rows[3, :] = np.nan                 # NaNs, an infinity, a value
            rows[3, 0], rows[3, k - 1] = inf, -0.5
            rows[4, 1] = np.nan                 # one NaN
            if len(shape_) == 3:                # rows along axis 1
                v = rows.reshape(shape_[0], shape_[2], k).transpose(0, 2, 1)
            else:
                v = rows
            out = (shape_[0], 1) + tuple(shape_[2:])
            for mode in ("PROPAGATE", "IGNORE"):
                c = Case(f"{op}.{name}.inf_nan_{mode.lower()}", op, dt)
                x = c.arg(v, dt)
                c.emit(f"tosa.{op}", [x], out, dt, f"axis = 1 : i32, nan_mode = {mode}")
                cases.append(c)


def conv_out(i, k, pad0, pad1, stride, dil):
    return (i - 1 + pad0 + pad1 - (k - 1) * dil) // stride + 1


def conv_pads(i, k, stride, dil, pad0):
    """A trailing pad that makes the output size divide exactly."""
    for p1 in range(0, stride * 2 + k):
        if (i - 1 + pad0 + p1 - (k - 1) * dil) % stride == 0:
            return p1
    return 0


def tensor_ops(rng, cases):
    # MATMUL
    for dt, out in (("f32", "f32"), ("f16", "f16"), ("f16", "f32"), ("bf16", "f32"),
                    ("i8", "i32"), ("i16", "i48")):
        c = Case(f"matmul.{dt}_to_{out}", "matmul", dt)
        N, H, C, W = 2, 5, 19, 7
        if dt in FLOATS:
            a, b = fvals(rng, (N, H, C), -1, 1, dt), fvals(rng, (N, C, W), -1, 1, dt)
            za, zb = zero(c, dt), zero(c, dt)
        else:
            a = ivals(rng, (N, H, C), int(INFO[dt].min), int(INFO[dt].max), dt)
            b = ivals(rng, (N, C, W), int(INFO[dt].min), int(INFO[dt].max), dt)
            za = c.const([-3 if dt == "i8" else 0], [1], dt)
            zb = c.const([2 if dt == "i8" else 0], [1], dt)
        x, y = c.arg(a, dt), c.arg(b, dt)
        c.emit("tosa.matmul", [x, y, za, zb], (N, H, W), out)
        cases.append(c)
    # CONV2D / DEPTHWISE / TRANSPOSE / CONV3D
    conv_types = (("f32", "f32", "f32"), ("f16", "f16", "f32"), ("i8", "i32", "i32"),
                  ("i16", "i48", "i48"))
    for variant, (stride, dil, pad) in {"basic": ((1, 1), (1, 1), (0, 0, 0, 0)),
                                        "strided": ((2, 2), (1, 2), (1, 0, 2, 1))}.items():
        for dt, out, acc in conv_types:
            if variant == "strided" and dt == "i16":
                continue
            N, IH, IW, IC, OC, KH, KW = 1, 9, 8, 3, 4, 3, 2
            pad = list(pad)
            pad[1] = conv_pads(IH, KH, stride[0], dil[0], pad[0])
            pad[3] = conv_pads(IW, KW, stride[1], dil[1], pad[2])
            OH = conv_out(IH, KH, pad[0], pad[1], stride[0], dil[0])
            OW = conv_out(IW, KW, pad[2], pad[3], stride[1], dil[1])
            c = Case(f"conv2d.{dt}.{variant}", "conv2d", dt)
            if dt in FLOATS:
                x = c.arg(fvals(rng, (N, IH, IW, IC), -1, 1, dt), dt)
                w = c.const(fvals(rng, (OC, KH, KW, IC), -1, 1, dt), (OC, KH, KW, IC), dt)
                b = c.const(fvals(rng, (OC,), -1, 1, out), (OC,), out)
                zi, zw = zero(c, dt), zero(c, dt)
            else:
                lo, hi = int(INFO[dt].min), int(INFO[dt].max)
                x = c.arg(ivals(rng, (N, IH, IW, IC), lo, hi, dt), dt)
                w = c.const(ivals(rng, (OC, KH, KW, IC), lo, hi, dt), (OC, KH, KW, IC), dt)
                b = c.const(ivals(rng, (OC,), -1000, 1000, "i32"), (OC,), out)
                zi = c.const([5 if dt == "i8" else 0], [1], dt)
                zw = c.const([-2 if dt == "i8" else 0], [1], dt)
            c.emit("tosa.conv2d", [x, w, b, zi, zw], (N, OH, OW, OC), out,
                   f"acc_type = {acc}, dilation = array<i64: {dil[0]}, {dil[1]}>, "
                   f"pad = array<i64: {', '.join(map(str, pad))}>, stride = array<i64: {stride[0]}, {stride[1]}>")
            cases.append(c)
    for dt, out, acc in conv_types[:3]:
        N, IH, IW, C, M, KH, KW = 1, 7, 6, 3, 2, 3, 3
        pad = [1, 1, 1, 1]
        c = Case(f"depthwise_conv2d.{dt}", "depthwise_conv2d", dt)
        if dt in FLOATS:
            x = c.arg(fvals(rng, (N, IH, IW, C), -1, 1, dt), dt)
            w = c.const(fvals(rng, (KH, KW, C, M), -1, 1, dt), (KH, KW, C, M), dt)
            b = c.const(fvals(rng, (C * M,), -1, 1, out), (C * M,), out)
            zi, zw = zero(c, dt), zero(c, dt)
        else:
            x = c.arg(ivals(rng, (N, IH, IW, C), -128, 127, dt), dt)
            w = c.const(ivals(rng, (KH, KW, C, M), -128, 127, dt), (KH, KW, C, M), dt)
            b = c.const(ivals(rng, (C * M,), -100, 100, "i32"), (C * M,), out)
            zi, zw = c.const([-7], [1], dt), c.const([0], [1], dt)
        c.emit("tosa.depthwise_conv2d", [x, w, b, zi, zw], (N, IH, IW, C * M), out,
               f"acc_type = {acc}, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, "
               f"stride = array<i64: 1, 1>")
        cases.append(c)
        # TRANSPOSE_CONV2D, stride 2, out_pad trimming one row
        IH, IW, IC, OC, KH, KW = 4, 3, 2, 3, 3, 2
        out_pad = [0, -1, 0, 0]
        OH = (IH - 1) * 2 + out_pad[0] + out_pad[1] + KH
        OW = (IW - 1) * 2 + out_pad[2] + out_pad[3] + KW
        c = Case(f"transpose_conv2d.{dt}", "transpose_conv2d", dt)
        if dt in FLOATS:
            x = c.arg(fvals(rng, (1, IH, IW, IC), -1, 1, dt), dt)
            w = c.const(fvals(rng, (OC, KH, KW, IC), -1, 1, dt), (OC, KH, KW, IC), dt)
            b = c.const(fvals(rng, (OC,), -1, 1, out), (OC,), out)
            zi, zw = zero(c, dt), zero(c, dt)
        else:
            x = c.arg(ivals(rng, (1, IH, IW, IC), -128, 127, dt), dt)
            w = c.const(ivals(rng, (OC, KH, KW, IC), -128, 127, dt), (OC, KH, KW, IC), dt)
            b = c.const(ivals(rng, (OC,), -100, 100, "i32"), (OC,), out)
            zi, zw = c.const([4], [1], dt), c.const([0], [1], dt)
        c.emit("tosa.transpose_conv2d", [x, w, b, zi, zw], (1, OH, OW, OC), out,
               f"acc_type = {acc}, out_pad = array<i64: {', '.join(map(str, out_pad))}>, "
               f"stride = array<i64: 2, 2>")
        cases.append(c)
        # CONV3D
        ID, IH, IW, IC, OC, KD, KH, KW = 4, 5, 4, 2, 3, 2, 3, 2
        c = Case(f"conv3d.{dt}", "conv3d", dt)
        OD, OH, OW = ID - KD + 1 + 1, IH - KH + 1, IW - KW + 1 + 2
        if dt in FLOATS:
            x = c.arg(fvals(rng, (1, ID, IH, IW, IC), -1, 1, dt), dt)
            w = c.const(fvals(rng, (OC, KD, KH, KW, IC), -1, 1, dt), (OC, KD, KH, KW, IC), dt)
            b = c.const(fvals(rng, (OC,), -1, 1, out), (OC,), out)
            zi, zw = zero(c, dt), zero(c, dt)
        else:
            x = c.arg(ivals(rng, (1, ID, IH, IW, IC), -128, 127, dt), dt)
            w = c.const(ivals(rng, (OC, KD, KH, KW, IC), -128, 127, dt), (OC, KD, KH, KW, IC), dt)
            b = c.const(ivals(rng, (OC,), -100, 100, "i32"), (OC,), out)
            zi, zw = c.const([1], [1], dt), c.const([-1], [1], dt)
        c.emit("tosa.conv3d", [x, w, b, zi, zw], (1, OD, OH, OW, OC), out,
               f"acc_type = {acc}, dilation = array<i64: 1, 1, 1>, "
               f"pad = array<i64: 1, 0, 0, 0, 1, 1>, stride = array<i64: 1, 1, 1>")
        cases.append(c)
    # Pools
    for dt in ("f32", "f16", "i8", "i16"):
        N, IH, IW, C = 1, 7, 8, 3
        kernel, stride, pad = (3, 2), (2, 2), (1, 1, 0, 0)
        OH = (IH + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
        OW = (IW + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
        for op in ("avg_pool2d", "max_pool2d"):
            c = Case(f"{op}.{dt}", op, dt)
            v = fvals(rng, (N, IH, IW, C), -1, 1, dt) if dt in FLOATS else \
                ivals(rng, (N, IH, IW, C), int(INFO[dt].min), int(INFO[dt].max), dt)
            x = c.arg(v, dt)
            attrs = (f"kernel = array<i64: {kernel[0]}, {kernel[1]}>, pad = array<i64: {', '.join(map(str, pad))}>, "
                     f"stride = array<i64: {stride[0]}, {stride[1]}>")
            if op == "avg_pool2d":
                acc = "f32" if dt in FLOATS else "i32"
                zp = 3 if dt == "i8" else 0
                c.emit("tosa.avg_pool2d", [x, c.const([zp if dt not in FLOATS else 0.0], [1], dt),
                                            c.const([-zp if dt not in FLOATS else 0.0], [1], dt)],
                       (N, OH, OW, C), dt, f"acc_type = {acc}, " + attrs)
            else:
                c.emit("tosa.max_pool2d", [x], (N, OH, OW, C), dt, attrs)
            cases.append(c)
    c = Case("max_pool2d.f32.nan_ignore", "max_pool2d", "f32")
    v = fvals(rng, (1, 4, 4, 2), -1, 1, "f32")
    v[0, 0:2, 0:2, 0] = np.nan
    v[0, 2, 3, 1] = np.nan
    x = c.arg(v, "f32")
    c.emit("tosa.max_pool2d", [x], (1, 2, 2, 2), "f32",
           "kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, nan_mode = IGNORE")
    cases.append(c)
    # A window of -inf gives -inf (not -FLT_MAX), padding never wins, a NaN
    # propagates. (Inputs from a fixed pattern, not `rng`: the cases after
    # this one keep their data.)
    c = Case("max_pool2d.f32.neg_inf", "max_pool2d", "f32")
    v = np.sin(np.arange(32, dtype=np.float32) * 0.7).reshape(1, 4, 4, 2)
    v[0, 0:2, 0:2, 0] = -np.inf
    v[0, 0, 0:2, 1] = -np.inf
    v[0, 2, 3, 1] = np.nan
    x = c.arg(v, "f32")
    c.emit("tosa.max_pool2d", [x], (1, 4, 2, 2), "f32",
           "kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 1, 2>")
    cases.append(c)
    # FFTs
    c = Case("fft2d.f32", "fft2d", "f32")
    re_, im_ = c.arg(fvals(rng, (2, 4, 8), -1, 1, "f32"), "f32"), c.arg(fvals(rng, (2, 4, 8), -1, 1, "f32"), "f32")
    c.emit("tosa.fft2d", [re_, im_], [(2, 4, 8), (2, 4, 8)], "f32", "inverse = false")
    cases.append(c)
    c = Case("rfft2d.f32", "rfft2d", "f32")
    re_ = c.arg(fvals(rng, (2, 4, 8), -1, 1, "f32"), "f32")
    c.emit("tosa.rfft2d", [re_], [(2, 4, 5), (2, 4, 5)], "f32")
    cases.append(c)


def data_layout(rng, cases):
    for dt in ("f32", "i8", "i32", "i1"):
        def vals(shape):
            if dt == "i1":
                return rng.integers(0, 2, size=shape).astype(bool)
            if dt in FLOATS:
                return fvals(rng, shape, -9, 9, dt)
            return ivals(rng, shape, int(INFO[dt].min), int(INFO[dt].max), dt)
        shape = (2, 3, 4)
        def mk(op, out_shape, operands_fn, attrs=""):
            c = Case(f"{op}.{dt}", op, dt)
            x = c.arg(vals(shape), dt)
            c.emit(f"tosa.{op}", [x] + operands_fn(c), out_shape, dt, attrs)
            cases.append(c)
        mk("reshape", (4, 6), lambda c: [c.shape([4, 6])])
        mk("transpose", (4, 2, 3), lambda c: [], "perms = array<i32: 2, 0, 1>")
        mk("slice", (1, 2, 3), lambda c: [c.shape([1, 1, 0]), c.shape([1, 2, 3])])
        pad_value = {"f32": -1.5, "i8": -7, "i32": 99, "i1": True}[dt]
        mk("pad", (3, 5, 4), lambda c: [c.shape([1, 0, 0, 2, 0, 0]), c.const([pad_value], [1], dt)])
        mk("tile", (2, 6, 8), lambda c: [c.shape([1, 2, 2])])
        mk("reverse", shape, lambda c: [], "axis = 1 : i32")
        mk("identity", shape, lambda c: [])
        c = Case(f"concat.{dt}", "concat", dt)
        x, y = c.arg(vals(shape), dt), c.arg(vals((2, 1, 4)), dt)
        c.emit("tosa.concat", [x, y], (2, 4, 4), dt, "axis = 1 : i32")
        cases.append(c)
    for dt in ("f32", "i8", "i32"):
        vals = (lambda s: fvals(rng, s, -9, 9, dt)) if dt in FLOATS else \
            (lambda s: ivals(rng, s, int(INFO[dt].min), int(INFO[dt].max), dt))
        N, K, C, W = 2, 6, 3, 4
        c = Case(f"gather.{dt}", "gather", dt)
        v = c.arg(vals((N, K, C)), dt)
        idx = c.arg(rng.integers(0, K, size=(N, W)).astype(np.int32), "i32")
        c.emit("tosa.gather", [v, idx], (N, W, C), dt)
        cases.append(c)
        c = Case(f"scatter.{dt}", "scatter", dt)
        v = c.arg(vals((N, K, C)), dt)
        idx = c.arg(np.stack([rng.permutation(K)[:W] for _ in range(N)]).astype(np.int32), "i32")
        inp = c.arg(vals((N, W, C)), dt)
        c.emit("tosa.scatter", [v, idx, inp], (N, K, C), dt)
        cases.append(c)
    # TABLE
    c = Case("table.i8", "table", "i8")
    x = c.arg(ivals(rng, (4, 16), -128, 127, "i8"), "i8")
    t = c.const(ivals(rng, (256,), -128, 127, "i8"), (256,), "i8")
    c.emit("tosa.table", [x, t], (4, 16), "i8")
    cases.append(c)
    c = Case("table.i16", "table", "i16")
    v = ivals(rng, (4, 16), -32768, 32767, "i16")
    v.reshape(-1)[:3] = [-32768, 32767, 0]
    x = c.arg(v, "i16")
    tab = np.cumsum(rng.integers(-200, 200, size=513)).clip(-32768, 32767)
    t = c.const(tab, (513,), "i16")
    c.emit("tosa.table", [x, t], (4, 16), "i32")
    cases.append(c)


def image(rng, cases):
    settings = {  # scale (y_n, y_d, x_n, x_d), offset, border: output size
        "up2_align": ((2, 1, 2, 1), (0, 0), (0, 0)),
        "up2_half_pixel": ((4, 2, 4, 2), (-1, -1), (1, 1)),
        "down_frac": ((3, 5, 2, 3), (1, 0), (-1, -1)),
    }
    IH, IW, C = 5, 6, 2
    for sname, (sc, off, bd) in settings.items():
        OH = ((IH - 1) * sc[0] - off[0] + bd[0]) // sc[1] + 1
        OW = ((IW - 1) * sc[2] - off[1] + bd[1]) // sc[3] + 1
        # border chosen so the division is exact
        if ((IH - 1) * sc[0] - off[0] + bd[0]) % sc[1] or ((IW - 1) * sc[2] - off[1] + bd[1]) % sc[3]:
            continue
        for dt, mode, out in (("f32", "BILINEAR", "f32"), ("f32", "NEAREST_NEIGHBOR", "f32"),
                              ("f16", "BILINEAR", "f16"), ("i8", "BILINEAR", "i32"),
                              ("i8", "NEAREST_NEIGHBOR", "i8"), ("i16", "BILINEAR", "i48")):
            c = Case(f"resize.{dt}.{mode.lower()}.{sname}", "resize", dt)
            v = fvals(rng, (1, IH, IW, C), -1, 1, dt) if dt in FLOATS else \
                ivals(rng, (1, IH, IW, C), int(INFO[dt].min), int(INFO[dt].max), dt)
            x = c.arg(v, dt)
            c.emit("tosa.resize", [x, c.shape(sc), c.shape(off), c.shape(bd)], (1, OH, OW, C), out,
                   f"mode = {mode}")
            cases.append(c)


def control_flow(rng, cases):
    c = Case("cond_if.f32", "cond_if", "f32")
    c.args = ["%arg0: tensor<i1>", "%arg1: tensor<8xf32>"]
    c.inputs = [np.array(True), fvals(rng, (8,), -2, 2, "f32")]
    c.lines = ['%r0 = "tosa.cond_if"(%arg0, %arg1) ({',
               "^bb0(%a: tensor<8xf32>):",
               "  %n = tosa.exp %a : (tensor<8xf32>) -> tensor<8xf32>",
               "  tosa.yield %n : tensor<8xf32>",
               "}, {", "^bb0(%a: tensor<8xf32>):",
               "  tosa.yield %a : tensor<8xf32>",
               "}) : (tensor<i1>, tensor<8xf32>) -> tensor<8xf32>"]
    c.results = [("%r0", "tensor<8xf32>")]
    cases.append(c)
    c = Case("while_loop.i32", "while_loop", "i32")
    c.args = ["%arg0: tensor<i32>"]
    c.inputs = [np.array(3, dtype=np.int32)]
    c.lines = ['%r0 = "tosa.while_loop"(%arg0) ({',
               "^bb0(%i: tensor<i32>):",
               '  %t = "tosa.const"() <{values = dense<100> : tensor<i32>}> : () -> tensor<i32>',
               "  %g = tosa.greater %t, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>",
               "  tosa.yield %g : tensor<i1>",
               "}, {", "^bb0(%i: tensor<i32>):",
               '  %s = "tosa.const"() <{values = dense<7> : tensor<i32>}> : () -> tensor<i32>',
               "  %n = tosa.add %i, %s : (tensor<i32>, tensor<i32>) -> tensor<i32>",
               "  tosa.yield %n : tensor<i32>",
               "}) : (tensor<i32>) -> tensor<i32>"]
    c.results = [("%r0", "tensor<i32>")]
    cases.append(c)


FAMILIES = [unary_float, binary_float, elementwise_int, cast_cases, rescale_cases,
            reductions, tensor_ops, data_layout, image, control_flow]


def generate(out_dir, seed=1, pattern=None):
    rng = np.random.default_rng(seed)
    cases = []
    for family in FAMILIES:
        family(rng, cases)
    if pattern:
        cases = [c for c in cases if re.search(pattern, c.name)]
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    names = set()
    for c in cases:
        assert c.name not in names, c.name
        names.add(c.name)
        c.write(out_dir)
    return [c.name for c in cases]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out_dir")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--filter", help="only cases whose name matches this regex")
    args = p.parse_args(argv[1:])
    names = generate(args.out_dir, args.seed, args.filter)
    print(f"generate.py: wrote {len(names)} cases to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
