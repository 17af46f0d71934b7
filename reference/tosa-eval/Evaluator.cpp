//===- Evaluator.cpp - Reference evaluation of TOSA functions -------------===//
//
// Walks a function's ops in order, keeps each value as a host tensor and
// dispatches every op to the handler its family registered. Constants,
// control flow (COND_IF, WHILE_LOOP) and variables live here; the arithmetic
// lives in the family files.
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/Evaluator.h"
#include "reference/tosa-eval/OpEval.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;

namespace onnx_tosa::ref {

void registerEvaluatorDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, tosa::TosaDialect, arith::ArithDialect,
                  tensor::TensorDialect>();
}

std::optional<DType> Evaluator::dtypeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (auto it = dyn_cast<IntegerType>(type)) {
    if (it.isUnsigned())
      return std::nullopt; // TOSA 1.0 is signless; unsigned is an attribute
    switch (it.getWidth()) {
    case 1:
      return DType::Bool;
    case 4:
      return DType::I4;
    case 8:
      return DType::I8;
    case 16:
      return DType::I16;
    case 32:
      return DType::I32;
    case 48:
      return DType::I48;
    case 64:
      return DType::I64;
    }
    return std::nullopt;
  }
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (isa<Float8E4M3FNType>(type))
    return DType::F8E4M3;
  if (isa<Float8E5M2Type>(type))
    return DType::F8E5M2;
  if (isa<IndexType>(type))
    return DType::I64;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// OpEval
//===----------------------------------------------------------------------===//

DType OpEval::resultType(unsigned i) const {
  return *Evaluator::dtypeOf(op->getResult(i).getType());
}

Shape OpEval::resultShape(unsigned i) const {
  auto t = cast<ShapedType>(op->getResult(i).getType());
  return Shape(t.getShape().begin(), t.getShape().end());
}

Tensor &OpEval::result(unsigned i) {
  if (results.size() <= i)
    results.resize(i + 1);
  results[i] = Tensor(resultType(i), resultShape(i));
  return results[i];
}

SmallVector<int64_t> OpEval::shapeOperand(unsigned i) const {
  const Tensor &t = in(i);
  return SmallVector<int64_t>(t.ints.begin(), t.ints.end());
}

LogicalResult OpEval::fail(const Twine &msg) {
  if (error.empty())
    error = opLabel() + ": " + msg.str();
  return failure();
}

std::string OpEval::opLabel() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "'";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << loc.getFilename() << ":" << loc.getLine() << ":"
       << loc.getColumn();
  else if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    os << " ('" << name.getName() << "')";
  return s;
}

bool propagatesNan(Operation *op) {
  if (auto attr = op->getAttrOfType<tosa::NanPropagationModeAttr>("nan_mode"))
    return attr.getValue() == tosa::NanPropagationMode::PROPAGATE;
  return true;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

namespace {

LogicalResult tensorFromAttr(Attribute attr, ShapedType type, Tensor &out,
                             std::string &error) {
  std::optional<DType> dt = Evaluator::dtypeOf(type);
  if (!dt) {
    error = "unsupported element type";
    return failure();
  }
  out = Tensor(*dt, type.getShape());
  int64_t n = out.size();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (out.isFloat()) {
      int64_t i = 0;
      for (APFloat v : dense.getValues<APFloat>()) {
        bool lost;
        v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
        out.floats[i++] = v.convertToDouble();
      }
    } else {
      int64_t i = 0;
      for (APInt v : dense.getValues<APInt>())
        out.ints[i++] =
            v.getBitWidth() == 1 ? v.getZExtValue() : v.getSExtValue();
    }
    return success();
  }
  if (auto res = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob) {
      error = "dense_resource without data";
      return failure();
    }
    ArrayRef<char> data = blob->getData();
    unsigned bits = bitWidth(*dt);
    unsigned bytes = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
    if (static_cast<int64_t>(data.size()) < n * bytes) {
      error = "dense_resource shorter than its type";
      return failure();
    }
    for (int64_t i = 0; i < n; ++i) {
      uint64_t raw = 0;
      std::memcpy(&raw, data.data() + i * bytes, bytes);
      if (out.isFloat()) {
        if (*dt == DType::F32) {
          float f;
          std::memcpy(&f, &raw, 4);
          out.floats[i] = f;
        } else if (*dt == DType::F64) {
          double d;
          std::memcpy(&d, &raw, 8);
          out.floats[i] = d;
        } else if (*dt == DType::F16) {
          out.floats[i] = halfBitsToDouble(static_cast<uint16_t>(raw));
        } else if (*dt == DType::BF16) {
          uint32_t w = static_cast<uint32_t>(raw) << 16;
          float f;
          std::memcpy(&f, &w, 4);
          out.floats[i] = f;
        } else {
          error = "dense_resource of this float type is not supported";
          return failure();
        }
      } else {
        out.ints[i] = wrapSigned(static_cast<int64_t>(raw), bits);
      }
    }
    return success();
  }
  error = "unsupported constant attribute";
  return failure();
}

