//===- KernelMemory.cpp - What Vulkan kernels know about their buffers ----===//
//
// The CUDA path marks every kernel buffer argument `llvm.noalias`
// (onnx-tosa-kernel-args-noalias), and LLVM then keeps a thread's
// accumulators in registers across its reduction loops and loads each
// filter / right-hand-side element once for the T outputs a coarsened
// thread computes (onnx-tosa-coarsen-contractions). SPIR-V has no noalias
// argument: a Vulkan driver sees storage buffers that may all overlap, so
// a coarsened GEMM or convolution loaded and stored its T accumulators in
// global memory on every reduction step and reloaded the shared operand T
// times (the H200 figures: GEMM 4096³ 2.1 TFLOP/s on Vulkan, 12.7 on CUDA).
//
// Two passes give the Vulkan kernels the same knowledge:
//  - onnx-tosa-promote-kernel-accumulators (gpu.module, before SPIR-V
//    conversion) does what LLVM does with noalias, independently of the
//    driver's optimizer: loads of a buffer the kernel never writes are
//    reused when they repeat, and a value loaded and stored at fixed indices
//    in a loop with a known, non-zero trip count is carried in a register
//    (iter_args) instead, loaded once before and stored once after.
//  - onnx-tosa-decorate-spirv-buffers (after spirv-lower-abi-attrs) decorates
//    the storage buffer variables of noalias arguments `Restrict`, and those
//    the kernel never writes `NonWritable` (GLSL's `restrict` and `readonly`),
//    so the driver may also reorder and cache their accesses itself; each
//    gets a block struct type of its own.
//
// A third, onnx-tosa-vectorize-spirv-accesses (after spirv-lower-abi-attrs),
// keeps the kernels' vector loads and stores vectors: the SPIR-V conversion
// writes them as casts of element pointers, which Vulkan's logical
// addressing forbids, so the variable they access becomes an array of
// vectors instead.
//
//===----------------------------------------------------------------------===//
#include "spirv/SpirvTarget.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <optional>

using namespace mlir;

