//===- SpirvTarget.cpp - gpu kernels to Vulkan SPIR-V ---------------------===//
#include "spirv/SpirvTarget.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/TypeUtilities.h"
#include "pipelines/tosa-to-gpu/TosaToGpu.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;

namespace onnx_tosa {
namespace {

// What kernels may use. spirv-update-vce then trims each module's
// requirements to what it actually uses, so a device lacking, say, Float64
// still loads every module that does not touch f64. SPIR-V 1.3 is what
// Vulkan 1.1 consumes.
constexpr const char *kVulkanTargetEnv =
    "#spirv.target_env<#spirv.vce<v1.3, "
    "[Shader, Int64, Int16, Int8, Float64, Float16, "
    "StorageBuffer16BitAccess, StorageBuffer8BitAccess, GroupNonUniform, "
    "GroupNonUniformArithmetic], "
    "[SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, "
    "SPV_KHR_16bit_storage]>, api=Vulkan, "
    "#spirv.resource_limits<max_compute_workgroup_invocations = 1024, "
    "max_compute_workgroup_size = [1024, 1024, 64]>>";

struct PrepareSpirvPass
    : PassWrapper<PrepareSpirvPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrepareSpirvPass)
  StringRef getArgument() const override { return "onnx-tosa-prepare-spirv"; }
  StringRef getDescription() const override {
    return "Attach the Vulkan target environment and kernel workgroup sizes";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<spirv::SPIRVDialect>();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Attribute env = parseAttribute(kVulkanTargetEnv, ctx);
    if (!env) {
      module.emitError("internal error: bad SPIR-V target environment");
      return signalPassFailure();
    }
    module->setAttr(spirv::getTargetEnvAttrName(), env);
    scalarizeVectorAccesses(module);
    keepNaNsInSubgroupMinMax(module);
    guardLoopsThatMayNotRun(module);
    // convert-gpu-to-spirv converts only reductions not marked uniform (a
    // hint that every lane takes part, which the group operations do not
    // need).
    module.walk([](gpu::SubgroupReduceOp op) { op.setUniform(false); });

    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      SmallVector<int32_t, 3> size = {1, 1, 1};
      if (auto known = func.getKnownBlockSizeAttr())
        size.assign(known.asArrayRef().begin(), known.asArrayRef().end());
      func->setAttr(spirv::getEntryPointABIAttrName(),
                    spirv::getEntryPointABIAttr(ctx, size));
      // Workgroup buffers (the row kernels' partial results) become
      // allocations in memory space 3, which the SPIR-V conversion turns
      // into Workgroup variables; it does not take workgroup attributions.
      ArrayRef<BlockArgument> attributions = func.getWorkgroupAttributions();
      if (attributions.empty())
        return;
      OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
      SmallVector<unsigned> erased;
      for (BlockArgument arg : attributions) {
        auto type = cast<MemRefType>(arg.getType());
        auto local = MemRefType::get(
            type.getShape(), type.getElementType(), type.getLayout(),
            IntegerAttr::get(IntegerType::get(ctx, 64), 3));
        Value alloc = memref::AllocOp::create(b, arg.getLoc(), local);
        arg.replaceAllUsesWith(alloc);
        erased.push_back(arg.getArgNumber());
      }
      for (unsigned i : llvm::reverse(erased))
        func.getBody().front().eraseArgument(i);
      func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                    b.getI64IntegerAttr(0));
    });
  }

  /// LLVM 22's scf.for to SPIR-V conversion keeps loop-carried values in
  /// function variables that only the loop body stores to: a loop that runs
  /// no iteration returns undefined values instead of its initial ones
  /// (llvm-project issue 211981; fixed after 22.1). Such a loop, unless its
  /// trip count is a known non-zero constant, runs under an scf.if that
  /// otherwise yields the initial values. (The row kernels' loop over the
  /// subgroups' partial results runs no iteration where one subgroup holds
  /// the whole workgroup, as on NVIDIA GPUs.)
  static void guardLoopsThatMayNotRun(ModuleOp module) {
    SmallVector<scf::ForOp> loops;
    module.walk([&](scf::ForOp loop) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (loop.getNumResults() > 0 && !(trips && !trips->isZero()))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      ImplicitLocOpBuilder b(loop.getLoc(), loop);
      Value runs = arith::CmpIOp::create(
          b, loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                   : arith::CmpIPredicate::slt,
          loop.getLowerBound(), loop.getUpperBound());
      auto guard = scf::IfOp::create(b, loop.getResultTypes(), runs,
                                     /*withElseRegion=*/true);
      loop->replaceAllUsesWith(guard);
      loop->moveBefore(guard.thenBlock(), guard.thenBlock()->end());
      b.setInsertionPointToEnd(guard.thenBlock());
      scf::YieldOp::create(b, loop.getResults());
      b.setInsertionPointToEnd(guard.elseBlock());
      scf::YieldOp::create(b, loop.getInitArgs());
    }
  }

  /// SPIR-V's GroupNonUniformFMax/FMin, which convert-gpu-to-spirv maps
  /// gpu.subgroup_reduce's float min/max kinds to, pass over NaNs, and
  /// their result is undefined when every lane's value is NaN. So
  /// maximumf/minimumf (NaN if any lane's value is) and maxnumf/minnumf
  /// (NaN only if every lane's is: TOSA's nan_mode IGNORE starts from NaN)
  /// each become FMax/FMin plus a reduction over "is this lane's value
  /// NaN", and a select.
  static void keepNaNsInSubgroupMinMax(ModuleOp module) {
    using Kind = gpu::AllReduceOperation;
    SmallVector<gpu::SubgroupReduceOp> reductions;
    module.walk([&](gpu::SubgroupReduceOp op) {
      if (llvm::is_contained(
              {Kind::MAXIMUMF, Kind::MINIMUMF, Kind::MAXNUMF, Kind::MINNUMF},
              op.getOp()))
        reductions.push_back(op);
    });
    for (gpu::SubgroupReduceOp op : reductions) {
      ImplicitLocOpBuilder b(op.getLoc(), op);
      Value value = op.getValue();
      auto type = cast<FloatType>(value.getType());
      bool max = op.getOp() == Kind::MAXIMUMF || op.getOp() == Kind::MAXNUMF;
      bool propagate =
          op.getOp() == Kind::MAXIMUMF || op.getOp() == Kind::MINIMUMF;
      Value numeric = gpu::SubgroupReduceOp::create(
          b, value, max ? Kind::MAXNUMF : Kind::MINNUMF, op.getUniform(),
          op.getClusterSize(), op.getClusterStride());
      Value isNaN =
          arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, value, value);
      Value flag = arith::ExtUIOp::create(b, b.getI32Type(), isNaN);
      // Any lane's value NaN (max of the flags), or every lane's (min).
      Value nanFound = gpu::SubgroupReduceOp::create(
          b, flag, propagate ? Kind::MAXUI : Kind::MINUI, op.getUniform(),
          op.getClusterSize(), op.getClusterStride());
      Value nan = arith::ConstantOp::create(
          b, FloatAttr::get(type, APFloat::getNaN(type.getFloatSemantics())));
      Value result = arith::SelectOp::create(
          b,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, nanFound,
                                arith::ConstantIntOp::create(b, 0, 32)),
          nan, numeric);
      op.replaceAllUsesWith(result);
      op.erase();
    }
  }

  /// Vector loads and stores the SPIR-V target cannot keep become one
  /// access per element. It keeps those of 2 or 4 32-bit elements in a
  /// kernel buffer or workgroup memory that are aligned to their size
  /// (onnx-tosa-vectorize-spirv-accesses then makes them accesses to a
  /// vector element of the buffer: Vulkan's logical addressing cannot
  /// reinterpret a pointer to a scalar as a pointer to a vector).
  static void scalarizeVectorAccesses(ModuleOp module) {
    auto kept = [](VectorType type, MemRefType memref,
                   std::optional<uint64_t> alignment) {
      int64_t lanes = type.getNumElements();
      Attribute space = memref.getMemorySpace();
      bool workgroup =
          space &&
          (isa<IntegerAttr>(space)
               ? cast<IntegerAttr>(space).getInt() == 3
               : gpu::GPUDialect::isWorkgroupMemoryAddressSpace(space));
      return type.getRank() == 1 && (lanes == 2 || lanes == 4) &&
             type.getElementTypeBitWidth() == 32 && (!space || workgroup) &&
             alignment && *alignment >= static_cast<uint64_t>(lanes) * 4;
    };
    SmallVector<Operation *> accesses;
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<vector::LoadOp>(op);
          load && load.getVectorType().getRank() == 1 &&
          !kept(load.getVectorType(), load.getMemRefType(),
                load.getAlignment()))
        accesses.push_back(op);
      if (auto store = dyn_cast<vector::StoreOp>(op);
          store && store.getVectorType().getRank() == 1 &&
          !kept(store.getVectorType(), store.getMemRefType(),
                store.getAlignment()))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      auto at = [&](ValueRange indices, int64_t e) {
        SmallVector<Value> shifted(indices);
        Value offset = arith::ConstantIndexOp::create(b, loc, e);
        shifted.back() =
            arith::AddIOp::create(b, loc, shifted.back(), offset);
        return shifted;
      };
      if (auto load = dyn_cast<vector::LoadOp>(op)) {
        VectorType type = load.getVectorType();
        SmallVector<Value> elements;
        for (int64_t e = 0; e < type.getNumElements(); ++e)
          elements.push_back(memref::LoadOp::create(
              b, loc, load.getBase(), at(load.getIndices(), e)));
        load.replaceAllUsesWith(
            vector::FromElementsOp::create(b, loc, type, elements)
                .getResult());
      } else {
        auto store = cast<vector::StoreOp>(op);
        for (int64_t e = 0; e < store.getVectorType().getNumElements(); ++e)
          memref::StoreOp::create(
              b, loc,
              vector::ExtractOp::create(b, loc, store.getValueToStore(), e),
              store.getBase(), at(store.getIndices(), e));
      }
      op->erase();
    }
  }
};