/// One lexical scope of values: a function body or a nested region, which
/// may read the values of the scopes around it.
struct Scope {
  llvm::DenseMap<Value, Tensor> values;
  Scope *parent = nullptr;

  const Tensor *lookup(Value v) const {
    for (const Scope *s = this; s; s = s->parent) {
      auto it = s->values.find(v);
      if (it != s->values.end())
        return &it->second;
    }
    return nullptr;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Evaluator
//===----------------------------------------------------------------------===//

class Evaluator::Impl {
public:
  Impl(ModuleOp module, EvalOptions options)
      : module(module), options(options) {
    registerElementwiseOps(handlers);
    registerTypeConversionOps(handlers);
    registerReductionOps(handlers);
    registerTensorOps(handlers);
    registerDataLayoutOps(handlers);
    registerImageOps(handlers);
  }

  LogicalResult run(func::FuncOp func, ArrayRef<Tensor> args,
                    EvalResult &result, std::string &err);

private:
  LogicalResult runBlock(Block &block, Scope &scope,
                         SmallVectorImpl<Tensor> &yielded,
                         SmallVectorImpl<Value> *yieldedValues = nullptr);
  LogicalResult runRegion(Region &region, ArrayRef<Tensor> args, Scope &outer,
                          SmallVectorImpl<Tensor> &yielded);
  LogicalResult evalOp(Operation *op, Scope &scope);
  LogicalResult evalControlFlow(Operation *op, Scope &scope);
  LogicalResult evalVariableOp(Operation *op, Scope *scope);
  LogicalResult fail(Operation *op, const Twine &msg);
  /// Rounds floating-point results to their element type (see EvalOptions).
  Tensor roundedForConsumers(const Tensor &t) const;
  void collectCompliance(func::FuncOp func, Scope &scope,
                         ArrayRef<Value> returned, EvalResult &result);

  ModuleOp module;
  EvalOptions options;
  HandlerTable handlers;
  llvm::StringMap<Tensor> variables;
  std::string error;
  std::string unpredictable;
  /// Exact (unrounded) values of what the function returns.
  llvm::DenseMap<Value, Tensor> exact;
};

LogicalResult Evaluator::Impl::fail(Operation *op, const Twine &msg) {
  if (error.empty()) {
    OpEval e(op, {}, error, unpredictable);
    (void)e.fail(msg);
  }
  return failure();
}

Tensor Evaluator::Impl::roundedForConsumers(const Tensor &t) const {
  Tensor r = t;
  if (options.roundIntermediates && r.isFloat() && r.type != DType::F64)
    for (double &v : r.floats)
      v = roundToFloat(v, r.type);
  return r;
}

LogicalResult Evaluator::Impl::run(func::FuncOp func, ArrayRef<Tensor> args,
                                   EvalResult &result, std::string &err) {
  error.clear();
  unpredictable.clear();
  exact.clear();
  variables.clear();
  // Variables start at their initial values (VARIABLE, section "Variable
  // Operators"); a module declares them with tosa.variable.
  module.walk([&](tosa::VariableOp var) {
    if (error.empty())
      (void)evalVariableOp(var, nullptr);
  });
  if (!error.empty()) {
    err = error;
    return failure();
  }

  Block &body = func.getBody().front();
  if (args.size() != body.getNumArguments()) {
    err = "@" + func.getSymName().str() + " takes " +
          std::to_string(body.getNumArguments()) + " arguments, got " +
          std::to_string(args.size());
    return failure();
  }
  Scope scope;
  for (auto [arg, t] : llvm::zip(body.getArguments(), args))
    scope.values[arg] = t;
  SmallVector<Tensor> outputs;
  SmallVector<Value> returned;
  if (failed(runBlock(body, scope, outputs, &returned))) {
    err = error;
    return failure();
  }
  // Function results are the exact fp64 values of the ops that made them.
  for (auto [i, v] : llvm::enumerate(returned)) {
    auto it = exact.find(v);
    if (it != exact.end())
      outputs[i] = it->second;
  }
  result.outputs.assign(outputs.begin(), outputs.end());
  if (options.collectCompliance)
    collectCompliance(func, scope, returned, result);
  result.unpredictable = unpredictable;
  if (!error.empty()) {
    err = error;
    return failure();
  }
  return success();
}

LogicalResult Evaluator::Impl::runBlock(Block &block, Scope &scope,
                                        SmallVectorImpl<Tensor> &yielded,
                                        SmallVectorImpl<Value> *yieldedValues) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value v : op.getOperands()) {
        const Tensor *t = scope.lookup(v);
        if (!t)
          return fail(&op, "operand not evaluated");
        yielded.push_back(*t);
        if (yieldedValues)
          yieldedValues->push_back(v);
      }
      return success();
    }
    if (failed(evalOp(&op, scope)))
      return failure();
  }
  return fail(block.getParentOp(), "block without terminator");
}