namespace onnx_tosa {
namespace {

//===----------------------------------------------------------------------===//
// Accumulator promotion
//===----------------------------------------------------------------------===//

/// `v` as base + constant offset (base null for a constant), looking
/// through arith.addi with a constant operand.
std::pair<Value, int64_t> splitOffset(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return {Value(), *c};
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    if (std::optional<int64_t> c = getConstantIntValue(add.getRhs())) {
      auto [base, off] = splitOffset(add.getLhs());
      return {base, off + *c};
    }
    if (std::optional<int64_t> c = getConstantIntValue(add.getLhs())) {
      auto [base, off] = splitOffset(add.getRhs());
      return {base, off + *c};
    }
  }
  return {v, 0};
}

/// Whether two index values can never be equal: the same base plus different
/// constants, or `affine.linearize_index disjoint` of the same basis whose
/// operands are the same values except for differing constants (disjoint
/// linearization is one-to-one on in-range indices; coarsened kernels
/// address their T outputs this way).
bool provablyDistinct(Value a, Value b) {
  if (a == b)
    return false;
  auto [baseA, offA] = splitOffset(a);
  auto [baseB, offB] = splitOffset(b);
  if (baseA == baseB)
    return offA != offB;
  auto la = a.getDefiningOp<affine::AffineLinearizeIndexOp>();
  auto lb = b.getDefiningOp<affine::AffineLinearizeIndexOp>();
  if (!la || !lb || !la.getDisjoint() || !lb.getDisjoint() ||
      !la.getDynamicBasis().empty() || !lb.getDynamicBasis().empty() ||
      la.getStaticBasis() != lb.getStaticBasis() ||
      la.getMultiIndex().size() != lb.getMultiIndex().size())
    return false;
  bool differs = false;
  for (auto [x, y] : llvm::zip(la.getMultiIndex(), lb.getMultiIndex())) {
    if (x == y)
      continue;
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (!cx || !cy)
      return false;
    differs |= *cx != *cy;
  }
  return differs;
}

/// Two index tuples of one dense buffer address different elements.
bool provablyDistinct(ValueRange a, ValueRange b) {
  for (auto [x, y] : llvm::zip(a, b))
    if (provablyDistinct(x, y))
      return true;
  return false;
}

/// Loads and stores of one noalias kernel argument.
Value accessedBuffer(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  return {};
}
ValueRange accessIndices(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getIndices();
  return cast<memref::StoreOp>(op).getIndices();
}

struct PromoteKernelAccumulatorsPass
    : PassWrapper<PromoteKernelAccumulatorsPass,
                  OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PromoteKernelAccumulatorsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-promote-kernel-accumulators";
  }
  StringRef getDescription() const override {
    return "Keep loop-carried values of noalias kernel buffers in registers "
           "and reuse repeated loads of read-only ones";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<scf::SCFDialect, memref::MemRefDialect>();
  }

  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (func.isKernel())
        runOnKernel(func);
    });
  }

  void runOnKernel(gpu::GPUFuncOp func) {
    // The arguments this reasoning covers: noalias (no other argument
    // reaches their memory) and used only as the buffer of plain loads and
    // stores (no view or atomic reaches it another way).
    DenseSet<Value> tracked, written;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      BlockArgument arg = func.getArgument(i);
      if (!isa<MemRefType>(arg.getType()) ||
          !func.getArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName()))
        continue;
      bool plain = llvm::all_of(arg.getUses(), [](OpOperand &use) {
        return accessedBuffer(use.getOwner()) == use.get() &&
               (isa<memref::LoadOp>(use.getOwner()) ||
                use.getOperandNumber() == 1);
      });
      if (!plain)
        continue;
      tracked.insert(arg);
      if (llvm::any_of(arg.getUsers(), llvm::IsaPred<memref::StoreOp>))
        written.insert(arg);
    }
    if (tracked.empty())
      return;

    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); }); // inner first
    IRRewriter rewriter(func.getContext());
    for (scf::ForOp loop : loops)
      promoteInLoop(rewriter, loop, tracked);
    reuseReadOnlyLoads(func, tracked, written);
  }

  /// Carries each (buffer, invariant indices) value that `loop` loads and
  /// stores in an iter_arg.
  void promoteInLoop(IRRewriter &rewriter, scf::ForOp loop,
                     const DenseSet<Value> &tracked) {
    // The load before the loop and the store after it must only happen
    // when the loop body would have run: a constant, non-zero trip count.
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                           ub = getConstantIntValue(loop.getUpperBound()),
                           step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *lb < 0 || *step <= 0 || *ub <= *lb)
      return;
    // Threads that synchronize inside the loop may be exchanging values
    // through these buffers: keep every access where it is.
    if (loop.getBody()
            ->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return;

    Block *body = loop.getBody();
    // Per buffer: its accesses in the loop, all directly in the body.
    llvm::MapVector<Value, SmallVector<Operation *>> accesses;
    DenseSet<Value> nested;
    loop.getBody()->walk([&](Operation *op) {
      Value buf = accessedBuffer(op);
      if (!buf || !tracked.contains(buf))
        return;
      if (op->getBlock() != body)
        nested.insert(buf);
      accesses[buf].push_back(op);
    });

    // Groups of accesses to promote, each with its buffer and indices.
    struct Group {
      Value buffer;
      SmallVector<Value> indices;
      SmallVector<Operation *> ops;
    };
    SmallVector<Group> groups;
    for (auto &[buf, ops] : accesses) {
      if (nested.contains(buf))
        continue;
      SmallVector<Group> candidates;
      for (Operation *op : ops) {
        ValueRange idx = accessIndices(op);
        auto it = llvm::find_if(candidates, [&](const Group &g) {
          return llvm::equal(g.indices, idx);
        });
        if (it == candidates.end()) {
          candidates.push_back({buf, llvm::to_vector(idx), {}});
          it = std::prev(candidates.end());
        }
        it->ops.push_back(op);
      }
      for (const Group &g : candidates) {
        bool invariant = llvm::all_of(
            g.indices, [&](Value v) { return loop.isDefinedOutsideOfLoop(v); });
        bool stores = llvm::any_of(g.ops, llvm::IsaPred<memref::StoreOp>);
        bool separate = llvm::all_of(candidates, [&](const Group &other) {
          return &other == &g || provablyDistinct(g.indices, other.indices);
        });
        if (invariant && stores && separate)
          groups.push_back(g);
      }
    }
    if (groups.empty())
      return;

    rewriter.setInsertionPoint(loop);
    SmallVector<Value> inits;
    for (const Group &g : groups)
      inits.push_back(
          memref::LoadOp::create(rewriter, loop.getLoc(), g.buffer, g.indices));
    SmallVector<Operation *> dead;
    auto yields = [&](OpBuilder &, Location,
                      ArrayRef<BlockArgument> carried) -> SmallVector<Value> {
      SmallVector<Value> current(carried.begin(), carried.end());
      // The accesses in program order (all in one block: the body, which
      // moves into the new loop unchanged).
      SmallVector<std::pair<Operation *, unsigned>> ordered;
      for (auto [i, g] : llvm::enumerate(groups))
        for (Operation *op : g.ops)
          ordered.push_back({op, i});
      llvm::sort(ordered, [](auto &a, auto &b) {
        return a.first->isBeforeInBlock(b.first);
      });
      for (auto [op, i] : ordered) {
        if (auto load = dyn_cast<memref::LoadOp>(op))
          load.getResult().replaceAllUsesWith(current[i]);
        else
          current[i] = cast<memref::StoreOp>(op).getValueToStore();
        dead.push_back(op);
      }
      return current;
    };
    FailureOr<LoopLikeOpInterface> promoted = loop.replaceWithAdditionalYields(
        rewriter, inits, /*replaceInitOperandUsesInLoop=*/false, yields);
    if (failed(promoted))
      return;
    for (Operation *op : dead)
      rewriter.eraseOp(op);
    auto newLoop = cast<scf::ForOp>(promoted->getOperation());
    rewriter.setInsertionPointAfter(newLoop);
    unsigned first = newLoop.getNumResults() - groups.size();
    for (auto [i, g] : llvm::enumerate(groups))
      memref::StoreOp::create(rewriter, newLoop.getLoc(),
                              newLoop.getResult(first + i), g.buffer,
                              g.indices);
  }

  /// A load of a buffer the kernel never writes gives the same value as an
  /// earlier one of the same element that dominates it.
  void reuseReadOnlyLoads(gpu::GPUFuncOp func, const DenseSet<Value> &tracked,
                          const DenseSet<Value> &written) {
    DominanceInfo dom(func);
    DenseMap<Value, SmallVector<memref::LoadOp>> seen;
    SmallVector<memref::LoadOp> dead;
    func.walk<WalkOrder::PreOrder>([&](memref::LoadOp load) {
      Value buf = load.getMemRef();
      if (!tracked.contains(buf) || written.contains(buf))
        return;
      for (memref::LoadOp earlier : seen[buf])
        if (llvm::equal(earlier.getIndices(), load.getIndices()) &&
            dom.properlyDominates(earlier.getOperation(), load)) {
          load.getResult().replaceAllUsesWith(earlier.getResult());
          dead.push_back(load);
          return;
        }
      seen[buf].push_back(load);
    });
    for (memref::LoadOp load : dead)
      load.erase();
  }
};