/// Vulkan's GLSL extended instructions have no erf: expand erf/erfc into
/// MLIR's polynomial approximations (arithmetic plus exp) before conversion.
/// And math.powf lowers to GL Pow on |x| with the sign fixed up afterwards,
/// which turns NaN inputs into 0: NaNs are put back explicitly, with C's
/// pow(NaN, 0) = pow(1, NaN) = 1 (the TOSA conformance suite found this).
/// And f32 tanh of small arguments is a polynomial (GL Tanh may lose their
/// relative precision).
struct ApproximateMathPass
    : PassWrapper<ApproximateMathPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproximateMathPass)
  StringRef getArgument() const override {
    return "onnx-tosa-approximate-math-for-spirv";
  }
  StringRef getDescription() const override {
    return "Expand math ops SPIR-V lacks (erf, erfc) into approximations; "
           "keep small tanh and pow of NaN exact";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect>();
  }
  void runOnOperation() override {
    guardPowNaNs();
    keepSmallTanhPrecise();
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    populatePolynomialApproximateErfcPattern(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }

  /// GLSL's Tanh need only be as precise as its sinh / cosh definition
  /// (absolute error): lavapipe's loses most of the relative precision of
  /// tanh(x) for |x| below about 1e-4 (Mish of x < -9 was 0.2 % off). There
  /// tanh(x) = x - x^3/3 + 2x^5/15 to within 0.06 x^7, i.e. a relative 3e-9
  /// for |x| < 1/16, where the polynomial is used instead.
  void keepSmallTanhPrecise() {
    SmallVector<math::TanhOp> tanhs;
    getOperation().walk([&](math::TanhOp op) {
      if (isa<Float32Type>(getElementTypeOrSelf(op.getType())))
        tanhs.push_back(op);
    });
    for (math::TanhOp op : tanhs) {
      ImplicitLocOpBuilder b(op.getLoc(), op->getContext());
      b.setInsertionPointAfter(op);
      Value x = op.getOperand();
      Type t = op.getType();
      auto constant = [&](double v) -> Value {
        return arith::ConstantOp::create(
            b, t,
            isa<VectorType>(t)
                ? TypedAttr(DenseElementsAttr::get(cast<ShapedType>(t),
                                                   b.getF32FloatAttr(float(v))))
                : TypedAttr(b.getF32FloatAttr(float(v))));
      };
      Value x2 = arith::MulFOp::create(b, x, x);
      // x * (1 + x2 * (-1/3 + x2 * 2/15))
      Value inner = math::FmaOp::create(b, x2, constant(2.0 / 15.0),
                                        constant(-1.0 / 3.0));
      Value poly = arith::MulFOp::create(
          b, x, math::FmaOp::create(b, x2, inner, constant(1.0)));
      Value small = arith::CmpFOp::create(b, arith::CmpFPredicate::OLT,
                                          math::AbsFOp::create(b, x),
                                          constant(1.0 / 16.0));
      auto select = arith::SelectOp::create(b, small, poly, op.getResult());
      op.getResult().replaceAllUsesExcept(select, select);
    }
  }

  void guardPowNaNs() {
    SmallVector<math::PowFOp> pows;
    getOperation().walk([&](math::PowFOp op) { pows.push_back(op); });
    for (math::PowFOp op : pows) {
      OpBuilder b(op->getContext());
      b.setInsertionPointAfter(op);
      Location loc = op.getLoc();
      Value x = op.getLhs(), y = op.getRhs();
      Type t = op.getType();
      auto constant = [&](double v) -> Value {
        return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
      };
      auto cmp = [&](arith::CmpFPredicate p, Value l, Value r) -> Value {
        return arith::CmpFOp::create(b, loc, p, l, r);
      };
      // C's rules: pow(1, y) = pow(x, 0) = 1 for every x and y, NaN among
      // them; otherwise a NaN operand gives NaN.
      Value one = arith::OrIOp::create(
          b, loc, cmp(arith::CmpFPredicate::OEQ, x, constant(1.0)),
          cmp(arith::CmpFPredicate::OEQ, y, constant(0.0)));
      Value nan =
          arith::OrIOp::create(b, loc, cmp(arith::CmpFPredicate::UNO, x, x),
                               cmp(arith::CmpFPredicate::UNO, y, y));
      Value quiet = constant(std::numeric_limits<double>::quiet_NaN());
      Value guarded =
          arith::SelectOp::create(b, loc, nan, quiet, op.getResult());
      auto select =
          arith::SelectOp::create(b, loc, one, constant(1.0), guarded);
      op.getResult().replaceAllUsesExcept(
          select, SmallPtrSet<Operation *, 1>{guarded.getDefiningOp()});
    }
  }
};

} // namespace

