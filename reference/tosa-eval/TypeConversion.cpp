//===- TypeConversion.cpp - CAST and RESCALE ------------------------------===//
//
// TOSA 1.0 section "Type Conversion". CAST's float results are returned
// unrounded (the fp64 value): its precision requirement compares the
// implementation with that value ("calculated using fp64_t arithmetic");
// consumers see it rounded to the output type like any other result.
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/OpEval.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;

namespace onnx_tosa::ref {
namespace {

LogicalResult evalCast(OpEval &e) {
  const Tensor &x = e.in(0);
  Tensor &out = e.result();
  unsigned outBits = bitWidth(out.type);
  for (int64_t i = 0, n = x.size(); i < n; ++i) {
    if (out.type == DType::Bool) {
      out.ints[i] = x.isFloat() ? x.floats[i] != 0.0 : x.ints[i] != 0;
    } else if (out.isFloat()) {
      out.floats[i] = x.asDouble(i); // bool gives 1.0 / 0.0
    } else if (x.type == DType::Bool) {
      out.ints[i] = x.ints[i] != 0;
    } else if (x.isFloat()) {
      double f = x.floats[i];
      e.require(!std::isnan(f), "CAST of a NaN to an integer");
      if (std::isnan(f)) {
        out.ints[i] = 0;
        continue;
      }
      // round_to_nearest_int (ties to even), then saturate.
      double r = std::nearbyint(f);
      double lo = static_cast<double>(minSigned(outBits));
      double hi = static_cast<double>(maxSigned(outBits));
      out.ints[i] = r <= lo   ? minSigned(outBits)
                    : r >= hi ? maxSigned(outBits)
                              : static_cast<int64_t>(r);
    } else {
      // Integer to integer: sign-extend when widening, truncate otherwise.
      out.ints[i] = wrapSigned(x.ints[i], outBits);
    }
  }
  return success();
}

/// apply_scale_32 ("Scaling Helpers"); returns the 32-bit result.
int64_t applyScale32(OpEval &e, int64_t value, int64_t multiplier,
                     int64_t shift, bool doubleRound) {
  e.require(multiplier >= 0, "multiplier < 0");
  e.require(shift >= 2 && shift <= 62, "shift out of [2, 62]");
  if (shift < 2 || shift > 62)
    return 0;
  e.require(value >= -(int64_t(1) << (shift - 1)) &&
                value < (int64_t(1) << (shift - 1)),
            "apply_scale_32 value out of range for the shift");
  __int128 round = static_cast<__int128>(1) << (shift - 1);
  if (doubleRound && shift > 31)
    round += value >= 0 ? (int64_t(1) << 30) : -(int64_t(1) << 30);
  __int128 result = static_cast<__int128>(value) * multiplier + round;
  result >>= shift;
  return wrapSigned(static_cast<int64_t>(result), 32);
}

/// apply_scale_16.
int64_t applyScale16(OpEval &e, int64_t value, int64_t multiplier,
                     int64_t shift) {
  e.require(multiplier >= 0, "multiplier < 0");
  e.require(shift >= 2 && shift <= 62, "shift out of [2, 62]");
  if (shift < 2 || shift > 62)
    return 0;
  __int128 result = static_cast<__int128>(value) * multiplier +
                    (static_cast<__int128>(1) << (shift - 1));
  result >>= shift;
  e.require(result >= minSigned(32) && result <= maxSigned(32),
            "apply_scale_16 result overflows i32");
  return wrapSigned(static_cast<int64_t>(result), 32);
}

LogicalResult evalRescale(OpEval &e) {
  auto op = e.as<tosa::RescaleOp>();
  const Tensor &x = e.in(0), &multiplier = e.in(1), &shift = e.in(2);
  Tensor &out = e.result();
  int64_t inZp = e.scalarInt(3), outZp = e.scalarInt(4);
  bool scale32 = op.getScale32(), perChannel = op.getPerChannel();
  bool inUnsigned = op.getInputUnsigned(), outUnsigned = op.getOutputUnsigned();
  tosa::RoundingMode mode = op.getRoundingMode();
  DType in = x.type, outT = out.type;
  unsigned inBits = bitWidth(in), outBits = bitWidth(outT);

  // The ERROR_IFs of RESCALE's pseudocode.
  if (e.errorIf(in != DType::I8 && !(in == DType::I16 && inUnsigned) &&
                    inZp != 0,
                "input_zp must be 0 unless the input is i8 or u16") ||
      e.errorIf(outT != DType::I8 && !(outT == DType::I16 && outUnsigned) &&
                    outZp != 0,
                "output_zp must be 0 unless the output is i8 or u16") ||
      e.errorIf(in == DType::I16 && inUnsigned && inZp != 0 &&
                    zeroExtend(inZp, 16) != 32768,
                "a u16 input_zp must be 0 or 32768") ||
      e.errorIf(outT == DType::I16 && outUnsigned && outZp != 0 &&
                    zeroExtend(outZp, 16) != 32768,
                "a u16 output_zp must be 0 or 32768") ||
      e.errorIf(scale32 && in == DType::I48, "scale32 with an i48 input") ||
      e.errorIf(!scale32 && mode == tosa::RoundingMode::DOUBLE_ROUND,
                "DOUBLE_ROUND needs scale32") ||
      e.errorIf(inUnsigned && outUnsigned, "both input and output unsigned") ||
      e.errorIf(outT == DType::I32 && inUnsigned,
                "unsigned input with an i32 output") ||
      e.errorIf((in == DType::I32 || in == DType::I48) && outUnsigned,
                "unsigned output from an i32/i48 input") ||
      e.errorIf((in == DType::I32 || in == DType::I48) && inUnsigned,
                "unsigned i32/i48 input") ||
      e.errorIf(outT == DType::I32 && outUnsigned, "unsigned i32 output") ||
      e.errorIf(perChannel && x.rank() < 1, "per_channel on a rank-0 input"))
    return failure();
  int64_t channels = perChannel ? x.shape.back() : 1;
  if (e.errorIf(multiplier.size() != channels || shift.size() != channels,
                "multiplier and shift need one value per channel"))
    return failure();

  int64_t inZpExt = inUnsigned ? zeroExtend(inZp, inBits) : inZp;
  int64_t outZpExt = outUnsigned ? zeroExtend(outZp, outBits) : outZp;
  int64_t lo = outUnsigned ? 0 : minSigned(outBits);
  int64_t hi = outUnsigned ? static_cast<int64_t>(zeroExtend(-1, outBits))
                           : maxSigned(outBits);
  int64_t inner = channels;
  for (int64_t i = 0, n = x.size(); i < n; ++i) {
    int64_t value = inUnsigned ? zeroExtend(x.ints[i], inBits) : x.ints[i];
    value -= inZpExt;
    int64_t c = perChannel ? i % inner : 0;
    // INEXACT_ROUND allows an approximation; the single-round result is one
    // such (the compliance check bounds the rest).
    int64_t r = scale32
                    ? applyScale32(e, value, multiplier.ints[c], shift.ints[c],
                                   mode == tosa::RoundingMode::DOUBLE_ROUND)
                    : applyScale16(e, value, multiplier.ints[c], shift.ints[c]);
    r = checkedInt(e, r + outZpExt, DType::I32, "RESCALE + output_zp");
    r = std::clamp(r, lo, hi);
    out.ints[i] = wrapSigned(r, outBits);
  }
  return success();
}

} // namespace

void registerTypeConversionOps(HandlerTable &table) {
  table["tosa.cast"] = evalCast;
  table["tosa.rescale"] = evalRescale;
}

} // namespace onnx_tosa::ref