//===----------------------------------------------------------------------===//
// Storage buffer decorations
//===----------------------------------------------------------------------===//

/// `block` (a buffer's one-member struct) with `member` in place of its
/// member, its layout and decorations kept; an identified struct named
/// `name` where one is given (a distinct type, not the uniqued literal one).
spirv::StructType rebuildBlock(spirv::StructType block, Type member,
                               StringRef name = {}) {
  SmallVector<spirv::StructType::OffsetInfo> offsets;
  if (block.hasOffset())
    offsets.push_back(block.getMemberOffset(0));
  SmallVector<spirv::StructType::MemberDecorationInfo> members;
  block.getMemberDecorations(members);
  SmallVector<spirv::StructType::StructDecorationInfo> decorations;
  block.getStructDecorations(decorations);
  if (name.empty())
    return spirv::StructType::get({member}, offsets, members, decorations);
  // Identified structs live as long as the context: a name already taken
  // by a different body gets a suffix.
  MLIRContext *ctx = block.getContext();
  for (unsigned suffix = 0;; ++suffix) {
    std::string unique =
        suffix ? (name + "_" + Twine(suffix)).str() : name.str();
    auto distinct = spirv::StructType::getIdentified(ctx, unique);
    if (succeeded(distinct.trySetBody({member}, offsets, members, decorations)))
      return distinct;
  }
}

