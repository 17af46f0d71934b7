//===- TosaBuilder.h - Compact creation of TOSA ops -------------*- C++ -*-===//
//
// TOSA 1.0 ops are verbose: zero-point operands, a shift operand on mul,
// shapes as !tosa.shape values, equal ranks for broadcasting, and an explicit
// static result type on every op. TosaBuilder hides all of that so that a
// legalization reads like the ONNX spec it implements.
//
// Every helper computes its static result type itself (all shapes are static
// by the time a node is legalized). Data-layout helpers (reshape, transpose,
// slice, pad, concat, tile) fold when their operand is a tosa.const, so weights
// are rearranged at compile time and nothing is emitted for them at run time.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_CONVERSION_TOSABUILDER_H
#define ONNX_TOSA_CONVERSION_TOSABUILDER_H

#include "conversion/onnx-to-tosa/ConstantData.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace onnx_tosa {

//===----------------------------------------------------------------------===//
// Shape arithmetic
//===----------------------------------------------------------------------===//

/// Product of the dimensions (1 for a scalar).
int64_t product(llvm::ArrayRef<int64_t> dims);

/// The numpy (multidirectional) broadcast of two shapes; nullopt when a pair
/// of dimensions is neither equal nor 1.
std::optional<Shape> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                     llvm::ArrayRef<int64_t> b);

/// Maps an ONNX axis in [-rank, rank) to [0, rank); nullopt when outside.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// `shape` with `count` ones prepended.
Shape prependOnes(llvm::ArrayRef<int64_t> shape, int64_t count);

//===----------------------------------------------------------------------===//
// TosaBuilder
//===----------------------------------------------------------------------===//

class TosaBuilder {
public:
  TosaBuilder(mlir::OpBuilder &builder, mlir::Location loc)
      : b(builder), loc(loc) {}

  mlir::OpBuilder &getBuilder() { return b; }
  mlir::Location getLoc() const { return loc; }

  // Types of values (all are ranked tensors here).
  static mlir::RankedTensorType typeOf(mlir::Value v);
  static llvm::ArrayRef<int64_t> shapeOf(mlir::Value v);
  static mlir::Type elementTypeOf(mlir::Value v);
  static int64_t rankOf(mlir::Value v);
  static bool isFloat(mlir::Value v);

  //--- Constants ------------------------------------------------------------

  /// tosa.const holding `values`.
  mlir::Value constant(mlir::ElementsAttr values);
  /// A tensor of `shape` filled with `value` (converted to `elementType`).
  mlir::Value splat(llvm::ArrayRef<int64_t> shape, mlir::Type elementType,
                    double value);
  /// `value` as a tensor of `like`'s element type and rank with all
  /// dimensions 1, ready to broadcast against `like`.
  mlir::Value scalarLike(mlir::Value like, double value);
  /// The zero point operand (tensor<1xT> 0) of matmul/conv/pool/negate.
  mlir::Value zeroPoint(mlir::Type elementType);
  /// A !tosa.shape value.
  mlir::Value constShape(llvm::ArrayRef<int64_t> values);
  /// The data of `v` when it is produced by a tosa.const.
  static std::optional<mlir::DenseElementsAttr> constantValue(mlir::Value v);