LogicalResult Evaluator::Impl::runRegion(Region &region, ArrayRef<Tensor> args,
                                         Scope &outer,
                                         SmallVectorImpl<Tensor> &yielded) {
  if (!region.hasOneBlock())
    return fail(region.getParentOp(), "regions must have one block");
  Block &block = region.front();
  Scope scope;
  scope.parent = &outer;
  if (block.getNumArguments() != 0) {
    if (block.getNumArguments() != args.size())
      return fail(region.getParentOp(), "region arguments do not match");
    for (auto [arg, t] : llvm::zip(block.getArguments(), args))
      scope.values[arg] = t;
  }
  return runBlock(block, scope, yielded);
}

LogicalResult Evaluator::Impl::evalVariableOp(Operation *op, Scope *scope) {
  if (auto var = dyn_cast<tosa::VariableOp>(op)) {
    // VARIABLE: the initial value, or zeros where there is none.
    SmallVector<int64_t> shape;
    for (auto v : var.getVarShape().getValues<APInt>())
      shape.push_back(v.getSExtValue());
    auto type = RankedTensorType::get(shape, var.getType());
    Tensor t;
    if (Attribute init = var.getInitialValueAttr()) {
      std::string msg;
      if (failed(tensorFromAttr(init, type, t, msg)))
        return fail(op, msg);
    } else {
      std::optional<DType> dt = Evaluator::dtypeOf(type);
      if (!dt)
        return fail(op, "unsupported variable type");
      t = Tensor(*dt, shape);
    }
    variables[var.getSymName()] = t;
    return success();
  }
  if (auto read = dyn_cast<tosa::VariableReadOp>(op)) {
    auto it = variables.find(read.getName());
    if (it == variables.end())
      return fail(op, "ERROR_IF: variable '" + read.getName() +
                          "' is not declared");
    scope->values[read.getResult()] = it->second;
    return success();
  }
  auto write = cast<tosa::VariableWriteOp>(op);
  auto it = variables.find(write.getName());
  if (it == variables.end())
    return fail(op,
                "ERROR_IF: variable '" + write.getName() + "' is not declared");
  const Tensor *t = scope->lookup(write.getInput1());
  if (t->shape != it->second.shape || t->type != it->second.type)
    return fail(op, "ERROR_IF: the written value's type differs from the "
                    "variable's");
  it->second = *t;
  return success();
}