/// Gives `var` the pointer type `type`, and its address-ofs `addrs` with it
/// (what they point into is unchanged, so their users need no change).
void setVariableType(spirv::GlobalVariableOp var,
                     ArrayRef<spirv::AddressOfOp> addrs,
                     spirv::PointerType type) {
  var.setType(type);
  for (spirv::AddressOfOp addr : addrs)
    addr.getPointer().setType(type);
}

/// Whether a pointer derived from a storage buffer variable is only read.
bool onlyLoaded(Value ptr) {
  for (Operation *user : ptr.getUsers()) {
    if (isa<spirv::LoadOp>(user))
      continue;
    if (isa<spirv::AccessChainOp, spirv::InBoundsPtrAccessChainOp,
            spirv::PtrAccessChainOp>(user) &&
        onlyLoaded(user->getResult(0)))
      continue;
    return false;
  }
  return true;
}

/// Gives a storage buffer variable a block struct of its own. Buffers of
/// one size otherwise share the uniqued struct type, and on NVIDIA's Vulkan
/// driver (580, H200) a kernel that read a NonWritable buffer and
/// accumulated into another of the same size saw none of its own stores, as
/// if the written one were NonWritable too (a split-K GEMM's partial sums
/// kept only their last term); with a type per buffer it sums correctly.
void giveOwnBlockType(spirv::ModuleOp module, spirv::GlobalVariableOp var,
                      ArrayRef<spirv::AddressOfOp> addrs) {
  auto ptr = cast<spirv::PointerType>(var.getType());
  auto block = dyn_cast<spirv::StructType>(ptr.getPointeeType());
  if (!block || block.isIdentified() || block.getNumElements() != 1)
    return;
  setVariableType(
      var, addrs,
      spirv::PointerType::get(
          rebuildBlock(
              block, block.getElementType(0),
              (module.getName().value_or("") + "." + var.getSymName()).str()),
          ptr.getStorageClass()));
}