  //--- Data layout (fold on constants) ---------------------------------------

  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  /// Output dimension i is input dimension perm[i].
  mlir::Value transpose(mlir::Value v, llvm::ArrayRef<int64_t> perm);
  mlir::Value slice(mlir::Value v, llvm::ArrayRef<int64_t> start,
                    llvm::ArrayRef<int64_t> size);
  /// Elements [start, start + size) of one axis.
  mlir::Value sliceAxis(mlir::Value v, int64_t axis, int64_t start,
                        int64_t size);
  /// Elements start, start + step, ... (`count` of them) of one axis.
  mlir::Value sliceStrided(mlir::Value v, int64_t axis, int64_t start,
                           int64_t count, int64_t step);
  /// Pads every dimension i by lowHigh[2i] before and lowHigh[2i+1] after
  /// with `value`.
  mlir::Value pad(mlir::Value v, llvm::ArrayRef<int64_t> lowHigh, double value);
  mlir::Value concat(mlir::ValueRange values, int64_t axis);
  mlir::Value tile(mlir::Value v, llvm::ArrayRef<int64_t> multiples);
  /// Elements `indices` (compile-time, in range) of `axis`: a slice for a
  /// consecutive run, a tile for repeat-each patterns (nearest upsampling),
  /// slices and a concat for a few indices, else one tosa.gather.
  mlir::Value gatherAxis(mlir::Value v, int64_t axis,
                         llvm::ArrayRef<int64_t> indices);
  mlir::Value reverse(mlir::Value v, int64_t axis);
  /// Broadcasts `v` (numpy rules) to exactly `shape`.
  mlir::Value broadcastTo(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  /// Prepends size-1 dimensions up to `rank`.
  mlir::Value expandRank(mlir::Value v, int64_t rank);
  /// Prepends size-1 dimensions to the lower-rank operand(s) (TOSA
  /// broadcasts only between equal ranks).
  void equalizeRanks(mlir::Value &a, mlir::Value &b);
  void equalizeRanks(mlir::Value &a, mlir::Value &b, mlir::Value &c);
  /// tosa.cast to `elementType` (no-op when already that type).
  mlir::Value cast(mlir::Value v, mlir::Type elementType);

  /// [N, C, d1, ..., dk] -> [N, d1, ..., dk, C] (NCHW -> NHWC) and back.
  mlir::Value toChannelsLast(mlir::Value v);
  mlir::Value toChannelsFirst(mlir::Value v);

  //--- Elementwise (numpy broadcasting, ranks equalized here) ---------------

  /// A binary TOSA op whose result has `a`'s element type.
  template <typename OpTy> mlir::Value binary(mlir::Value a, mlir::Value c) {
    if (mlir::Value folded = foldBinary<OpTy>(a, c, elementTypeOf(a)))
      return folded;
    equalizeRanks(a, c);
    return OpTy::create(b, loc, broadcastType(a, c, elementTypeOf(a)), a, c);
  }
  /// A comparison: boolean result.
  template <typename OpTy> mlir::Value compare(mlir::Value a, mlir::Value c) {
    if (mlir::Value folded = foldBinary<OpTy>(a, c, b.getI1Type()))
      return folded;
    if (isNarrowInteger(a)) {
      a = widenToI32(a);
      c = widenToI32(c);
    }
    equalizeRanks(a, c);
    return OpTy::create(b, loc, broadcastType(a, c, b.getI1Type()), a, c);
  }
  /// A unary TOSA op whose result has the operand's type.
  template <typename OpTy> mlir::Value unary(mlir::Value v) {
    if constexpr (std::is_same_v<OpTy, mlir::tosa::LogicalNotOp> ||
                  std::is_same_v<OpTy, mlir::tosa::BitwiseNotOp>) {
      bool logical = std::is_same_v<OpTy, mlir::tosa::LogicalNotOp>;
      if (mlir::Value folded = foldIntegers(
              {v}, elementTypeOf(v), [logical](llvm::ArrayRef<int64_t> x) {
                return std::optional<int64_t>(logical ? !x[0] : ~x[0]);
              }))
        return folded;
    }
    return OpTy::create(b, loc, v.getType(), v);
  }

  /// The value of binary op `OpTy` on integer (or boolean) constants, or
  /// null: when an operand is not such a constant or `OpTy` has no integer
  /// meaning here.
  template <typename OpTy>
  mlir::Value foldBinary(mlir::Value a, mlir::Value c, mlir::Type resultType) {
    std::optional<int64_t> (*fn)(int64_t, int64_t) = nullptr;
    using namespace mlir::tosa;
    if constexpr (std::is_same_v<OpTy, AddOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x + y); };
    else if constexpr (std::is_same_v<OpTy, SubOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x - y); };
    else if constexpr (std::is_same_v<OpTy, MaximumOp>)
      fn = [](int64_t x, int64_t y) {
        return std::optional<int64_t>(std::max(x, y));
      };
    else if constexpr (std::is_same_v<OpTy, MinimumOp>)
      fn = [](int64_t x, int64_t y) {
        return std::optional<int64_t>(std::min(x, y));
      };
    else if constexpr (std::is_same_v<OpTy, IntDivOp>)
      fn = [](int64_t x, int64_t y) {
        return y ? std::optional<int64_t>(x / y) : std::nullopt;
      };
    else if constexpr (std::is_same_v<OpTy, EqualOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x == y); };
    else if constexpr (std::is_same_v<OpTy, GreaterOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x > y); };
    else if constexpr (std::is_same_v<OpTy, GreaterEqualOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x >= y); };
    else if constexpr (std::is_same_v<OpTy, LogicalAndOp> ||
                       std::is_same_v<OpTy, BitwiseAndOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x & y); };
    else if constexpr (std::is_same_v<OpTy, LogicalOrOp> ||
                       std::is_same_v<OpTy, BitwiseOrOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x | y); };
    else if constexpr (std::is_same_v<OpTy, LogicalXorOp> ||
                       std::is_same_v<OpTy, BitwiseXorOp>)
      fn = [](int64_t x, int64_t y) { return std::optional<int64_t>(x ^ y); };
    if (!fn)
      return {};
    return foldIntegers({a, c}, resultType, [fn](llvm::ArrayRef<int64_t> v) {
      return fn(v[0], v[1]);
    });
  }

  /// Evaluates an elementwise function of integer (or boolean) constants
  /// at compile time, with broadcasting; null when an operand is not such a
  /// constant (or `fn` fails). Shape arithmetic in int64 thus never reaches
  /// run time: the arithmetic, comparison, logical and select helpers all
  /// fold this way.
  mlir::Value foldIntegers(
      mlir::ValueRange operands, mlir::Type resultElementType,
      llvm::function_ref<std::optional<int64_t>(llvm::ArrayRef<int64_t>)> fn);

  /// TOSA's profiles define integer add, sub, mul, maximum, minimum, abs,
  /// comparisons and reduce_sum on i32 only: narrower integers (and booleans
  /// in comparisons) are computed in i32, and results cast back, which wraps
  /// as ONNX's integer arithmetic does.
  static bool isNarrowInteger(mlir::Value v);
  mlir::Value widenToI32(mlir::Value v);

  mlir::Value add(mlir::Value a, mlir::Value c);
  mlir::Value sub(mlir::Value a, mlir::Value c);
  /// tosa.mul with a zero shift.
  mlir::Value mul(mlir::Value a, mlir::Value c);
  /// a / c: float as a * reciprocal(c) (TOSA 1.0 has no float divide);
  /// integer as tosa.intdiv (truncates toward zero, as ONNX does), through
  /// i32 for narrower integers.
  mlir::Value div(mlir::Value a, mlir::Value c);
  mlir::Value maximum(mlir::Value a, mlir::Value c);
  mlir::Value minimum(mlir::Value a, mlir::Value c);
  mlir::Value pow(mlir::Value a, mlir::Value c);
  /// cond ? onTrue : onFalse with three-way broadcasting.
  mlir::Value select(mlir::Value cond, mlir::Value onTrue, mlir::Value onFalse);
  /// 1 where the i1 tensor `cond` holds, else 0, in `elementType` (TOSA's
  /// CAST takes bool only to integers).
  mlir::Value indicator(mlir::Value cond, mlir::Type elementType);
  mlir::Value negate(mlir::Value v);
  mlir::Value abs(mlir::Value v);
  /// sqrt(x) as reciprocal(rsqrt(x)): TOSA 1.0 has no sqrt; this form keeps
  /// sqrt(0) = 0 and sqrt(inf) = inf exactly, whereas POW's result is
  /// undefined for some inputs in the spec.
  mlir::Value sqrt(mlir::Value v);
  /// Clamps to [lo, hi] (converted to the element type; +-inf allowed for
  /// floats, saturated to the type's range for integers).
  mlir::Value clamp(mlir::Value v, double lo, double hi);

  //--- Linear algebra ---------------------------------------------------------

  /// tosa.matmul of [N, M, K] by [N, K, P] (float results in the operands'
  /// type, accumulated in f32).
  mlir::Value matmul(mlir::Value a, mlir::Value c);

  //--- Reductions (reduced dimensions kept as 1) -----------------------------

  template <typename OpTy>
  mlir::Value reduce(mlir::Value v, llvm::ArrayRef<int64_t> axes) {
    for (int64_t axis : axes) {
      Shape shape(shapeOf(v));
      shape[axis] = 1;
      v = OpTy::create(b, loc,
                       mlir::RankedTensorType::get(shape, elementTypeOf(v)), v,
                       static_cast<uint32_t>(axis));
    }
    return v;
  }
  mlir::Value reduceSum(mlir::Value v, llvm::ArrayRef<int64_t> axes);
  mlir::Value reduceMax(mlir::Value v, llvm::ArrayRef<int64_t> axes);
  /// Sum times 1/count.
  mlir::Value reduceMean(mlir::Value v, llvm::ArrayRef<int64_t> axes);
  /// Inclusive running sum (or product) along `axis`, by log2(n) steps that
  /// each combine the running results with those `shift` positions back.
  mlir::Value scan(mlir::Value v, int64_t axis, bool product = false);
  /// `v` shifted by `s` positions along `axis`, `fill` shifted in.
  mlir::Value shiftAlong(mlir::Value v, int64_t axis, int64_t s, double fill);

private:
  mlir::RankedTensorType broadcastType(mlir::Value a, mlir::Value c,
                                       mlir::Type elementType);

  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace onnx_tosa

#endif // ONNX_TOSA_CONVERSION_TOSABUILDER_H