LogicalResult Evaluator::Impl::evalControlFlow(Operation *op, Scope &scope) {
  auto values = [&](ValueRange range, SmallVectorImpl<Tensor> &out) {
    for (Value v : range)
      out.push_back(*scope.lookup(v));
  };
  auto bind = [&](ArrayRef<Tensor> results) -> LogicalResult {
    if (results.size() != op->getNumResults())
      return fail(op, "the region yields " + Twine(results.size()) +
                          " values for " + Twine(op->getNumResults()) +
                          " results");
    for (auto [r, t] : llvm::zip(op->getResults(), results))
      scope.values[r] = t;
    return success();
  };
  if (auto ifOp = dyn_cast<tosa::IfOp>(op)) {
    // COND_IF: run the branch the condition picks.
    const Tensor *cond = scope.lookup(ifOp.getCondition());
    SmallVector<Tensor> inputs, yielded;
    values(ifOp.getInputList(), inputs);
    Region &branch =
        cond->ints.at(0) ? ifOp.getThenGraph() : ifOp.getElseGraph();
    if (failed(runRegion(branch, inputs, scope, yielded)))
      return failure();
    return bind(yielded);
  }
  auto whileOp = cast<tosa::WhileOp>(op);
  // WHILE_LOOP: run the body while the condition graph yields true.
  SmallVector<Tensor> state;
  values(whileOp.getInputList(), state);
  for (int64_t iteration = 0;; ++iteration) {
    if (iteration > (int64_t(1) << 24))
      return fail(op, "more than 2^24 iterations; giving up");
    SmallVector<Tensor> cond;
    if (failed(runRegion(whileOp.getCondGraph(), state, scope, cond)))
      return failure();
    if (cond.size() != 1 || cond[0].type != DType::Bool)
      return fail(op, "the condition graph must yield one bool");
    if (!cond[0].ints.at(0))
      break;
    SmallVector<Tensor> next;
    if (failed(runRegion(whileOp.getBodyGraph(), state, scope, next)))
      return failure();
    state = std::move(next);
  }
  return bind(state);
}

LogicalResult Evaluator::Impl::evalOp(Operation *op, Scope &scope) {
  // Constants: CONST and CONST_SHAPE, and the arith.constant glue.
  if (isa<tosa::ConstOp, arith::ConstantOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return fail(op, "constants must be statically shaped tensors");
    Tensor t;
    std::string msg;
    Attribute attr =
        isa<tosa::ConstOp>(op) ? op->getAttr("values") : op->getAttr("value");
    if (failed(tensorFromAttr(attr, type, t, msg)))
      return fail(op, msg);
    scope.values[op->getResult(0)] = std::move(t);
    return success();
  }
  if (auto cs = dyn_cast<tosa::ConstShapeOp>(op)) {
    SmallVector<int64_t> v;
    for (APInt x : cs.getValues().getValues<APInt>())
      v.push_back(x.getSExtValue());
    Tensor t(DType::I64, {static_cast<int64_t>(v.size())});
    t.ints.assign(v.begin(), v.end());
    scope.values[cs.getResult()] = std::move(t);
    return success();
  }
  if (isa<tosa::IfOp, tosa::WhileOp>(op))
    return evalControlFlow(op, scope);
  if (isa<tosa::VariableOp, tosa::VariableReadOp, tosa::VariableWriteOp>(op))
    return evalVariableOp(op, &scope);

  auto it = handlers.find(op->getName().getStringRef());
  if (it == handlers.end())
    return fail(op, "unsupported op (the reference evaluator has no "
                    "implementation of it)");
  for (Type t : op->getResultTypes()) {
    auto shaped = dyn_cast<RankedTensorType>(t);
    if (!shaped || !shaped.hasStaticShape() || !Evaluator::dtypeOf(t))
      return fail(op, "results must be statically shaped tensors of a "
                      "TOSA element type");
  }
  SmallVector<const Tensor *> operands;
  for (Value v : op->getOperands()) {
    const Tensor *t = scope.lookup(v);
    if (!t)
      return fail(op, "an operand has no value");
    operands.push_back(t);
  }
  OpEval e(op, std::move(operands), error, unpredictable);
  if (failed(it->second(e)))
    return failure();
  if (e.results.size() != op->getNumResults())
    return fail(op, "internal: the handler made no result");
  for (auto [r, t] : llvm::zip(op->getResults(), e.results)) {
    bool returned = llvm::any_of(r.getUsers(), [](Operation *user) {
      return isa<func::ReturnOp>(user);
    });
    if (returned)
      exact[r] = t;
    scope.values[r] = roundedForConsumers(t);
  }
  return success();
}

