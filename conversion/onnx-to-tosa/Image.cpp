//===- Image.cpp - CenterCropPad, Col2Im, AffineGrid ----------------------===//
//
// Image-layout ops whose geometry (crop size, image size, grid size) is a
// compile-time constant: each becomes slices, pads and elementwise
// arithmetic on static shapes.
//
//===----------------------------------------------------------------------===//
#include "conversion/onnx-to-tosa/NodeContext.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

/// CenterCropPad: along each of `axes` (default all, in the order `shape`
/// lists them) a centered window of the requested size: cropped with the
/// start rounded down, or padded with zeros, the odd pixel at the end.
LegalizeResult centerCropPad(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)))
    return failure();
  Shape sizes;
  if (failed(ctx.requireConstantInts(1, "shape", sizes)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  int64_t rank = t.rankOf(x);
  Shape axes;
  if (ctx.hasAttr("axes")) {
    for (int64_t axis : ctx.getInts("axes")) {
      std::optional<int64_t> a = normalizeAxis(axis, rank);
      if (!a || llvm::is_contained(axes, *a))
        return ctx.fail("axis " + Twine(axis) + " is out of range or repeated");
      axes.push_back(*a);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (axes.size() != sizes.size())
    return ctx.fail("shape has " + Twine(sizes.size()) +
                    " entries, but there are " + Twine(axes.size()) + " axes");
  for (auto [axis, size] : llvm::zip(axes, sizes)) {
    if (size < 1)
      return ctx.fail("crop/pad sizes must be positive");
    int64_t dim = t.shapeOf(x)[axis];
    if (size < dim) {
      x = t.sliceAxis(x, axis, (dim - size) / 2, size);
    } else if (size > dim) {
      Shape pads(2 * rank, 0);
      pads[2 * axis] = (size - dim) / 2;
      pads[2 * axis + 1] = size - dim - pads[2 * axis];
      x = t.pad(x, pads, 0.0);
    }
  }
  return Values{x};
}

/// Col2Im: the adjoint of im2col. The input [N, C * prod(block), L] holds,
/// for each block position k and each of the L sliding blocks, the value
/// that lands at image position block_start + k * dilation; overlapping
/// blocks add up. Each block position is one slice of the input, spread out
/// by the strides (zeros between), padded to its place in the padded image,
/// and summed; the image padding is cropped at the end.
LegalizeResult col2Im(NodeContext &ctx) {
  if (failed(ctx.requireInputs(3)) ||
      failed(ctx.requireElementType(0, Elt::Number)))
    return failure();
  Shape image, block;
  if (failed(ctx.requireConstantInts(1, "image_shape", image)) ||
      failed(ctx.requireConstantInts(2, "block_shape", block)))
    return failure();
  int64_t n = image.size();
  if (n < 1 || block.size() != image.size())
    return ctx.fail("image_shape and block_shape must have the same, "
                    "positive length");
  Shape dilations = ctx.getInts("dilations", Shape(n, 1));
  Shape strides = ctx.getInts("strides", Shape(n, 1));
  Shape pads = ctx.getInts("pads", Shape(2 * n, 0));
  if (static_cast<int64_t>(dilations.size()) != n ||
      static_cast<int64_t>(strides.size()) != n ||
      static_cast<int64_t>(pads.size()) != 2 * n)
    return ctx.fail("dilations, strides and pads must have one entry per "
                    "spatial dimension (" +
                    Twine(n) + ")");
  TosaBuilder &t = ctx.tosa;
  Value x = ctx.input(0);
  ArrayRef<int64_t> in = t.shapeOf(x);
  if (in.size() != 3)
    return ctx.fail("input must have shape [N, C * prod(block_shape), L]");
  int64_t kernelSize = product(block);
  Shape blocks, padded;
  for (int64_t d = 0; d < n; ++d) {
    if (image[d] < 1 || block[d] < 1 || dilations[d] < 1 || strides[d] < 1 ||
        pads[d] < 0 || pads[n + d] < 0)
      return ctx.fail("image and block sizes, dilations and strides must be "
                      "positive and pads non-negative");
    padded.push_back(image[d] + pads[d] + pads[n + d]);
    int64_t span = (block[d] - 1) * dilations[d] + 1;
    if (padded.back() < span)
      return ctx.fail("the block does not fit in the padded image");
    blocks.push_back((padded.back() - span) / strides[d] + 1);
  }
  if (in[1] % kernelSize != 0 || in[2] != product(blocks))
    return ctx.fail("input shape does not match image_shape, block_shape, "
                    "dilations, pads and strides");
  if (failed(ctx.requireNonEmpty(in)))
    return failure();
  int64_t batch = in[0], channels = in[1] / kernelSize;

  // [N, C, K, blocks...], the blocks spread out by the strides.
  Shape grid{batch, channels, kernelSize};
  llvm::append_range(grid, blocks);
  Value cols = t.reshape(x, grid);
  for (int64_t d = 0; d < n; ++d) {
    int64_t s = strides[d];
    if (s == 1)
      continue;
    int64_t axis = 3 + d;
    Shape shape(t.shapeOf(cols));
    Shape split(shape);
    split.insert(split.begin() + axis + 1, 1);
    Shape spread(2 * split.size(), 0);
    spread[2 * (axis + 1) + 1] = s - 1;
    Value v = t.pad(t.reshape(cols, split), spread, 0.0);
    shape[axis] *= s;
    cols = t.sliceAxis(t.reshape(v, shape), axis, 0, (blocks[d] - 1) * s + 1);
  }

  Shape outShape{batch, channels};
  llvm::append_range(outShape, padded);
  Value sum;
  for (int64_t k = 0; k < kernelSize; ++k) {
    Shape place(2 * (n + 2), 0);
    // Block position k as a multi-index (row-major over block_shape).
    int64_t rest = k;
    for (int64_t d = n - 1; d >= 0; --d) {
      int64_t offset = (rest % block[d]) * dilations[d];
      rest /= block[d];
      int64_t extent = (blocks[d] - 1) * strides[d] + 1;
      place[2 * (d + 2)] = offset;
      place[2 * (d + 2) + 1] = padded[d] - offset - extent;
    }
    Shape sliceShape(t.shapeOf(cols));
    sliceShape.erase(sliceShape.begin() + 2);
    Value part =
        t.pad(t.reshape(t.sliceAxis(cols, 2, k, 1), sliceShape), place, 0.0);
    sum = sum ? t.add(sum, part) : part;
  }
  Shape start(n + 2, 0), size{batch, channels};
  for (int64_t d = 0; d < n; ++d) {
    start[d + 2] = pads[d];
    size.push_back(image[d]);
  }
  return Values{t.slice(sum, start, size)};
}

/// AffineGrid: for each output position p of the grid [N, (D,) H, W] the
/// normalized coordinates b(p) = (x, y, (z,) 1) (x along W) transformed by
/// theta [N, 2, 3] (or [N, 3, 4]): grid[n, p, :] = theta[n] b(p). The
/// coordinates are constants: -1 + (2i + 1) / size, or -1 + 2i / (size - 1)
/// with align_corners; the product is a sum over the few columns of theta.
LegalizeResult affineGrid(NodeContext &ctx) {
  if (failed(ctx.requireInputs(2)) ||
      failed(ctx.requireElementType(0, Elt::Float)))
    return failure();
  Shape size;
  if (failed(ctx.requireConstantInts(1, "size", size)))
    return failure();
  TosaBuilder &t = ctx.tosa;
  Value theta = ctx.input(0);
  ArrayRef<int64_t> thetaShape = t.shapeOf(theta);
  int64_t dims = size.size() - 2; // 2 or 3 spatial dimensions
  if ((dims != 2 && dims != 3) || thetaShape.size() != 3 ||
      thetaShape[0] != size[0] || thetaShape[1] != dims ||
      thetaShape[2] != dims + 1)
    return ctx.fail("theta must be [N, 2, 3] with size [N, C, H, W] or "
                    "[N, 3, 4] with size [N, C, D, H, W]");
  Shape spatial(size.begin() + 2, size.end());
  if (failed(ctx.requireNonEmpty(spatial)))
    return failure();
  bool alignCorners = ctx.getInt("align_corners", 0);
  int64_t batch = size[0], points = product(spatial);

  // theta's column j as [N, 1, dims], times coordinate j of every point as
  // [1, points, 1]; the last column is the translation.
  Value thetaT = t.transpose(theta, {0, 2, 1}); // [N, dims + 1, dims]
  auto column = [&](int64_t j) {
    return t.reshape(t.sliceAxis(thetaT, 1, j, 1), {batch, 1, dims});
  };
  Value grid = column(dims);
  Type elt = t.elementTypeOf(theta);
  for (int64_t j = 0; j < dims; ++j) {
    // Coordinate j runs along spatial dimension dims - 1 - j (x along W).
    int64_t d = dims - 1 - j, extent = spatial[d];
    int64_t inner = product(ArrayRef<int64_t>(spatial).drop_front(d + 1));
    SmallVector<double> coords(points);
    for (int64_t p = 0; p < points; ++p) {
      int64_t i = p / inner % extent;
      coords[p] = alignCorners
                      ? (extent > 1 ? -1.0 + 2.0 * i / (extent - 1) : -1.0)
                      : -1.0 + (2.0 * i + 1.0) / extent;
    }
    Value c = t.constant(
        fromDoubles(RankedTensorType::get({1, points, 1}, elt), coords));
    grid = t.add(grid, t.mul(column(j), c));
  }
  Shape outShape{batch};
  llvm::append_range(outShape, spatial);
  outShape.push_back(dims);
  return Values{t.reshape(grid, outShape)};
}

// clang-format off
const OpLegalization kImage[] = {
    {"CenterCropPad", 18, centerCropPad},
    {"Col2Im", 18, col2Im},
    {"AffineGrid", 20, affineGrid},
};
// clang-format on

} // namespace

ArrayRef<OpLegalization> getImageLegalizations() { return kImage; }

} // namespace onnx_tosa