struct DecorateSpirvBuffersPass
    : PassWrapper<DecorateSpirvBuffersPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DecorateSpirvBuffersPass)
  StringRef getArgument() const override {
    return "onnx-tosa-decorate-spirv-buffers";
  }
  StringRef getDescription() const override {
    return "Decorate kernel storage buffers Restrict (noalias arguments) and "
           "NonWritable (never written)";
  }
  void runOnOperation() override {
    ModuleOp top = getOperation();
    for (auto spv : top.getOps<spirv::ModuleOp>()) {
      // convert-gpu-to-spirv converts a copy of each gpu.module into
      // `__spv__<name>` and leaves the original for the host side.
      StringRef name = spv.getName().value_or("");
      if (!name.consume_front("__spv__"))
        continue;
      auto gpuModule = top.lookupSymbol<gpu::GPUModuleOp>(name);
      // Per variable: whether every kernel using it has it as a noalias
      // argument, whether any writes it, and its address-ofs.
      struct Facts {
        bool noalias = true;
        bool written = false;
        SmallVector<spirv::AddressOfOp> addrs;
      };
      llvm::MapVector<Operation *, Facts> vars;
      spv.walk([&](spirv::FuncOp fn) {
        auto kernel = gpuModule
                          ? gpuModule.lookupSymbol<gpu::GPUFuncOp>(fn.getName())
                          : gpu::GPUFuncOp();
        fn.walk([&](spirv::AddressOfOp addr) {
          auto var =
              SymbolTable::lookupNearestSymbolFrom<spirv::GlobalVariableOp>(
                  addr, addr.getVariableAttr());
          auto ptr = dyn_cast<spirv::PointerType>(var.getType());
          if (!ptr ||
              ptr.getStorageClass() != spirv::StorageClass::StorageBuffer)
            return;
          // spirv-lower-abi-attrs binds kernel argument i at binding i.
          std::optional<uint32_t> binding = var.getBinding();
          bool noalias =
              kernel && binding && *binding < kernel.getNumArguments() &&
              kernel.getArgAttr(*binding,
                                LLVM::LLVMDialect::getNoAliasAttrName());
          Facts &facts = vars[var.getOperation()];
          facts.noalias &= noalias;
          facts.written |= !onlyLoaded(addr.getResult());
          facts.addrs.push_back(addr);
        });
      });
      for (auto &[op, facts] : vars) {
        auto var = cast<spirv::GlobalVariableOp>(op);
        UnitAttr unit = UnitAttr::get(var->getContext());
        if (facts.noalias)
          var->setAttr("restrict", unit);
        if (!facts.written)
          var->setAttr("non_writable", unit);
        giveOwnBlockType(spv, var, facts.addrs);
      }
    }
  }
};

//===----------------------------------------------------------------------===//
// Vector accesses
//===----------------------------------------------------------------------===//

/// The one member of the struct a buffer variable points to, an array of
/// scalars (`ptr<struct<(array<L x T>)>>`), or null.
Type scalarArray(spirv::GlobalVariableOp var) {
  auto ptr = dyn_cast<spirv::PointerType>(var.getType());
  auto block = ptr ? dyn_cast<spirv::StructType>(ptr.getPointeeType())
                   : spirv::StructType();
  if (!block || block.getNumElements() != 1)
    return {};
  Type array = block.getElementType(0);
  Type element;
  if (auto fixed = dyn_cast<spirv::ArrayType>(array))
    element = fixed.getElementType();
  else if (auto runtime = dyn_cast<spirv::RuntimeArrayType>(array))
    element = runtime.getElementType();
  return element && element.isIntOrFloat() ? array : Type();
}

/// `ptr<struct<(array<L x T>)>>` as `ptr<struct<(array<L/lanes x
/// vector<lanes x T>>)>>`.
spirv::PointerType vectorBufferType(spirv::GlobalVariableOp var,
                                    int64_t lanes) {
  auto ptr = cast<spirv::PointerType>(var.getType());
  auto block = cast<spirv::StructType>(ptr.getPointeeType());
  Type array = block.getElementType(0);
  Type vector;
  Type vectorArray;
  auto stride = [&](unsigned scalarStride) {
    return scalarStride ? scalarStride * lanes : 0;
  };
  if (auto fixed = dyn_cast<spirv::ArrayType>(array)) {
    vector = VectorType::get({lanes}, fixed.getElementType());
    unsigned count = fixed.getNumElements() / lanes;
    vectorArray = fixed.getArrayStride()
                      ? spirv::ArrayType::get(vector, count,
                                              stride(fixed.getArrayStride()))
                      : spirv::ArrayType::get(vector, count);
  } else {
    auto runtime = cast<spirv::RuntimeArrayType>(array);
    vector = VectorType::get({lanes}, runtime.getElementType());
    vectorArray =
        spirv::RuntimeArrayType::get(vector, stride(runtime.getArrayStride()));
  }
  return spirv::PointerType::get(rebuildBlock(block, vectorArray),
                                 ptr.getStorageClass());
}

