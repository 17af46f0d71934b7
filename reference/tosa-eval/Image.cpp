//===- Image.cpp - RESIZE -------------------------------------------------===//
//
// TOSA 1.0 section "Image Operators". Positions are computed in integers as
// the pseudocode does: y = oy * scale_y_d + offset_y, split into an integer
// part (floor division by scale_y_n) and a remainder. Floating-point
// interpolation weights are the remainder / scale_n in fp64; integer
// BILINEAR accumulates unnormalized weights (the result is scaled by
// scale_y_n * scale_x_n).
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/OpEval.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace onnx_tosa::ref {
namespace {

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

LogicalResult evalResize(OpEval &e) {
  const Tensor &in = e.in(0);
  Tensor &out = e.result();
  SmallVector<int64_t> scale = e.shapeOperand(1), offset = e.shapeOperand(2),
                       border = e.shapeOperand(3);
  bool bilinear =
      e.as<tosa::ResizeOp>().getMode() == tosa::ResizeMode::BILINEAR;
  int64_t N = in.shape[0], IH = in.shape[1], IW = in.shape[2], C = in.shape[3],
          OH = out.shape[1], OW = out.shape[2];
  int64_t syN = scale[0], syD = scale[1], sxN = scale[2], sxD = scale[3];
  int64_t offY = offset[0], offX = offset[1], bY = border[0], bX = border[1];
  auto sizeOk = [&](int64_t numerator, int64_t d, int64_t expected) {
    return numerator >= 0 && numerator % d == 0 &&
           numerator / d + 1 == expected;
  };
  if (e.errorIf(std::max({OH, OW, IH, IW}) >= 16384, "image too large") ||
      e.errorIf(syN <= 0 || syD <= 0 || sxN <= 0 || sxD <= 0,
                "scales must be positive") ||
      e.errorIf(syN > (1 << 11) || sxN > (1 << 11), "scale_n > 2048") ||
      e.errorIf(syD >= 16 * syN || sxD >= 16 * sxN, "downscale below 1/16") ||
      e.errorIf(offY < -syN || offY >= 16 * syN || offX < -sxN ||
                    offX >= 16 * sxN,
                "offset out of range") ||
      e.errorIf(bY < -16 * syN || bY >= syN || bX < -16 * sxN || bX >= sxN,
                "border out of range") ||
      e.errorIf(!sizeOk((IH - 1) * syN - offY + bY, syD, OH),
                "output height mismatch") ||
      e.errorIf(!sizeOk((IW - 1) * sxN - offX + bX, sxD, OW),
                "output width mismatch"))
    return failure();

  for (int64_t n = 0; n < N; ++n)
    for (int64_t oy = 0; oy < OH; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox) {
        int64_t y = oy * syD + offY, x = ox * sxD + offX;
        int64_t iy = floorDiv(y, syN), ix = floorDiv(x, sxN);
        int64_t ry = y - iy * syN, rx = x - ix * sxN;
        int64_t iy0 = std::max<int64_t>(iy, 0);
        int64_t iy1 = std::min<int64_t>(iy + 1, IH - 1);
        int64_t ix0 = std::max<int64_t>(ix, 0);
        int64_t ix1 = std::min<int64_t>(ix + 1, IW - 1);
        for (int64_t c = 0; c < C; ++c) {
          auto at = [&](int64_t yy, int64_t xx) {
            return ((n * IH + yy) * IW + xx) * C + c;
          };
          int64_t o = ((n * OH + oy) * OW + ox) * C + c;
          if (!bilinear) {
            bool pickY1 = in.isFloat() ? static_cast<double>(ry) / syN >= 0.5
                                       : 2 * ry >= syN;
            bool pickX1 = in.isFloat() ? static_cast<double>(rx) / sxN >= 0.5
                                       : 2 * rx >= sxN;
            int64_t src = at(pickY1 ? iy1 : iy0, pickX1 ? ix1 : ix0);
            if (out.isFloat())
              out.floats[o] = in.floats[src];
            else
              out.ints[o] = in.ints[src];
            continue;
          }
          if (in.isFloat()) {
            double dy = static_cast<double>(ry) / syN;
            double dx = static_cast<double>(rx) / sxN;
            out.floats[o] = in.floats[at(iy0, ix0)] * (1 - dy) * (1 - dx) +
                            in.floats[at(iy0, ix1)] * (1 - dy) * dx +
                            in.floats[at(iy1, ix0)] * dy * (1 - dx) +
                            in.floats[at(iy1, ix1)] * dy * dx;
          } else {
            int64_t acc = in.ints[at(iy0, ix0)] * (syN - ry) * (sxN - rx) +
                          in.ints[at(iy0, ix1)] * (syN - ry) * rx +
                          in.ints[at(iy1, ix0)] * ry * (sxN - rx) +
                          in.ints[at(iy1, ix1)] * ry * rx;
            out.ints[o] = checkedInt(e, acc, out.type, "RESIZE accumulation");
          }
        }
      }
  return success();
}

} // namespace

void registerImageOps(HandlerTable &table) {
  table["tosa.resize"] = evalResize;
}

} // namespace onnx_tosa::ref
