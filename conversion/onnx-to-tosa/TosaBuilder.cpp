//===- TosaBuilder.cpp - Compact creation of TOSA ops ---------------------===//
#include "conversion/onnx-to-tosa/TosaBuilder.h"
#include "conversion/onnx-to-tosa/ConstantData.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnx_tosa {

//===----------------------------------------------------------------------===//
// Shape arithmetic
//===----------------------------------------------------------------------===//

int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

std::optional<Shape> broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape pa = prependOnes(a, rank - a.size());
  Shape pb = prependOnes(b, rank - b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (pa[i] != pb[i] && pa[i] != 1 && pb[i] != 1)
      return std::nullopt;
    out[i] = pa[i] == 1 ? pb[i] : pa[i];
  }
  return out;
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

Shape prependOnes(ArrayRef<int64_t> shape, int64_t count) {
  Shape out(count, 1);
  out.append(shape.begin(), shape.end());
  return out;
}

//===----------------------------------------------------------------------===//
// TosaBuilder: types and constants
//===----------------------------------------------------------------------===//

RankedTensorType TosaBuilder::typeOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType());
}
ArrayRef<int64_t> TosaBuilder::shapeOf(Value v) { return typeOf(v).getShape(); }
Type TosaBuilder::elementTypeOf(Value v) { return typeOf(v).getElementType(); }
int64_t TosaBuilder::rankOf(Value v) { return typeOf(v).getRank(); }
bool TosaBuilder::isFloat(Value v) { return isa<FloatType>(elementTypeOf(v)); }

Value TosaBuilder::constant(ElementsAttr values) {
  return tosa::ConstOp::create(b, loc, values.getType(), values);
}

Value TosaBuilder::splat(ArrayRef<int64_t> shape, Type elementType,
                         double value) {
  auto type = RankedTensorType::get(shape, elementType);
  return constant(
      DenseElementsAttr::get(type, elementAttr(elementType, value)));
}

Value TosaBuilder::scalarLike(Value like, double value) {
  return splat(Shape(rankOf(like), 1), elementTypeOf(like), value);
}

Value TosaBuilder::zeroPoint(Type elementType) {
  return splat({1}, elementType, 0);
}

Value TosaBuilder::constShape(ArrayRef<int64_t> values) {
  auto attrType = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                        b.getIndexType());
  auto shapeType = tosa::shapeType::get(b.getContext(), values.size());
  return tosa::ConstShapeOp::create(
      b, loc, shapeType, DenseIntElementsAttr::get(attrType, values));
}

std::optional<DenseElementsAttr> TosaBuilder::constantValue(Value v) {
  if (!v)
    return std::nullopt;
  auto op = v.getDefiningOp<tosa::ConstOp>();
  if (!op)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(op.getValues()))
    return dense;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Data layout
//===----------------------------------------------------------------------===//

Value TosaBuilder::reshape(Value v, ArrayRef<int64_t> shape) {
  if (shapeOf(v) == shape)
    return v;
  auto type = RankedTensorType::get(shape, elementTypeOf(v));
  if (auto attr = constantValue(v))
    return constant(attr->reshape(type));
  return tosa::ReshapeOp::create(b, loc, type, v, constShape(shape));
}

Value TosaBuilder::transpose(Value v, ArrayRef<int64_t> perm) {
  bool identity = llvm::all_of(llvm::enumerate(perm), [](auto p) {
    return p.value() == static_cast<int64_t>(p.index());
  });
  if (identity)
    return v;
  if (auto attr = constantValue(v))
    return constant(transposeAttr(*attr, perm));
  Shape shape;
  for (int64_t p : perm)
    shape.push_back(shapeOf(v)[p]);
  SmallVector<int32_t> perms(perm.begin(), perm.end());
  return tosa::TransposeOp::create(
      b, loc, RankedTensorType::get(shape, elementTypeOf(v)), v, perms);
}

Value TosaBuilder::slice(Value v, ArrayRef<int64_t> start,
                         ArrayRef<int64_t> size) {
  if (shapeOf(v) == size)
    return v;
  auto type = RankedTensorType::get(size, elementTypeOf(v));
  if (auto attr = constantValue(v))
    return constant(sliceAttr(*attr, start, size));
  return tosa::SliceOp::create(b, loc, type, v, constShape(start),
                               constShape(size));
}

Value TosaBuilder::sliceAxis(Value v, int64_t axis, int64_t start,
                             int64_t size) {
  Shape starts(rankOf(v), 0);
  Shape sizes(shapeOf(v));
  starts[axis] = start;
  sizes[axis] = size;
  return slice(v, starts, sizes);
}