std::unique_ptr<Pass> createPrepareSpirvPass() {
  return std::make_unique<PrepareSpirvPass>();
}

void buildGpuToSpirvPipeline(OpPassManager &pm) {
  pm.addPass(createPrepareSpirvPass());
  pm.addNestedPass<gpu::GPUModuleOp>(std::make_unique<ApproximateMathPass>());
  // Index computations leave the loops first, so that the accumulators of
  // coarsened contractions are seen at loop-invariant indices.
  addPassPipeline(pm, "gpu.module(loop-invariant-code-motion,cse)");
  pm.addNestedPass<gpu::GPUModuleOp>(createPromoteKernelAccumulatorsPass());
  // Vulkan (lavapipe included) has no bfloat16 arithmetic: kernels compute
  // bf16 in f32, rounding each result back to bf16 as CUDA's native bf16
  // does (arith-emulate-unsupported-floats, and for math ops
  // math-extend-to-supported-types); arith-expand's bf16 patterns turn
  // those extf/truncf into integer ops on the bits (truncf rounds to
  // nearest even and keeps NaN a NaN); onnx-tosa-store-bf16-as-i16 then
  // carries what is left of bf16 as i16 of the same bits.
  addPassPipeline(pm, "gpu.module(arith-emulate-unsupported-floats{"
                      "source-types=bf16 target-type=f32},"
                      "math-extend-to-supported-types{extra-types=f16 "
                      "target-type=f32},"
                      "lower-affine,arith-expand{include-bf16=true})");
  pm.addPass(createStoreBf16AsI16Pass());
  // convert-gpu-to-spirv does not convert math ops itself; they are turned
  // into GLSL extended instructions first.
  addPassPipeline(pm, "gpu.module(convert-math-to-spirv),"
                      "convert-gpu-to-spirv,"
                      "spirv.module(spirv-lower-abi-attrs)");
  pm.addNestedPass<spirv::ModuleOp>(createVectorizeSpirvAccessesPass());
  pm.addPass(createDecorateSpirvBuffersPass());
  addPassPipeline(pm, "spirv.module(spirv-update-vce)");
}