/// The element pointers `chain` = `[0, i]` into a buffer variable that a
/// vector access casts to `ptr<vector<lanes x T>>`.
struct VectorPointer {
  spirv::BitcastOp cast;
  spirv::AccessChainOp chain;
  int64_t lanes;
};

struct VectorizeSpirvAccessesPass
    : PassWrapper<VectorizeSpirvAccessesPass, OperationPass<spirv::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VectorizeSpirvAccessesPass)
  StringRef getArgument() const override {
    return "onnx-tosa-vectorize-spirv-accesses";
  }
  StringRef getDescription() const override {
    return "Make variables accessed as vectors arrays of vectors (Vulkan's "
           "logical pointers cannot be cast), or split such accesses";
  }
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    llvm::MapVector<Operation *, SmallVector<VectorPointer>> byVariable;
    WalkResult walk = module.walk([&](spirv::BitcastOp cast) {
      auto to = dyn_cast<spirv::PointerType>(cast.getType());
      if (!to)
        return WalkResult::advance();
      auto vector = dyn_cast<VectorType>(to.getPointeeType());
      auto chain = cast.getOperand().getDefiningOp<spirv::AccessChainOp>();
      auto addr = chain ? chain.getBasePtr().getDefiningOp<spirv::AddressOfOp>()
                        : spirv::AddressOfOp();
      auto var =
          addr ? SymbolTable::lookupNearestSymbolFrom<spirv::GlobalVariableOp>(
                     addr, addr.getVariableAttr())
               : spirv::GlobalVariableOp();
      if (!vector || !var || chain.getIndices().size() != 2 ||
          !scalarArray(var) ||
          llvm::any_of(cast->getUsers(), [](Operation *user) {
            return !isa<spirv::LoadOp, spirv::StoreOp>(user);
          })) {
        cast.emitError("internal error: a vector access the SPIR-V target "
                       "cannot express");
        return WalkResult::interrupt();
      }
      byVariable[var].push_back({cast, chain, vector.getNumElements()});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (auto &[op, pointers] : byVariable) {
      auto var = cast<spirv::GlobalVariableOp>(op);
      if (std::optional<SmallVector<spirv::AddressOfOp>> addrs =
              retypable(var, pointers))
        retype(var, *addrs, pointers.front().lanes);
      else
        for (VectorPointer &p : pointers)
          split(p);
    }
  }

  /// The variable's address-ofs, if every access to it goes through an
  /// element pointer `[0, i]` and its vector accesses agree on one
  /// number of lanes that divides its length.
  static std::optional<SmallVector<spirv::AddressOfOp>>
  retypable(spirv::GlobalVariableOp var, ArrayRef<VectorPointer> pointers) {
    int64_t lanes = pointers.front().lanes;
    if (llvm::any_of(pointers,
                     [&](const VectorPointer &p) { return p.lanes != lanes; }))
      return std::nullopt;
    if (auto fixed = dyn_cast<spirv::ArrayType>(scalarArray(var));
        fixed && fixed.getNumElements() % lanes != 0)
      return std::nullopt;
    SmallVector<spirv::AddressOfOp> addrs;
    auto module = var->getParentOfType<spirv::ModuleOp>();
    bool ok = true;
    module.walk([&](spirv::AddressOfOp addr) {
      if (addr.getVariable() != var.getSymName())
        return;
      addrs.push_back(addr);
      for (Operation *user : addr->getUsers()) {
        auto chain = dyn_cast<spirv::AccessChainOp>(user);
        ok &= chain && chain.getIndices().size() == 2;
      }
    });
    if (!ok)
      return std::nullopt;
    return addrs;
  }

  /// Vector elements for `var`: a vector access at element i reads or writes
  /// vector i / lanes (i is a multiple of lanes: the accesses were aligned
  /// to their size), a scalar one lane i % lanes of it.
  static void retype(spirv::GlobalVariableOp var,
                     ArrayRef<spirv::AddressOfOp> addrs, int64_t lanes) {
    setVariableType(var, addrs, vectorBufferType(var, lanes));
    for (spirv::AddressOfOp addr : addrs) {
      for (Operation *user : llvm::make_early_inc_range(addr->getUsers())) {
        auto chain = cast<spirv::AccessChainOp>(user);
        OpBuilder b(chain);
        Location loc = chain.getLoc();
        Value first = chain.getIndices()[0];
        Value index = chain.getIndices()[1];
        Type indexType = index.getType();
        auto constant = [&](int64_t v) {
          return spirv::ConstantOp::create(b, loc, indexType,
                                           b.getIntegerAttr(indexType, v));
        };
        Value vectorIndex = spirv::ShiftRightLogicalOp::create(
            b, loc, index, constant(llvm::Log2_64(lanes)));
        Value vectorPtr;
        Value lanePtr;
        for (Operation *use : llvm::make_early_inc_range(chain->getUsers())) {
          if (auto cast = dyn_cast<spirv::BitcastOp>(use)) {
            if (!vectorPtr)
              vectorPtr = spirv::AccessChainOp::create(
                  b, loc, addr, ValueRange{first, vectorIndex});
            // The access was aligned for a pointer cast; Vulkan's logical
            // pointers take no alignment operand.
            for (Operation *access : cast->getUsers()) {
              access->removeAttr("memory_access");
              access->removeAttr("alignment");
            }
            cast.replaceAllUsesWith(vectorPtr);
            cast.erase();
            continue;
          }
          if (!lanePtr) {
            Value lane =
                spirv::BitwiseAndOp::create(b, loc, index, constant(lanes - 1));
            lanePtr = spirv::AccessChainOp::create(
                b, loc, addr, ValueRange{first, vectorIndex, lane});
          }
          use->replaceUsesOfWith(chain, lanePtr);
        }
        chain.erase();
      }
    }
  }

  /// The vector access as one access per element.
  static void split(VectorPointer &p) {
    for (Operation *access : llvm::make_early_inc_range(p.cast->getUsers())) {
      OpBuilder b(access);
      Location loc = access->getLoc();
      Value index = p.chain.getIndices()[1];
      auto element = [&](int64_t e) -> Value {
        Value at = e == 0 ? index
                          : spirv::IAddOp::create(
                                b, loc, index,
                                spirv::ConstantOp::create(
                                    b, loc, index.getType(),
                                    b.getIntegerAttr(index.getType(), e)));
        return spirv::AccessChainOp::create(
            b, loc, p.chain.getBasePtr(),
            ValueRange{p.chain.getIndices()[0], at});
      };
      if (auto load = dyn_cast<spirv::LoadOp>(access)) {
        SmallVector<Value> elements;
        for (int64_t e = 0; e < p.lanes; ++e)
          elements.push_back(spirv::LoadOp::create(b, loc, element(e)));
        load.replaceAllUsesWith(spirv::CompositeConstructOp::create(
                                    b, loc, load.getType(), elements)
                                    .getResult());
      } else {
        auto store = cast<spirv::StoreOp>(access);
        for (int64_t e = 0; e < p.lanes; ++e)
          spirv::StoreOp::create(
              b, loc, element(e),
              spirv::CompositeExtractOp::create(
                  b, loc, store.getValue(),
                  ArrayRef<int32_t>{static_cast<int32_t>(e)}));
      }
      access->erase();
    }
    p.cast.erase();
    if (p.chain->use_empty())
      p.chain.erase();
  }
};

} // namespace

std::unique_ptr<Pass> createPromoteKernelAccumulatorsPass() {
  return std::make_unique<PromoteKernelAccumulatorsPass>();
}

std::unique_ptr<Pass> createDecorateSpirvBuffersPass() {
  return std::make_unique<DecorateSpirvBuffersPass>();
}

std::unique_ptr<Pass> createVectorizeSpirvAccessesPass() {
  return std::make_unique<VectorizeSpirvAccessesPass>();
}

} // namespace onnx_tosa