Value TosaBuilder::sliceStrided(Value v, int64_t axis, int64_t start,
                                int64_t count, int64_t step) {
  if (step == 1)
    return sliceAxis(v, axis, start, count);
  // Take count * step elements (padding past the end), view them as
  // [count, step] and keep column 0.
  int64_t avail = std::min(count * step, shapeOf(v)[axis] - start);
  Value taken = sliceAxis(v, axis, start, avail);
  Shape pads(2 * rankOf(v), 0);
  pads[2 * axis + 1] = count * step - avail;
  taken = pad(taken, pads, 0.0);
  Shape split(shapeOf(taken));
  split[axis] = count;
  split.insert(split.begin() + axis + 1, step);
  Value column = sliceAxis(reshape(taken, split), axis + 1, 0, 1);
  Shape out(shapeOf(v));
  out[axis] = count;
  return reshape(column, out);
}

Value TosaBuilder::pad(Value v, ArrayRef<int64_t> lowHigh, double value) {
  if (llvm::all_of(lowHigh, [](int64_t p) { return p == 0; }))
    return v;
  Shape shape(shapeOf(v));
  for (size_t i = 0; i < shape.size(); ++i)
    shape[i] += lowHigh[2 * i] + lowHigh[2 * i + 1];
  if (std::optional<DenseElementsAttr> attr = constantValue(v)) {
    // Fold: concatenate constant blocks around the data, one axis at a time.
    DenseElementsAttr padded = *attr;
    Attribute fill = elementAttr(elementTypeOf(v), value);
    for (size_t i = 0; i < shape.size(); ++i) {
      SmallVector<DenseElementsAttr> parts;
      Shape blockShape(
          llvm::cast<RankedTensorType>(padded.getType()).getShape());
      for (int64_t size : {lowHigh[2 * i], int64_t(-1), lowHigh[2 * i + 1]}) {
        if (size == -1) {
          parts.push_back(padded);
        } else if (size > 0) {
          blockShape[i] = size;
          parts.push_back(DenseElementsAttr::get(
              RankedTensorType::get(blockShape, elementTypeOf(v)), fill));
        }
      }
      padded = parts.size() == 1 ? padded : concatAttr(parts, i);
    }
    return constant(padded);
  }
  Value padConst = splat({1}, elementTypeOf(v), value);
  return tosa::PadOp::create(b, loc,
                             RankedTensorType::get(shape, elementTypeOf(v)), v,
                             constShape(lowHigh), padConst);
}

Value TosaBuilder::concat(ValueRange values, int64_t axis) {
  if (values.size() == 1)
    return values.front();
  Shape shape(shapeOf(values.front()));
  shape[axis] = 0;
  SmallVector<DenseElementsAttr> attrs;
  for (Value v : values) {
    shape[axis] += shapeOf(v)[axis];
    if (auto attr = constantValue(v))
      attrs.push_back(*attr);
  }
  auto type = RankedTensorType::get(shape, elementTypeOf(values.front()));
  if (attrs.size() == values.size())
    return constant(concatAttr(attrs, axis));
  return tosa::ConcatOp::create(b, loc, type, values,
                                static_cast<uint32_t>(axis));
}

Value TosaBuilder::tile(Value v, ArrayRef<int64_t> multiples) {
  if (llvm::all_of(multiples, [](int64_t m) { return m == 1; }))
    return v;
  Shape shape(shapeOf(v));
  for (size_t i = 0; i < shape.size(); ++i)
    shape[i] *= multiples[i];
  auto type = RankedTensorType::get(shape, elementTypeOf(v));
  if (auto attr = constantValue(v))
    return constant(tileAttr(*attr, multiples));
  return tosa::TileOp::create(b, loc, type, v, constShape(multiples));
}

