//===- ConstantData.cpp - Computing with constant tensors -----------------===//
#include "conversion/onnx-to-tosa/ConstantData.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace mlir;

namespace onnx_tosa {

SmallVector<double> toDoubles(DenseElementsAttr attr) {
  SmallVector<double> out;
  out.reserve(attr.getNumElements());
  Type elt = attr.getElementType();
  if (isa<FloatType>(elt)) {
    for (APFloat f : attr.getValues<APFloat>()) {
      bool losesInfo;
      f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      out.push_back(f.convertToDouble());
    }
    return out;
  }
  for (int64_t v : toInts(attr))
    out.push_back(static_cast<double>(v));
  return out;
}

SmallVector<int64_t> toInts(DenseElementsAttr attr) {
  SmallVector<int64_t> out;
  out.reserve(attr.getNumElements());
  auto intType = cast<IntegerType>(attr.getElementType());
  bool zext = intType.isUnsigned() || intType.getWidth() == 1;
  for (const APInt &v : attr.getValues<APInt>())
    out.push_back(zext ? static_cast<int64_t>(v.getZExtValue())
                       : v.getSExtValue());
  return out;
}

Attribute elementAttr(Type elt, double value) {
  if (auto ft = dyn_cast<FloatType>(elt)) {
    APFloat f(value);
    bool losesInfo;
    f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
    return FloatAttr::get(elt, f);
  }
  auto it = cast<IntegerType>(elt);
  if (it.getWidth() == 1)
    return BoolAttr::get(elt.getContext(), value != 0);
  return IntegerAttr::get(
      elt,
      APInt(it.getWidth(), static_cast<uint64_t>(static_cast<int64_t>(value)),
            /*isSigned=*/true, /*implicitTrunc=*/true));
}

DenseElementsAttr fromDoubles(RankedTensorType type, ArrayRef<double> values) {
  Type elt = type.getElementType();
  if (!isa<FloatType>(elt)) {
    SmallVector<int64_t> ints;
    for (double v : values)
      ints.push_back(static_cast<int64_t>(v));
    return fromInts(type, ints);
  }
  auto sem = &cast<FloatType>(elt).getFloatSemantics();
  SmallVector<APFloat> floats;
  floats.reserve(values.size());
  for (double v : values) {
    APFloat f(v);
    bool losesInfo;
    f.convert(*sem, APFloat::rmNearestTiesToEven, &losesInfo);
    floats.push_back(f);
  }
  return DenseElementsAttr::get(type, floats);
}

DenseElementsAttr fromInts(RankedTensorType type, ArrayRef<int64_t> values) {
  Type elt = type.getElementType();
  if (isa<FloatType>(elt)) {
    SmallVector<double> ds(values.begin(), values.end());
    return fromDoubles(type, ds);
  }
  unsigned width = cast<IntegerType>(elt).getWidth();
  if (width == 1) {
    SmallVector<bool> bools;
    for (int64_t v : values)
      bools.push_back(v != 0);
    return DenseElementsAttr::get(type, bools);
  }
  SmallVector<APInt> ints;
  ints.reserve(values.size());
  for (int64_t v : values)
    ints.push_back(APInt(width, static_cast<uint64_t>(v), /*isSigned=*/true,
                         /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, ints);
}

namespace {
/// Element-wise access to constant data as bytes (booleans unpacked to one
/// byte each), so that rearrangements work for every element type.
struct RawElements {
  explicit RawElements(DenseElementsAttr attr) : splat(attr.isSplat()) {
    if (attr.getElementType().isInteger(1)) {
      isBool = true;
      eltBytes = 1;
      for (bool v : attr.getValues<bool>()) {
        bytes.push_back(v);
        if (splat)
          break;
      }
    } else {
      eltBytes = (attr.getElementType().getIntOrFloatBitWidth() + 7) / 8;
      ArrayRef<char> raw = attr.getRawData();
      bytes.assign(raw.begin(), raw.end());
    }
  }
  const char *element(int64_t linear) const {
    return bytes.data() + (splat ? 0 : linear) * eltBytes;
  }
  SmallVector<char> bytes;
  size_t eltBytes = 0;
  bool isBool = false;
  bool splat;
};
} // namespace

/// Builds constant data of `outType` where output element at multi-index
/// `idx` is element `src(idx).second` of source `src(idx).first`.
static DenseElementsAttr remapElements(
    ArrayRef<DenseElementsAttr> sources, RankedTensorType outType,
    function_ref<std::pair<unsigned, int64_t>(ArrayRef<int64_t>)> src) {
  SmallVector<RawElements> raws;
  for (DenseElementsAttr s : sources)
    raws.emplace_back(s);
  size_t eltBytes = raws.front().eltBytes;
  int64_t count = outType.getNumElements();
  ArrayRef<int64_t> shape = outType.getShape();
  SmallVector<char> out(count * eltBytes);
  Shape idx(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    auto [which, from] = src(idx);
    std::memcpy(out.data() + linear * eltBytes, raws[which].element(from),
                eltBytes);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  if (raws.front().isBool) {
    SmallVector<bool> bools(out.begin(), out.end());
    return DenseElementsAttr::get(outType, bools);
  }
  return DenseElementsAttr::getFromRawBuffer(outType, out);
}

/// Row-major strides of `shape`.
static Shape stridesOf(ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

DenseElementsAttr transposeAttr(DenseElementsAttr attr,
                                ArrayRef<int64_t> perm) {
  auto inType = cast<RankedTensorType>(attr.getType());
  Shape outShape;
  for (int64_t p : perm)
    outShape.push_back(inType.getDimSize(p));
  auto outType = RankedTensorType::get(outShape, inType.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(outType);
  Shape inStrides = stridesOf(inType.getShape());
  return remapElements({attr}, outType, [&](ArrayRef<int64_t> idx) {
    int64_t from = 0;
    for (size_t i = 0; i < perm.size(); ++i)
      from += idx[i] * inStrides[perm[i]];
    return std::make_pair(0u, from);
  });
}

DenseElementsAttr sliceAttr(DenseElementsAttr attr, ArrayRef<int64_t> start,
                            ArrayRef<int64_t> size) {
  auto inType = cast<RankedTensorType>(attr.getType());
  auto outType = RankedTensorType::get(size, inType.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(outType);
  Shape strides = stridesOf(inType.getShape());
  return remapElements({attr}, outType, [&](ArrayRef<int64_t> idx) {
    int64_t from = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      from += (idx[i] + start[i]) * strides[i];
    return std::make_pair(0u, from);
  });
}

DenseElementsAttr concatAttr(ArrayRef<DenseElementsAttr> attrs, int64_t axis) {
  auto first = cast<RankedTensorType>(attrs.front().getType());
  Shape shape(first.getShape());
  shape[axis] = 0;
  for (DenseElementsAttr a : attrs)
    shape[axis] += cast<RankedTensorType>(a.getType()).getDimSize(axis);
  auto outType = RankedTensorType::get(shape, first.getElementType());
  // Find the source along `axis`, keep the other coordinates.
  return remapElements(attrs, outType, [&](ArrayRef<int64_t> idx) {
    int64_t along = idx[axis];
    unsigned which = 0;
    auto typeOf = [&](unsigned i) {
      return cast<RankedTensorType>(attrs[i].getType());
    };
    while (along >= typeOf(which).getDimSize(axis))
      along -= typeOf(which++).getDimSize(axis);
    Shape strides = stridesOf(typeOf(which).getShape());
    int64_t from = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      from += (static_cast<int64_t>(i) == axis ? along : idx[i]) * strides[i];
    return std::make_pair(which, from);
  });
}

DenseElementsAttr tileAttr(DenseElementsAttr attr,
                           ArrayRef<int64_t> multiples) {
  auto inType = cast<RankedTensorType>(attr.getType());
  ArrayRef<int64_t> inShape = inType.getShape();
  Shape shape(inShape);
  for (size_t i = 0; i < shape.size(); ++i)
    shape[i] *= multiples[i];
  auto outType = RankedTensorType::get(shape, inType.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(outType);
  Shape strides = stridesOf(inShape);
  return remapElements({attr}, outType, [&](ArrayRef<int64_t> idx) {
    int64_t from = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      from += (idx[i] % inShape[i]) * strides[i];
    return std::make_pair(0u, from);
  });
}

Shape broadcastStrides(ArrayRef<int64_t> shape, int64_t rank) {
  Shape strides(rank, 0);
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    strides[rank - shape.size() + d] = shape[d] == 1 ? 0 : stride;
    stride *= shape[d];
  }
  return strides;
}

FailureOr<DenseElementsAttr>
mapIntegers(ArrayRef<DenseElementsAttr> operands, RankedTensorType outType,
            function_ref<std::optional<int64_t>(ArrayRef<int64_t>)> fn) {
  ArrayRef<int64_t> outShape = outType.getShape();
  int64_t rank = outShape.size();
  SmallVector<SmallVector<int64_t>> values;
  SmallVector<Shape> strides; // 0 along broadcast dimensions
  for (DenseElementsAttr op : operands) {
    values.push_back(toInts(op));
    strides.push_back(broadcastStrides(
        cast<RankedTensorType>(op.getType()).getShape(), rank));
  }
  int64_t count = outType.getNumElements();
  SmallVector<int64_t> out;
  out.reserve(count);
  Shape idx(rank, 0);
  SmallVector<int64_t> args(operands.size());
  for (int64_t linear = 0; linear < count; ++linear) {
    for (size_t k = 0; k < operands.size(); ++k) {
      int64_t from = 0;
      for (int64_t d = 0; d < rank; ++d)
        from += idx[d] * strides[k][d];
      // A splat attribute holds a single value.
      args[k] = values[k][values[k].size() == 1 ? 0 : from];
    }
    std::optional<int64_t> v = fn(args);
    if (!v)
      return failure();
    out.push_back(*v);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < outShape[d])
        break;
      idx[d] = 0;
    }
  }
  return fromInts(outType, out);
}

} // namespace onnx_tosa