void Evaluator::Impl::collectCompliance(func::FuncOp func, Scope &scope,
                                        ArrayRef<Value> returned,
                                        EvalResult &result) {
  for (Value v : returned) {
    ComplianceInfo info;
    Operation *op = v.getDefiningOp();
    if (!op || isa<tosa::ConstOp, tosa::ConstShapeOp>(op)) {
      result.compliance.push_back(std::move(info));
      continue;
    }
    info.opName = op->getName().getStringRef().str();
    for (NamedAttribute a : op->getAttrs()) {
      std::string s;
      llvm::raw_string_ostream os(s);
      a.getValue().print(os);
      info.attrs[a.getName().str()] = s;
    }
    SmallVector<const Tensor *> operands;
    for (Value o : op->getOperands()) {
      const Tensor *t = scope.lookup(o);
      info.operands.push_back(t ? *t : Tensor());
      operands.push_back(t);
    }
    info.kernelSize = dotProductKernelSize(op, operands);
    if (info.kernelSize > 0) {
      // Dot product accuracy requirements: output_bnd is the op on absolute
      // values, with tosa_extra_multiplies; where local_bound is false (the
      // default of ops that have it) every input is the input's maximum.
      SmallVector<Tensor> absOperands;
      for (const Tensor *t : operands) {
        Tensor a = *t;
        for (double &x : a.floats)
          x = std::fabs(x);
        absOperands.push_back(std::move(a));
      }
      auto localBound = op->getAttrOfType<BoolAttr>("local_bound");
      bool hasAttr =
          op->getAttr("local_bound") ||
          isa<tosa::FFT2dOp, tosa::RFFT2dOp, tosa::Conv2DOp, tosa::Conv3DOp,
              tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(op);
      if (hasAttr && !(localBound && localBound.getValue())) {
        unsigned numInputs = isa<tosa::FFT2dOp>(op) ? 2 : 1;
        double maxAbs = 0;
        for (unsigned i = 0; i < numInputs; ++i)
          for (double x : absOperands[i].floats)
            maxAbs = std::isnan(x) || std::isnan(maxAbs) ? std::nan("")
                                                         : std::max(maxAbs, x);
        for (unsigned i = 0; i < numInputs; ++i)
          for (double &x : absOperands[i].floats)
            x = maxAbs;
      }
      if (isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
              tosa::TransposeConv2DOp>(op))
        for (double b : absOperands[2].floats)
          info.biasNonZero |= b > 0;
      SmallVector<const Tensor *> ptrs;
      for (Tensor &t : absOperands)
        ptrs.push_back(&t);
      std::string boundError, boundUnpredictable;
      OpEval e(op, ptrs, boundError, boundUnpredictable);
      e.extraMultiplies = true;
      auto it = handlers.find(op->getName().getStringRef());
      unsigned index = cast<OpResult>(v).getResultNumber();
      if (it != handlers.end() && succeeded(it->second(e)))
        info.bound = e.results[index];
    }
    result.compliance.push_back(std::move(info));
  }
}

Evaluator::Evaluator(ModuleOp module, EvalOptions options)
    : impl(std::make_unique<Impl>(module, options)) {}
Evaluator::~Evaluator() = default;

LogicalResult Evaluator::run(func::FuncOp func, ArrayRef<Tensor> args,
                             EvalResult &result, std::string &error) {
  return impl->run(func, args, result, error);
}

} // namespace onnx_tosa::ref