Value TosaBuilder::gatherAxis(Value v, int64_t axis,
                              ArrayRef<int64_t> indices) {
  ArrayRef<int64_t> shape = shapeOf(v);
  int64_t dim = shape[axis], count = indices.size();
  auto isRun = [&](size_t from, size_t to) {
    for (size_t i = from + 1; i < to; ++i)
      if (indices[i] != indices[i - 1] + 1)
        return false;
    return true;
  };
  if (isRun(0, count))
    return sliceAxis(v, axis, indices.front(), count);

  // Each of 0..dim-1 repeated `rep` times: [.., dim, 1, ..] tiled.
  if (count % dim == 0) {
    int64_t rep = count / dim;
    bool repeatEach =
        llvm::all_of(llvm::seq<int64_t>(0, count),
                     [&](int64_t i) { return indices[i] == i / rep; });
    if (repeatEach) {
      Shape split(shape);
      split.insert(split.begin() + axis + 1, 1);
      Shape reps(split.size(), 1);
      reps[axis + 1] = rep;
      Shape out(shape);
      out[axis] = count;
      return reshape(tile(reshape(v, split), reps), out);
    }
  }

  // Few indices (or data tosa.gather cannot take): one slice per run of
  // consecutive indices, a tiled slice per run of one repeated index.
  Type elt = elementTypeOf(v);
  if (count <= 16 || elt.isInteger(1) || elt.isInteger(64)) {
    SmallVector<Value> parts;
    for (size_t start = 0, end; start < indices.size(); start = end) {
      end = start + 1;
      if (end < indices.size() && indices[end] == indices[start]) {
        while (end < indices.size() && indices[end] == indices[start])
          ++end;
        Shape reps(shape.size(), 1);
        reps[axis] = end - start;
        parts.push_back(tile(sliceAxis(v, axis, indices[start], 1), reps));
        continue;
      }
      while (end < indices.size() && isRun(start, end + 1))
        ++end;
      parts.push_back(sliceAxis(v, axis, indices[start], end - start));
    }
    return concat(parts, axis);
  }

  // tosa.gather: values [N, K, C] and indices [N, W] give [N, W, C].
  int64_t outer = product(shape.take_front(axis));
  int64_t inner = product(shape.drop_front(axis + 1));
  SmallVector<int64_t> tiled;
  for (int64_t n = 0; n < outer; ++n)
    llvm::append_range(tiled, indices);
  auto idxType = RankedTensorType::get({outer, count}, b.getI32Type());
  auto type = RankedTensorType::get({outer, count, inner}, elt);
  Value gathered =
      tosa::GatherOp::create(b, loc, type, reshape(v, {outer, dim, inner}),
                             constant(fromInts(idxType, tiled)));
  Shape out(shape);
  out[axis] = count;
  return reshape(gathered, out);
}

Value TosaBuilder::reverse(Value v, int64_t axis) {
  if (shapeOf(v)[axis] == 1)
    return v;
  return tosa::ReverseOp::create(b, loc, v.getType(), v,
                                 static_cast<uint32_t>(axis));
}

Value TosaBuilder::expandRank(Value v, int64_t rank) {
  if (rankOf(v) >= rank)
    return v;
  return reshape(v, prependOnes(shapeOf(v), rank - rankOf(v)));
}

Value TosaBuilder::broadcastTo(Value v, ArrayRef<int64_t> shape) {
  v = expandRank(v, shape.size());
  Shape multiples;
  for (auto [have, want] : llvm::zip_equal(shapeOf(v), shape))
    multiples.push_back(have == want ? 1 : want);
  return tile(v, multiples);
}

void TosaBuilder::equalizeRanks(Value &a, Value &c) {
  int64_t rank = std::max(rankOf(a), rankOf(c));
  a = expandRank(a, rank);
  c = expandRank(c, rank);
}

void TosaBuilder::equalizeRanks(Value &a, Value &c, Value &d) {
  int64_t rank = std::max({rankOf(a), rankOf(c), rankOf(d)});
  a = expandRank(a, rank);
  c = expandRank(c, rank);
  d = expandRank(d, rank);
}

Value TosaBuilder::cast(Value v, Type elementType) {
  if (elementTypeOf(v) == elementType)
    return v;
  return tosa::CastOp::create(
      b, loc, RankedTensorType::get(shapeOf(v), elementType), v);
}

Value TosaBuilder::toChannelsLast(Value v) {
  int64_t rank = rankOf(v);
  Shape perm{0};
  for (int64_t d = 2; d < rank; ++d)
    perm.push_back(d);
  perm.push_back(1);
  return transpose(v, perm);
}