LogicalResult
collectSpirv(ModuleOp module,
             std::vector<std::pair<std::string, std::vector<uint32_t>>> &out) {
  // Without OpName, whose names carry the module's (the buffers'
  // variables, say): kernels alike then have the same binary, which the
  // artifact stores once (--emit=spirv prints the named form).
  spirv::SerializationOptions options;
  options.emitSymbolName = false;
  for (auto spv : module.getOps<spirv::ModuleOp>()) {
    SmallVector<uint32_t> words;
    if (failed(spirv::serialize(spv, words, options)))
      return spv.emitError("SPIR-V serialization failed");
    StringRef name = spv.getName().value_or("");
    name.consume_front("__spv__");
    out.emplace_back(name.str(),
                     std::vector<uint32_t>(words.begin(), words.end()));
  }
  return success();
}

void registerSpirvTargetPasses() {
  PassRegistration<PrepareSpirvPass>();
  PassRegistration<ApproximateMathPass>();
  registerPass([] { return createPromoteKernelAccumulatorsPass(); });
  registerPass([] { return createDecorateSpirvBuffersPass(); });
  registerPass([] { return createVectorizeSpirvAccessesPass(); });
  registerPass([] { return createStoreBf16AsI16Pass(); });
}

} // namespace onnx_tosa