Value TosaBuilder::toChannelsFirst(Value v) {
  int64_t rank = rankOf(v);
  Shape perm{0, rank - 1};
  for (int64_t d = 1; d < rank - 1; ++d)
    perm.push_back(d);
  return transpose(v, perm);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

RankedTensorType TosaBuilder::broadcastType(Value a, Value c,
                                            Type elementType) {
  std::optional<Shape> shape = broadcastShapes(shapeOf(a), shapeOf(c));
  assert(shape && "operands must be broadcast-compatible");
  return RankedTensorType::get(*shape, elementType);
}

Value TosaBuilder::foldIntegers(
    ValueRange operands, Type resultElementType,
    function_ref<std::optional<int64_t>(ArrayRef<int64_t>)> fn) {
  // Large constants are data, not shapes: leave them to run time.
  constexpr int64_t kMaxElements = 1 << 16;
  SmallVector<DenseElementsAttr> attrs;
  Shape shape;
  for (Value v : operands) {
    std::optional<DenseElementsAttr> attr = constantValue(v);
    if (!attr || !isa<IntegerType>(attr->getElementType()))
      return {};
    attrs.push_back(*attr);
    std::optional<Shape> next = broadcastShapes(shape, shapeOf(v));
    if (!next)
      return {};
    shape = *next;
  }
  if (product(shape) > kMaxElements)
    return {};
  FailureOr<DenseElementsAttr> folded =
      mapIntegers(attrs, RankedTensorType::get(shape, resultElementType), fn);
  return succeeded(folded) ? constant(*folded) : Value();
}

bool TosaBuilder::isNarrowInteger(Value v) {
  Type elt = elementTypeOf(v);
  return isa<IntegerType>(elt) && elt.getIntOrFloatBitWidth() < 32;
}

Value TosaBuilder::widenToI32(Value v) {
  return isNarrowInteger(v) ? cast(v, b.getI32Type()) : v;
}

Value TosaBuilder::add(Value a, Value c) {
  if (Value folded = foldBinary<tosa::AddOp>(a, c, elementTypeOf(a)))
    return folded;
  if (isNarrowInteger(a))
    return cast(add(widenToI32(a), widenToI32(c)), elementTypeOf(a));
  return binary<tosa::AddOp>(a, c);
}

Value TosaBuilder::sub(Value a, Value c) {
  if (Value folded = foldBinary<tosa::SubOp>(a, c, elementTypeOf(a)))
    return folded;
  if (isNarrowInteger(a))
    return cast(sub(widenToI32(a), widenToI32(c)), elementTypeOf(a));
  return binary<tosa::SubOp>(a, c);
}

Value TosaBuilder::maximum(Value a, Value c) {
  if (Value folded = foldBinary<tosa::MaximumOp>(a, c, elementTypeOf(a)))
    return folded;
  if (isNarrowInteger(a))
    return cast(maximum(widenToI32(a), widenToI32(c)), elementTypeOf(a));
  return binary<tosa::MaximumOp>(a, c);
}

Value TosaBuilder::minimum(Value a, Value c) {
  if (Value folded = foldBinary<tosa::MinimumOp>(a, c, elementTypeOf(a)))
    return folded;
  if (isNarrowInteger(a))
    return cast(minimum(widenToI32(a), widenToI32(c)), elementTypeOf(a));
  return binary<tosa::MinimumOp>(a, c);
}

Value TosaBuilder::pow(Value a, Value c) { return binary<tosa::PowOp>(a, c); }

Value TosaBuilder::mul(Value a, Value c) {
  if (Value folded =
          foldIntegers({a, c}, elementTypeOf(a), [](ArrayRef<int64_t> v) {
            return std::optional<int64_t>(v[0] * v[1]);
          }))
    return folded;
  if (isNarrowInteger(a))
    return cast(mul(widenToI32(a), widenToI32(c)), elementTypeOf(a));
  equalizeRanks(a, c);
  Value shift = splat({1}, b.getI8Type(), 0);
  return tosa::MulOp::create(b, loc, broadcastType(a, c, elementTypeOf(a)), a,
                             c, shift);
}

Value TosaBuilder::div(Value a, Value c) {
  // Integer division truncates toward zero, in C++ as in ONNX.
  if (Value folded = foldBinary<tosa::IntDivOp>(a, c, elementTypeOf(a)))
    return folded;
  if (isFloat(a))
    return mul(a, unary<tosa::ReciprocalOp>(c));
  if (isNarrowInteger(a))
    return cast(div(widenToI32(a), widenToI32(c)), elementTypeOf(a));
  return binary<tosa::IntDivOp>(a, c);
}

Value TosaBuilder::indicator(Value cond, Type elementType) {
  Shape ones(rankOf(cond), 1);
  return select(cond, splat(ones, elementType, 1), splat(ones, elementType, 0));
}

Value TosaBuilder::select(Value cond, Value onTrue, Value onFalse) {
  if (Value folded =
          foldIntegers({cond, onTrue, onFalse}, elementTypeOf(onTrue),
                       [](ArrayRef<int64_t> v) {
                         return std::optional<int64_t>(v[0] ? v[1] : v[2]);
                       }))
    return folded;
  equalizeRanks(cond, onTrue, onFalse);
  Shape shape = *broadcastShapes(shapeOf(cond), shapeOf(onTrue));
  shape = *broadcastShapes(shape, shapeOf(onFalse));
  return tosa::SelectOp::create(
      b, loc, RankedTensorType::get(shape, elementTypeOf(onTrue)), cond, onTrue,
      onFalse);
}

Value TosaBuilder::negate(Value v) {
  Value zp = zeroPoint(elementTypeOf(v));
  return tosa::NegateOp::create(b, loc, v.getType(), v, zp, zp);
}

Value TosaBuilder::abs(Value v) {
  if (isNarrowInteger(v))
    return cast(abs(widenToI32(v)), elementTypeOf(v));
  return unary<tosa::AbsOp>(v);
}

Value TosaBuilder::sqrt(Value v) {
  return unary<tosa::ReciprocalOp>(unary<tosa::RsqrtOp>(v));
}

Value TosaBuilder::clamp(Value v, double lo, double hi) {
  Type elt = elementTypeOf(v);
  Attribute loAttr, hiAttr;
  if (isa<FloatType>(elt)) {
    loAttr = b.getFloatAttr(elt, lo);
    hiAttr = b.getFloatAttr(elt, hi);
  } else {
    unsigned width = elt.getIntOrFloatBitWidth();
    double minV = -std::ldexp(1.0, width - 1);
    double maxV = std::ldexp(1.0, width - 1) - 1;
    if (width > 8) {
      // TOSA profiles define integer CLAMP for i8 only.
      if (lo > minV)
        v = maximum(v, scalarLike(v, lo));
      if (hi < maxV)
        v = minimum(v, scalarLike(v, hi));
      return v;
    }
    loAttr = b.getIntegerAttr(elt, static_cast<int64_t>(std::max(lo, minV)));
    hiAttr = b.getIntegerAttr(elt, static_cast<int64_t>(std::min(hi, maxV)));
  }
  return tosa::ClampOp::create(b, loc, v.getType(), v, loAttr, hiAttr);
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

Value TosaBuilder::matmul(Value a, Value c) {
  // Narrow floats accumulate in and return f32 (the only choice for bf16),
  // rounded once at the end; integers accumulate in i32 (i48 for i16).
  Type elt = elementTypeOf(a);
  Type outElt = b.getF32Type();
  if (!isa<FloatType>(elt))
    outElt = b.getIntegerType(elt.getIntOrFloatBitWidth() == 16 ? 48 : 32);
  auto type = RankedTensorType::get(
      {shapeOf(a)[0], shapeOf(a)[1], shapeOf(c)[2]}, outElt);
  Value product = tosa::MatMulOp::create(b, loc, type, a, c, zeroPoint(elt),
                                         zeroPoint(elementTypeOf(c)));
  return isa<FloatType>(elt) ? cast(product, elt) : product;
}

Value TosaBuilder::reduceSum(Value v, ArrayRef<int64_t> axes) {
  if (isNarrowInteger(v))
    return cast(reduceSum(widenToI32(v), axes), elementTypeOf(v));
  return reduce<tosa::ReduceSumOp>(v, axes);
}

Value TosaBuilder::reduceMax(Value v, ArrayRef<int64_t> axes) {
  return reduce<tosa::ReduceMaxOp>(v, axes);
}

Value TosaBuilder::shiftAlong(Value v, int64_t axis, int64_t s, double fill) {
  int64_t rank = rankOf(v);
  Shape pads(2 * rank, 0);
  pads[2 * axis] = s;
  return sliceAxis(pad(v, pads, fill), axis, 0, shapeOf(v)[axis]);
}

Value TosaBuilder::scan(Value v, int64_t axis, bool product) {
  int64_t n = shapeOf(v)[axis];
  for (int64_t s = 1; s < n; s *= 2) {
    Value back = shiftAlong(v, axis, s, product ? 1.0 : 0.0);
    v = product ? mul(v, back) : add(v, back);
  }
  return v;
}

Value TosaBuilder::reduceMean(Value v, ArrayRef<int64_t> axes) {
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= shapeOf(v)[axis];
  Value sum = reduceSum(v, axes);
  return mul(sum, scalarLike(sum, 1.0 / static_cast<double>(count)));
}

} // namespace onnx_tosa
