//===- TensorCores.cpp - Contractions as tiled GEMM kernels ---------------===//
//
// Two passes, one on each side of bufferization:
//
// `onnx-tosa-select-tensor-core-ops` (linalg on tensors) marks the
// contractions whose static sizes suit the kernel below (2^17 multiply-adds
// or more; N a multiple of a 16-byte vector): linalg.batch_matmul, generic
// contractions that are batches of row-major GEMMs, and
// linalg.conv_2d_nhwc_hwcf as an implicit GEMM (rows: output pixels;
// columns: output channels; K: filter height x width x input channels,
// which is the HWCF filter read as a [K, F] matrix). On CUDA, those with
// f16 operands and an f32 result (after --precision=fp16), or with `tf32`
// f32 ones, go on tensor cores; with `simt` (every target) f32 ones not in
// tf32 go on CUDA cores. onnx-tosa-coarsen-contractions leaves marked ops
// alone.
//
// `onnx-tosa-tensor-core-kernels` (linalg on buffers) replaces each marked
// op by a gpu.launch of its own:
//  - a block computes a tile of C, the accumulators in registers for the
//    whole K loop: on tensor cores each warp its WMMA fragments (16x16x16
//    f16 or 16x16x8 tf32 products accumulated in f32; tf32 reads the f32
//    operands with a 10-bit mantissa), on CUDA cores each thread 4x4 groups
//    of elements (vector FMAs over the outer product of 4 rows of A and 4
//    columns of B);
//  - per step of 32 along K the block's threads copy the A and B tiles to
//    workgroup (shared) memory with 16-byte vector loads (element by
//    element where A's rows are not whole vectors), so that each element
//    read from global memory serves every warp that needs it (the next
//    step's loads are issued before this step's products); the rows are
//    padded by 16 bytes to spread them over the memory banks while keeping
//    the 16-byte row alignment WMMA and vector loads need; CUDA cores read
//    the A tile transposed;
//  - C is stored straight from the accumulators. When the rows or columns
//    do not fill the last tile, only the elements that exist are stored
//    (tensor cores: through workgroup memory), loads past the ends are
//    clamped and their values unused or replaced by zeros; so is the last
//    step of a K that is not a multiple of 32;
//  - the elementwise op after the contraction, when it alone reads C,
//    becomes the kernel's epilogue, applied to the accumulators instead of
//    storing C;
//  - a GEMM no tiling fills the GPU with has its K split into slices, a
//    block per slice storing partial products, and a second kernel sums
//    them (applying the epilogue).
// When the zero fill that initializes C directly precedes the op, it is
// dropped and the accumulators start at zero; otherwise they start from C
// (a convolution's broadcast bias, say).
// With `warpgroup-mma` (sm_90a), an f16 GEMM (not a GEMV; a convolution
// where its tiles fill the GPU: chooseWarpgroupTiling) gets a kernel of
// another design instead (buildWarpgroupGemm):
// Hopper's wgmma.mma_async multiplies a warpgroup's 64 rows by the whole
// tile from swizzled tiles in dynamic workgroup memory, and C goes to memory
// straight from the accumulators (an epilogue through that workgroup
// memory, a run of neighbouring columns per thread: epilogueRowAt).
// There, attention's scores, the softmax after them and its context
// (Q K^T, row ops, P V: attentionAt) become one kernel instead of three
// (buildAttention), the row ops computed on the scores' accumulators as a
// row kernel (RowKernel.h) would compute them.
//
// Operands are addressed through a one-dimensional view of the buffer their
// expand/collapse_shape chain starts from, so the kernel receives whole
// buffers, as every other kernel does. An op whose operands are other views
// (subviews) keeps its marker but stays a linalg op, lowered to loops like
// any other.
//
// `onnx-tosa-align-workgroup-memory` (after outlining) gives workgroup
// buffers 128-byte alignment: WMMA needs 32-byte aligned fragments.
//
//===----------------------------------------------------------------------===//
#include "KernelBodies.h"
#include "RowKernel.h"
#include "TargetInfo.h"
#include "TosaToGpu.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace onnx_tosa {
namespace {

constexpr StringLiteral kMarker = "onnx_tosa.tensor_cores";
constexpr StringLiteral kSimtMarker = "onnx_tosa.simt_gemm";

constexpr int64_t kFragment = 16; // WMMA m16n16k16 (f16), m16n16k8 (tf32)
constexpr int64_t kGroup = 4;     // CUDA cores: 4x4 elements, float4 reads
constexpr int64_t kWarpSize = 32;
constexpr int64_t kTileK = 32;    // K elements per shared-memory step
constexpr int64_t kBytes = 16;    // global loads; shared-memory row padding
constexpr int64_t kCPadding = 4;  // floats added to each row of staged C
constexpr int64_t kMinWarpsPerSm = 4;  // to hide memory latency at all
constexpr int64_t kMinSliceSteps = 8;  // K steps of a slice of a split K
constexpr int64_t kSimtWarpsPerSm = 10; // CUDA cores: see chooseTiling
constexpr int64_t kMaxSimtSlices = 4;
// Warpgroup MMA (sm_90a): K elements per step, one 128-byte row of f16,
// which is the span of the 128-byte swizzle; copies of the tiles (the best
// of 3 and 4 at 4096^3, H200: 543 against 460 TFLOP/s, two blocks fitting on
// a multiprocessor); the swizzle's period, 8 rows of 128 bytes, at whose
// multiples the tiles must start (the pattern is taken from address bits).
constexpr int64_t kWarpgroupK = 64;
constexpr int64_t kWarpgroupStages = 3;
constexpr int64_t kSwizzleBytes = 1024;
constexpr int64_t kWarpgroupThreads = 128;
constexpr int64_t kMinWarpgroupSliceSteps = 16;
/// f32 accumulators of the attention kernel's two GEMMs a thread may hold
/// (L / 2 of the scores, N / 2 of the context): BERT's 64 + 32 take 128
/// registers without spilling; 256 keys by 64 columns is the most tested.
constexpr int64_t kMaxAttentionAccumulators = 160;
/// A staged C's row padding (floats): rows 8 banks apart, so that the 8
/// rows of the accumulators' pair stores of a warp take two wavefronts.
constexpr int64_t kWarpgroupCPadding = 8;
/// Columns of C per thread and epilogue run: 16 bytes of f16.
constexpr int64_t kWarpgroupEpilogueColumns = 8;
/// Multiply-adds below which a contraction keeps the plain kernels: as fast
/// at that size (a launch's worth of work), and much less code to compile
/// (which Vulkan drivers do when a model is loaded).
constexpr int64_t kMinProducts = 1 << 17;

/// A block's shape. On tensor cores: unitsM x unitsN warps, each perM x perN
/// fragments of 16x16. On CUDA cores (`simt`): unitsM x unitsN threads, each
/// perM x perN groups of 4x4 elements; a thread's groups are a band of
/// unitsM x 4 rows (unitsN x 4 columns) apart, so that the threads of a warp
/// read neighbouring vectors of workgroup memory. With warpgroup MMA
/// (`warpgroup`): unitsM warps of 16 rows by perN fragments, four of them
/// (128 threads, 64 rows) a warpgroup that multiplies its rows by the
/// tile's columns as one instruction per 16 of K; unitsN and perM are 1.
struct Tiling {
  int64_t unitsM, unitsN, perM, perN;
  bool simt = false;
  /// Slices K is split into (a block per slice, the partial products summed
  /// by a second kernel); 1 when it is not.
  int64_t slices = 1;
  /// Copies of the A and B tiles in workgroup memory: with 2, a step's
  /// products read one while the next step's tiles are stored to the
  /// other, one barrier per step instead of two; with asynchronous copies
  /// up to 4, the copies of the steps ahead in flight in the others.
  int64_t stages = 1;
  /// K steps ahead that the tiles are loaded from global memory (warpgroup
  /// MMA: up to stages - 1, the other copies hold the tiles of products
  /// still running).
  int64_t prefetch = 1;
  /// The tiles go from global to workgroup memory by asynchronous copies
  /// (cp.async, tensor cores only), into `stages` copies, stages - 1 K
  /// steps ahead, without passing through registers.
  bool asyncCopy = false;
  /// Warpgroup MMA (wgmma.mma_async), the tiles in dynamic workgroup memory
  /// in the 128-byte swizzled layout it reads, copied asynchronously.
  bool warpgroup = false;
  int64_t unit() const { return simt ? kGroup : kFragment; }
  int64_t stepK() const { return warpgroup ? kWarpgroupK : kTileK; }
  int64_t tileM() const { return unitsM * perM * unit(); }
  int64_t tileN() const { return unitsN * perN * unit(); }
  int64_t threads() const {
    return unitsM * unitsN * (simt ? 1 : kWarpSize);
  }
};

/// The kernel onnx-tosa-kernel-config chose for an op.
constexpr StringLiteral kKernelAttr = "onnx_tosa.kernel";

/// `t` as the op's onnx_tosa.kernel: {kind = "wmma" | "simt" | "wgmma",
/// tile = [rows, columns] (for reading), units and per (the Tiling's),
/// slices, stages, prefetch, async_copy}.
DictionaryAttr kernelToAttr(MLIRContext *context, const Tiling &t) {
  Builder b(context);
  StringRef kind = t.warpgroup ? "wgmma" : t.simt ? "simt" : "wmma";
  return b.getDictionaryAttr({
      b.getNamedAttr("kind", b.getStringAttr(kind)),
      b.getNamedAttr("tile", b.getDenseI64ArrayAttr({t.tileM(), t.tileN()})),
      b.getNamedAttr("units", b.getDenseI64ArrayAttr({t.unitsM, t.unitsN})),
      b.getNamedAttr("per", b.getDenseI64ArrayAttr({t.perM, t.perN})),
      b.getNamedAttr("slices", b.getI64IntegerAttr(t.slices)),
      b.getNamedAttr("stages", b.getI64IntegerAttr(t.stages)),
      b.getNamedAttr("prefetch", b.getI64IntegerAttr(t.prefetch)),
      b.getNamedAttr("async_copy", b.getBoolAttr(t.asyncCopy)),
  });
}

/// The Tiling an onnx_tosa.kernel attribute describes, nullopt if it is
/// not one.
std::optional<Tiling> kernelFromAttr(DictionaryAttr attr) {
  if (!attr)
    return std::nullopt;
  auto kind = attr.getAs<StringAttr>("kind");
  auto units = attr.getAs<DenseI64ArrayAttr>("units");
  auto per = attr.getAs<DenseI64ArrayAttr>("per");
  auto slices = attr.getAs<IntegerAttr>("slices");
  auto stages = attr.getAs<IntegerAttr>("stages");
  auto prefetch = attr.getAs<IntegerAttr>("prefetch");
  auto async = attr.getAs<BoolAttr>("async_copy");
  if (!kind || !units || !per || units.size() != 2 || per.size() != 2 ||
      !slices || !stages || !prefetch || !async ||
      !llvm::is_contained({"wmma", "simt", "wgmma"}, kind.getValue()))
    return std::nullopt;
  Tiling t{units[0], units[1], per[0], per[1], kind.getValue() == "simt"};
  t.warpgroup = kind.getValue() == "wgmma";
  t.slices = slices.getInt();
  t.stages = stages.getInt();
  t.prefetch = prefetch.getInt();
  t.asyncCopy = async.getValue();
  return t;
}

/// Rows of C staged in workgroup memory at a time: the whole tile of tiles
/// up to 64x64 (with asynchronous copies, which make room for more copies
/// of the A and B tiles instead, one fragment row's), or for larger ones
/// one warp row's (a 128x128 f32 tile alone would take more than the
/// 48 KiB of static workgroup memory), or with two copies of the A and B
/// tiles one fragment row's.
int64_t stagedRows(const Tiling &t) {
  if (t.tileM() <= 64 && t.tileN() <= 64 && !t.asyncCopy)
    return t.tileM();
  return t.stages > 1 ? kFragment : t.perM * kFragment;
}

/// One of the dimensions an operand's index splits into: its extent, and
/// its stride in the operand's buffer.
struct Factor {
  int64_t extent, stride;
};

/// Where the elements of an operand that is not dense and row-major are in
/// its buffer: an offset, and the factors (outermost first) that each of
/// its indices splits into — the batch, the rows (A: m, B: k) and the
/// columns (A: k, B: n). An operand read through a transpose the kernel
/// takes the place of (foldedTranspose): BERT's heads, read out of the QKV
/// projection's result where they are every 64 columns of a 2304-wide row.
struct Layout {
  int64_t offset = 0;
  SmallVector<Factor, 2> batch, rows, cols;
  /// Whether the operand's rows, not its columns, are consecutive in
  /// memory: B read K-major (a transposed K in attention's Q K^T).
  bool rowsContiguous() const { return rows.back().stride == 1; }
};

/// A contraction as a batch of GEMMs C[b] += A[b] x B[b], C dense row-major
/// [M, N] per batch; B dense row-major [K, N] per batch, or as `bLayout`
/// says; A given by where element (m, k) of batch b is in its buffer
/// (consecutive k in a row of a matmul, or in one filter position of a
/// convolution, are consecutive in memory; a matmul's A as `aLayout` says
/// when it has one).
struct Gemm {
  int64_t batch, m, n, k;
  Type element; // of A and B: f16, or f32 (read as tf32 on tensor cores)
  // Convolution geometry (implicit GEMM); kh == 0 for a plain matmul.
  int64_t oh = 0, ow = 0, kh = 0, kw = 0, c = 0, inH = 0, inW = 0;
  // Where the input starts in its buffer (a subview of it: ONNX padding
  // that TOSA expresses as a slice, say).
  int64_t offN = 0, offH = 0, offW = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  std::optional<Layout> aLayout = std::nullopt, bLayout = std::nullopt;
  /// B's tiles are read K-major (only the warpgroup kernel can).
  bool kMajorB() const { return bLayout && bLayout->rowsContiguous(); }
};

/// The element type of A and B when `op` takes f16 or f32 operands (both
/// the same) into an f32 result, else null.
Type operandType(linalg::LinalgOp op) {
  auto type = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  Type a = type(op.getDpsInputs()[0]);
  if (a != type(op.getDpsInputs()[1]) || !type(op.getDpsInits()[0]).isF32() ||
      !(a.isF16() || a.isF32()))
    return {};
  return a;
}

/// Elements per 16-byte vector of `t`.
int64_t vectorWidth(Type t) { return kBytes * 8 / t.getIntOrFloatBitWidth(); }

/// Whether A can be read in 16-byte vectors along K: its rows (a
/// convolution's filter positions) are whole vectors.
bool vectorA(const Gemm &g) {
  return (g.kh ? g.c : g.k) % vectorWidth(g.element) == 0;
}

bool hasStaticShapes(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return !shaped || shaped.hasStaticShape();
  });
}

/// A linalg.generic contraction (multiply-add, through casts) whose
/// operands are row-major batches of matrices once their dimensions are
/// grouped: A [batch..., m..., k...], B [batch..., k..., n...],
/// C [batch..., m..., n...]. What a batch matmul becomes when reshapes are
/// propagated through it, or when an operand's transpose or reshape is
/// folded into its indexing map so that it needs no copy (BERT's attention
/// output projection reads [s, heads, d] against [heads, d, hidden]).
std::optional<Gemm> genericGemmOf(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  Type element = operandType(op);
  if (!element)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto dimsOf = [](AffineMap map) -> std::optional<SmallVector<unsigned>> {
    SmallVector<unsigned> dims;
    for (AffineExpr e : map.getResults()) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d)
        return std::nullopt;
      dims.push_back(d.getPosition());
    }
    return dims;
  };
  auto a = dimsOf(maps[0]), b = dimsOf(maps[1]), c = dimsOf(maps[2]);
  if (!a || !b || !c)
    return std::nullopt;
  // Batch dimensions are in all three, m in A and C, n in B and C, k in A
  // and B; C fixes the order of batch, m and n, A that of k.
  SmallVector<unsigned> batch, m, n, k;
  for (unsigned d : *c) {
    bool inA = llvm::is_contained(*a, d), inB = llvm::is_contained(*b, d);
    if (inA && inB)
      batch.push_back(d);
    else if (inA)
      m.push_back(d);
    else if (inB)
      n.push_back(d);
    else
      return std::nullopt;
  }
  for (unsigned d : *a)
    if (!llvm::is_contained(*c, d))
      k.push_back(d);
  auto concat = [](std::initializer_list<ArrayRef<unsigned>> parts) {
    SmallVector<unsigned> all;
    for (ArrayRef<unsigned> p : parts)
      all.append(p.begin(), p.end());
    return all;
  };
  if (*c != concat({batch, m, n}) || *a != concat({batch, m, k}) ||
      *b != concat({batch, k, n}) ||
      batch.size() + m.size() + n.size() + k.size() != op.getNumLoops())
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto product = [&](ArrayRef<unsigned> dims) {
    int64_t p = 1;
    for (unsigned d : dims)
      p *= ranges[d];
    return p;
  };
  if (m.empty() || n.empty() || k.empty())
    return std::nullopt;
  return Gemm{product(batch), product(m), product(n), product(k), element};
}

std::optional<Gemm> gemmOf(Operation *op) {
  if (!hasStaticShapes(op))
    return std::nullopt;
  auto shape = [&](unsigned i) {
    return cast<ShapedType>(op->getOperand(i).getType()).getShape();
  };
  if (auto mm = dyn_cast<linalg::BatchMatmulOp>(op)) {
    // The default maps: no transposed or broadcast operand.
    Type element = operandType(mm);
    if (!element ||
        mm.getIndexingMapsArray() !=
            linalg::BatchMatmulOp::getDefaultIndexingMaps(op->getContext()))
      return std::nullopt;
    auto a = shape(0), c = shape(2);
    if (a[0] != c[0] || shape(1)[0] != c[0])
      return std::nullopt;
    return Gemm{c[0], c[1], c[2], a[2], element};
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return genericGemmOf(generic);
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op)) {
    Type element = operandType(conv);
    if (!element)
      return std::nullopt;
    auto in = shape(0), f = shape(1), out = shape(2);
    Gemm g{1, out[0] * out[1] * out[2], out[3], f[0] * f[1] * f[2], element};
    g.oh = out[1];
    g.ow = out[2];
    g.kh = f[0];
    g.kw = f[1];
    g.c = f[2];
    g.inH = in[1];
    g.inW = in[2];
    SmallVector<int64_t> s(conv.getStrides().getValues<int64_t>());
    SmallVector<int64_t> d(conv.getDilations().getValues<int64_t>());
    g.strideH = s[0];
    g.strideW = s[1];
    g.dilationH = d[0];
    g.dilationW = d[1];
    return g;
  }
  return std::nullopt;
}

/// The largest tiling that still fills the GPU (a block or more per
/// multiprocessor, and 4 warps or more each), among those whose tiles are
/// three quarters C's elements or more when there are such; one whose rows
/// and columns divide M and N preferred (the last row or column tile is
/// otherwise cut, as is the last K step of a K that is not a multiple of
/// 32). With `split`, a GEMM no tiling fills the GPU with (few rows and
/// columns, a long K) gets the largest tiling that does with K split into
/// slices of 8 steps or more; else the smallest tiling. None when N is not
/// a multiple of a 16-byte vector. With `large`, f16 GEMMs may get 128x128
/// or 128x64 tiles (8 warps of 32x64 or 32x32): twice the products per
/// byte loaded of 64x64 ones. On CUDA cores (`simt`), 64x128 to 16x32
/// tiles of 128 threads or fewer, 8x8 or 4x4 elements each, with K split
/// more readily (below).
std::optional<Tiling> chooseTiling(const Gemm &g, const TargetInfo &target,
                                   bool simt, bool large = false,
                                   bool split = false) {
  const int64_t sms = target.multiprocessors;
  // B and C are read in 16-byte vectors along their rows.
  if (g.n % vectorWidth(g.element) != 0)
    return std::nullopt;
  static const Tiling tensorCores[] = {
      {4, 2, 2, 4}, {4, 2, 2, 2}, {2, 2, 2, 2}, {2, 2, 1, 2}, {2, 2, 1, 1}};
  // No 256-thread tiles on CUDA cores: in the tiling sweep
  // (benchmarks/gemm_tilings.py, H200) 128-thread ones were faster on every
  // shape of BERT's matmuls, more of them fitting on a multiprocessor.
  static const Tiling cudaCores[] = {{8, 16, 2, 2, true}, {16, 8, 2, 2, true},
                                     {8, 8, 2, 2, true},  {8, 16, 1, 1, true},
                                     {8, 8, 1, 1, true},  {4, 8, 1, 1, true}};
  auto blocks = [&](const Tiling &t, int64_t slices) -> int64_t {
    return slices * g.batch * llvm::divideCeil(g.m, t.tileM()) *
           llvm::divideCeil(g.n, t.tileN());
  };
  auto fills = [&](const Tiling &t, int64_t slices,
                   int64_t warpsPerSm = kMinWarpsPerSm) {
    return blocks(t, slices) >= sms &&
           blocks(t, slices) * t.threads() >= warpsPerSm * sms * kWarpSize;
  };
  auto divides = [&](const Tiling &t) {
    return g.m % t.tileM() == 0 && g.n % t.tileN() == 0;
  };
  // The share of the tiles' elements that are C's: tiles much taller or
  // wider than C (a 128-row tile for 49 rows) compute mostly nothing.
  auto utilization = [&](const Tiling &t) {
    return double(g.m * g.n) / double(llvm::alignTo(g.m, t.tileM()) *
                                      llvm::alignTo(g.n, t.tileN()));
  };
  SmallVector<Tiling> usable;
  for (const Tiling &t : simt ? ArrayRef(cudaCores) : ArrayRef(tensorCores))
    if (simt || t.threads() <= 128 || (large && g.element.isF16()))
      usable.push_back(t);
  SmallVector<Tiling> efficient = llvm::filter_to_vector(
      usable, [&](const Tiling &t) { return utilization(t) >= 0.75; });
  if (!efficient.empty())
    usable = efficient;
  int64_t steps = llvm::divideCeil(g.k, kTileK);
  auto splits = [&](int64_t slices) {
    return slices == 1 ||
           (steps % slices == 0 && steps / slices >= kMinSliceSteps);
  };
  if (simt) {
    // 8x8 elements per thread do twice the products per element read from
    // workgroup memory of 4x4: the largest such tiling that, K split into
    // up to 4 slices, keeps 10 warps per multiprocessor busy; else the
    // tiling and split with the most warps. (The sweep's best on BERT's
    // shapes, 1.3x the tensor-core rule on them.)
    std::optional<Tiling> most;
    for (Tiling t : usable)
      for (int64_t s = 1; s <= (split ? kMaxSimtSlices : 1); ++s) {
        if (!splits(s))
          continue;
        t.slices = s;
        if (fills(t, s, kSimtWarpsPerSm))
          return t;
        if (!most || blocks(t, s) * t.threads() >
                         blocks(*most, most->slices) * most->threads())
          most = t;
      }
    return most;
  }
  std::optional<Tiling> best;
  for (const Tiling &t : usable)
    if (fills(t, 1) && (!best || (!divides(*best) && divides(t))))
      best = t;
  if (best || usable.empty())
    return best;
  if (split)
    for (Tiling t : usable)
      for (int64_t s = 2; s * kMinSliceSteps <= steps; ++s)
        if (splits(s) && fills(t, s)) {
          t.slices = s;
          return t;
        }
  return usable.back();
}

/// The CUDA-core tiling for SPIR-V kernels (Vulkan), where chooseTiling's
/// choice is not the best: NVIDIA's Vulkan driver gives the 8x8-element
/// threads about 220 registers (219 on BERT's FFN GEMM, by
/// VK_KHR_pipeline_executable_properties on the H200, driver 580; ptxas
/// gives the same kernel 156), so 8 warps fit on a multiprocessor whatever
/// the block, and 256-thread blocks of 128x128 tiles cost no occupancy
/// while reading half the workgroup memory per product of 64x128 ones. A
/// block per multiprocessor at a time, the time goes with the waves of
/// blocks times the K steps of a slice: K split into the slices (up to 4,
/// 8 steps or more each; `split`) that make that least, the fewest at a
/// tie. Taken where the tiles are three quarters C's elements or more and
/// fill the GPU unsplit, or K is long (64 steps or more) and they fill a
/// quarter of it; elsewhere (BERT's batch-1 GEMMs, say) chooseTiling's.
/// Tiling sweep on the H200's Vulkan (benchmarks/gemm_tilings.py --target
/// vulkan; benchmarks/results/vulkan-tilings-2026-12-04/): on BERT's batch-8
/// QKV, FFN-up and FFN-down GEMMs this takes 0.138, 0.155 and 0.175 ms
/// where chooseTiling's took 0.193, 0.241 and 0.260, each within 1.5 % of
/// the sweep's best.
std::optional<Tiling> chooseSpirvTiling(const Gemm &g,
                                        const TargetInfo &target, bool split) {
  const int64_t sms = target.multiprocessors;
  Tiling t{16, 16, 2, 2, true};
  if (g.n % vectorWidth(g.element) != 0)
    return std::nullopt;
  int64_t rows = llvm::divideCeil(g.m, t.tileM());
  int64_t cols = llvm::divideCeil(g.n, t.tileN());
  int64_t tiles = g.batch * rows * cols;
  double utilization =
      double(g.m * g.n) / double(rows * t.tileM() * cols * t.tileN());
  int64_t steps = llvm::divideCeil(g.k, kTileK);
  if (utilization < 0.75 ||
      !(tiles >= sms || (steps >= 64 && 4 * tiles >= sms)))
    return std::nullopt;
  auto cost = [&](int64_t slices) {
    return llvm::divideCeil(tiles * slices, sms) * (steps / slices);
  };
  for (int64_t s = 2; s <= (split ? kMaxSimtSlices : 1); ++s)
    if (steps % s == 0 && steps / s >= kMinSliceSteps &&
        cost(s) < cost(t.slices))
      t.slices = s;
  return t;
}

/// The warpgroup-MMA tiling of `rows` x `cols` (multiples of 64 up to 256:
/// a warpgroup per 64 rows, wgmma's N up to 256).
Tiling warpgroupTiling(int64_t rows, int64_t cols) {
  Tiling t{rows / kFragment, 1, 1, cols / kFragment};
  t.stages = kWarpgroupStages;
  t.prefetch = kWarpgroupStages - 1;
  t.asyncCopy = true;
  t.warpgroup = true;
  return t;
}

/// Warpgroup MMA's tiling (f16 with A in whole vectors), from the sweep of
/// its tilings on BERT's matmul shapes and 4096^3 (benchmarks/
/// gemm_tilings.py --warpgroup, H200): the largest of 128x128, 64x128 and
/// 64x64 whose blocks are two or more per multiprocessor (128x128 only at
/// 4096^3, 64x128 for BERT's b8 FFN up and QKV), else 64x64 (64x128 for a
/// matmul whose 64x64 blocks would take twice the rounds); where that
/// leaves multiprocessors idle and `split`, K in as many slices of 16 steps
/// or more as keep the blocks within one per multiprocessor (BERT's b1 FFN
/// down: 3; the b1 projections, 12 steps, were faster unsplit). 3 copies of
/// the tiles were best or within 5 % everywhere. The kernel was faster than
/// the WMMA one on every shape swept, by 1.4-2x on BERT's b1 ones; none for
/// GEMMs whose rows fill less than half a 64-row tile (a GEMV), nor for
/// convolutions whose tiles leave multiprocessors idle (below).
std::optional<Tiling> chooseWarpgroupTiling(const Gemm &g,
                                            const TargetInfo &target,
                                            bool split) {
  const int64_t sms = target.multiprocessors;
  if (!g.element.isF16() || !vectorA(g) || g.n % vectorWidth(g.element) != 0 ||
      2 * g.m < 64)
    return std::nullopt;
  const Tiling tilings[] = {warpgroupTiling(128, 128),
                            warpgroupTiling(64, 128), warpgroupTiling(64, 64)};
  auto blocks = [&](const Tiling &t) -> int64_t {
    return g.batch * llvm::divideCeil(g.m, t.tileM()) *
           llvm::divideCeil(g.n, t.tileN());
  };
  const Tiling *chosen = llvm::find_if(
      tilings, [&](const Tiling &x) { return blocks(x) >= 2 * sms; });
  Tiling t = chosen != std::end(tilings) ? *chosen : tilings[2];
  // A matmul whose 64x64 tiles take two rounds of the multiprocessors where
  // 64x128 ones take one (BERT's b8 N = 768 GEMMs: 192 blocks against 96)
  // has the wider tiles: FFN down (1024x768x3072) 0.0227 -> 0.0193 ms,
  // attention output (1024x768x768) 0.0095 -> 0.0090 (H100, benchmarks/
  // results/gemm-tilings-2026-12-06/sweep7-n768-h100.md).
  auto rounds = [&](const Tiling &x) -> int64_t {
    return llvm::divideCeil(blocks(x), sms);
  };
  if (chosen == std::end(tilings) && g.kh == 0 &&
      2 * blocks(tilings[1]) >= sms && rounds(t) >= 2 * rounds(tilings[1]))
    t = tilings[1];
  int64_t steps = llvm::divideCeil(g.k, kWarpgroupK);
  if (split && blocks(t) < sms)
    for (int64_t s = 2; steps / s >= kMinWarpgroupSliceSteps; ++s)
      if (steps % s == 0 && blocks(t) * s <= sms)
        t.slices = s;
  // Convolutions (not swept) only where their blocks fill the GPU: on
  // ResNet-50 b1 in fp16 (H200) 0.441 ms that way, 0.511 ms with also its
  // layers whose 64x64 tiles leave multiprocessors idle (two runs).
  if (g.kh != 0 && blocks(t) * t.slices < sms)
    return std::nullopt;
  return t;
}

/// The buffer `v` is an expand/collapse_shape view of (itself if none), when
/// it is dense with an identity layout, so that element (i, j, k) of `v` is
/// element i*J*K + j*K + k of that buffer in row-major order.
Value denseRoot(Value v) {
  auto isDense = [](Value x) {
    auto t = dyn_cast<MemRefType>(x.getType());
    return t && t.hasStaticShape() && t.getLayout().isIdentity();
  };
  if (!isDense(v))
    return {};
  while (Operation *def = v.getDefiningOp()) {
    Value src;
    if (auto e = dyn_cast<memref::ExpandShapeOp>(def))
      src = e.getSrc();
    else if (auto c = dyn_cast<memref::CollapseShapeOp>(def))
      src = c.getSrc();
    else
      break;
    if (!isDense(src))
      return {};
    v = src;
  }
  return v;
}

/// The dense buffer a convolution's input is a unit-stride subview of
/// (all channels), with `g`'s input geometry set to that buffer's; or the
/// input's own dense root.
Value convInputRoot(Value input, Gemm &g) {
  auto view = input.getDefiningOp<memref::SubViewOp>();
  if (!view)
    return denseRoot(input);
  auto source = cast<MemRefType>(view.getSource().getType());
  ArrayRef<int64_t> offsets = view.getStaticOffsets();
  if (ShapedType::isDynamicShape(offsets) ||
      ShapedType::isDynamicShape(view.getStaticSizes()) ||
      llvm::any_of(view.getStaticStrides(),
                   [](int64_t s) { return s != 1; }) ||
      view.getType().getRank() != 4 || offsets[3] != 0 ||
      view.getStaticSizes()[3] != source.getDimSize(3))
    return {};
  g.inH = source.getDimSize(1);
  g.inW = source.getDimSize(2);
  g.offN = offsets[0];
  g.offH = offsets[1];
  g.offW = offsets[2];
  return denseRoot(view.getSource());
}

/// The kernel's index arithmetic, in one place.
struct IndexBuilder {
  ImplicitLocOpBuilder &b;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, c(y)) : x; }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, x, c(y)).getResult();
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, x, c(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return y == 1 ? c(0) : arith::RemUIOp::create(b, x, c(y)).getResult();
  }
  Value min(Value x, int64_t y) { return arith::MinUIOp::create(b, x, c(y)); }
  Value lt(Value x, int64_t y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, c(y));
  }
  /// Both conditions, either of which may be absent (null: true).
  Value both(Value x, Value y) {
    if (!x || !y)
      return x ? x : y;
    return arith::AndIOp::create(b, x, y);
  }
};

/// A one-dimensional view of the whole of `root`, made inside the kernel.
Value flatView(ImplicitLocOpBuilder &b, Value root) {
  auto type = cast<MemRefType>(root.getType());
  auto flat = MemRefType::get({type.getNumElements()}, type.getElementType());
  return memref::ReinterpretCastOp::create(b, flat, root, 0,
                                           {type.getNumElements()}, {1});
}

/// Where element (row, col) of batch `batch` of an operand laid out as
/// `layout` is.
Value layoutOffset(IndexBuilder &ix, const Layout &layout, Value batch,
                   Value row, Value col) {
  Value offset = ix.c(layout.offset);
  auto add = [&](ArrayRef<Factor> factors, Value index) {
    int64_t inner = 1;
    for (auto [i, f] : llvm::enumerate(llvm::reverse(factors))) {
      Value x = ix.div(index, inner);
      if (i + 1 != factors.size())
        x = ix.rem(x, f.extent);
      offset = ix.add(offset, ix.mul(x, f.stride));
      inner *= f.extent;
    }
  };
  add(layout.batch, batch);
  add(layout.rows, row);
  add(layout.cols, col);
  return offset;
}

/// Where element (m, k) of A is, for batch `batch`; `m` is a valid row.
Value aOffset(IndexBuilder &ix, const Gemm &g, Value batch, Value m,
              Value k) {
  if (g.aLayout)
    return layoutOffset(ix, *g.aLayout, batch, m, k);
  if (g.kh == 0)
    return ix.add(ix.mul(batch, g.m * g.k), ix.add(ix.mul(m, g.k), k));
  // m = (n, y, x) over the output, k = (i, j, ch) over the filter; the input
  // is NHWC and already padded.
  Value n = ix.div(m, g.oh * g.ow);
  Value y = ix.div(ix.rem(m, g.oh * g.ow), g.ow);
  Value x = ix.rem(m, g.ow);
  Value i = ix.div(k, g.kw * g.c);
  Value j = ix.rem(ix.div(k, g.c), g.kw);
  Value ch = ix.rem(k, g.c);
  Value row = ix.add(ix.add(ix.mul(ix.add(n, g.offN), g.inH),
                            ix.add(ix.mul(y, g.strideH), g.offH)),
                     ix.mul(i, g.dilationH));
  Value col = ix.add(ix.add(ix.mul(x, g.strideW), g.offW),
                     ix.mul(j, g.dilationW));
  return ix.add(ix.mul(ix.add(ix.mul(row, g.inW), col), g.c), ch);
}

/// The tiles' layout in workgroup memory, shared by the kernel and the
/// estimate of its size (workgroupBytes). Tensor cores read the A tile as
/// [row][k]; CUDA cores as [k][row] (transposed as it is staged), so that a
/// thread's 4 rows at one k are one vector. Rows are padded by 16 bytes (A
/// and B) or 4 floats (C) to spread them over the memory banks.
int64_t rowsA(const Tiling &t) { return t.simt ? kTileK : t.tileM(); }
int64_t ldA(const Tiling &t, Type element) {
  return (t.simt ? t.tileM() : kTileK) + vectorWidth(element);
}
int64_t ldB(const Tiling &t, Type element) {
  return t.tileN() + vectorWidth(element);
}
int64_t ldC(const Tiling &t) { return t.tileN() + kCPadding; }

/// Whether C goes through workgroup memory: on tensor cores, for an
/// epilogue or a cut last tile (on CUDA cores each thread has its elements
/// of C itself).
bool stagesC(const Gemm &g, const Tiling &t, bool epilogue) {
  return !t.simt && (epilogue || g.m % t.tileM() != 0 || g.n % t.tileN() != 0);
}

/// Workgroup memory of the kernel for `g` with tiling `t` (and an
/// epilogue, which stages C on tensor cores), as KernelBuilder lays it out.
int64_t workgroupBytes(const Gemm &g, const Tiling &t, bool epilogue) {
  int64_t bytes = t.stages *
                  (rowsA(t) * ldA(t, g.element) + kTileK * ldB(t, g.element)) *
                  g.element.getIntOrFloatBitWidth() / 8;
  if (stagesC(g, t, epilogue))
    bytes += stagedRows(t) * ldC(t) * 4;
  return bytes;
}

Tiling withStages(Tiling t, int64_t stages) {
  t.stages = stages;
  return t;
}

/// Whether the tiles of `g` can be copied asynchronously with tiling `t`:
/// on tensor cores, whole 16-byte vectors of A, no cut K step or column
/// tile (whose loads read zeros past the end).
bool asyncCopyFits(const Gemm &g, const Tiling &t) {
  return !t.simt && vectorA(g) && g.k % kTileK == 0 && g.n % t.tileN() == 0;
}

class KernelBuilder {
public:
  KernelBuilder(ImplicitLocOpBuilder &b, const Gemm &g, const Tiling &t)
      : b(b), ix{b}, g(g), t(t) {}

  /// `epilogue`, if given, is an elementwise op that reads C: it is computed
  /// from the accumulators in place of storing C.
  void build(Value aRoot, Value bRoot, Value cRoot, bool zeroInit,
             linalg::GenericOp epilogue = {});

private:
  ImplicitLocOpBuilder &b;
  IndexBuilder ix;
  const Gemm &g;
  const Tiling &t;
  // Inside the launch. unitM/unitN: where the warp's (tensor cores) or the
  // thread's (CUDA cores) first fragment or group is in the block's tile;
  // cBatch: the batch of C written (with a split K, slice x batch of the
  // partial products); kBegin: where the block's slice of K begins.
  Value thread, batch, cBatch, kBegin, m0, n0, unitM, unitN, a, bm, c, smemA,
      smemB, smemC;
  Value cRoot;
  bool edge = false;  // the last row tile is cut
  bool nEdge = false; // the last column tile is cut
  linalg::GenericOp epilogue;

  /// With two stages: the copy of the tiles this K step reads, and the one
  /// the next step's tiles are written to (the first index of the tiles in
  /// workgroup memory).
  Value readStage, writeStage;

  int64_t vec() const { return vectorWidth(g.element); }
  /// Prefixes `indices` with the copy of the tiles, when there are two.
  SmallVector<Value> staged(Value stage, ValueRange indices) {
    SmallVector<Value> all;
    if (t.stages > 1)
      all.push_back(stage);
    llvm::append_range(all, indices);
    return all;
  }
  int64_t fragK() const { return g.element.isF16() ? 16 : 8; }
  int64_t ldA() const { return onnx_tosa::ldA(t, g.element); }
  int64_t ldB() const { return onnx_tosa::ldB(t, g.element); }
  int64_t ldC() const { return onnx_tosa::ldC(t); }
  int64_t slabRows() const { return stagedRows(t); }
  int64_t slabs() const { return t.tileM() / slabRows(); }
  /// The tile row (column) where this warp's or thread's fragment or group
  /// `i` starts.
  Value rowOf(int64_t i) {
    return ix.add(unitM, i * (t.simt ? t.unitsM * kGroup : kFragment));
  }
  Value colOf(int64_t j) {
    return ix.add(unitN, j * (t.simt ? t.unitsN * kGroup : kFragment));
  }
  /// Whether element (m, n) of C exists (is not in the cut part of the last
  /// row or column tile).
  Value exists(Value m, Value n) {
    Value inside = ix.lt(m, g.m);
    if (nEdge)
      inside = arith::AndIOp::create(b, inside, ix.lt(n, g.n));
    return inside;
  }
  Value cOffset(Value row, Value col) {
    return ix.add(ix.mul(cBatch, g.m * g.n), ix.add(ix.mul(row, g.n), col));
  }
  struct TilePiece {
    Value value, shared, row, col;
  };
  /// Calls `f(row, col)` for the start of each 16-byte vector of a rows x
  /// cols tile that this thread moves (each thread whole vectors).
  void forEachVector(int64_t rows, int64_t cols,
                     function_ref<void(Value, Value)> f);
  /// The row of A for row `row` of the tile: rows past the end of a cut
  /// last tile read the last row (they are not stored).
  Value aRow(Value row) {
    Value m = ix.add(m0, row);
    return edge ? ix.min(m, g.m - 1) : m;
  }
  /// Where element (k, n) of this batch's B is.
  Value bOffset(Value k, Value n) {
    if (g.bLayout)
      return layoutOffset(ix, *g.bLayout, batch, k, n);
    return ix.add(ix.mul(batch, g.k * g.n), ix.add(ix.mul(k, g.n), n));
  }
  SmallVector<TilePiece> loadTiles(Value k0);
  void storeTiles(ArrayRef<TilePiece> pieces);
  Value copyTiles(Value k0, Value stage);
  void copyC(bool toShared, int64_t rowBase = 0);
  SmallVector<Value> initialAccumulators(bool zeroInit);
  SmallVector<Value> multiply(ValueRange acc);
  void store(ValueRange acc);
  void applyEpilogue(Value staged, int64_t rows, int64_t rowBase,
                     int64_t width);
  void epilogueAt(Value m, Value n, function_ref<Value()> accumulated);
  /// The widest run of neighbouring columns of C, up to `most` (a power of
  /// two), that epilogueRowAt can take at columns that are multiples of it.
  int64_t epilogueWidth(int64_t most);
  void epilogueRowAt(Value m, Value n, int64_t width,
                     function_ref<Value(int64_t)> accumulated);
  void epilogueOfVector(Value m, Value n, Value values);
  // CUDA cores: the accumulators are vectors of 4 columns, one per row of
  // each of the thread's groups: (i * 4 + r) * perN + j for row r of group
  // row i, group column j.
  SmallVector<Value> simtAccumulators(bool zeroInit);
  SmallVector<Value> multiplySimt(ValueRange acc);
  void storeSimt(ValueRange acc);
  void buildGemm(Value aRoot, Value bRoot, Value partials, bool zeroInit);
  /// Creates the launch of the GEMM kernel (`sharedBytes` of dynamic
  /// workgroup memory) and moves the builder inside it, with the block's
  /// indices set.
  gpu::LaunchOp enterGemmLaunch(ArrayRef<Type> buffers, int64_t sharedBytes,
                                Value aRoot, Value bRoot, Value partials);
  int64_t sliceK() const { return llvm::alignTo(g.k, t.stepK()) / t.slices; }
  // Warpgroup MMA.
  void buildWarpgroupGemm(Value aRoot, Value bRoot, Value partials,
                          bool zeroInit);
  Value copyWarpgroupTiles(Value k0, Value stageStart, Value live = {},
                           bool withA = true);
  struct TileMemory {
    Value raw, first, tiles;
  };
  TileMemory tileMemory(int64_t bytes);
  Value descriptor(Value byteAddress, int64_t leading, int64_t stride);
  Type accumulatorType();
  Value multiplyStep(Value acc, Value start, Value warpgroupRows);
  void storeWarpgroupResult(Value acc, Value raw);
  /// Calls `f(row, col, r)` for each pair of neighbouring columns (row,
  /// col), (row, col + 1) of the block's tile of C whose accumulators are
  /// elements r and r + 1 of this thread's.
  std::pair<Value, Value> accumulatorOrigin();
  void forEachAccumulatorPair(function_ref<void(Value, Value, int64_t)> f);
  void buildSliceSum(Value partials);

public:
  /// Attention as one kernel (see buildAttention's comment): this builder
  /// Q K^T's, `pv` P V's.
  void buildAttention(KernelBuilder &pv, RowKernel &softmax, Value qRoot,
                      Value kRoot, Value sRoot, Value pRoot, Value vRoot,
                      Value oRoot, linalg::GenericOp epilogue);
};

void KernelBuilder::forEachVector(int64_t rows, int64_t cols,
                                  function_ref<void(Value, Value)> f) {
  int64_t perRow = cols / vec();
  for (int64_t i = 0; i < rows * perRow / t.threads(); ++i) {
    Value idx = ix.add(thread, i * t.threads());
    f(ix.div(idx, perRow), ix.mul(ix.rem(idx, perRow), vec()));
  }
}

/// Loads the A and B tiles at K offset `k0` from global memory, each thread
/// whole 16-byte vectors; storeTiles puts them in workgroup memory.
SmallVector<KernelBuilder::TilePiece> KernelBuilder::loadTiles(Value k0) {
  SmallVector<TilePiece> pieces;
  auto vecType = VectorType::get({vec()}, g.element);
  Value zero = arith::ConstantOp::create(
      b, DenseElementsAttr::get(vecType, b.getZeroAttr(g.element)));
  // `source` loads the vector that starts at (row, col) of the tile.
  auto load = [&](int64_t rows, int64_t cols, Value shared,
                  function_ref<Value(Value, Value)> source) {
    forEachVector(rows, cols, [&](Value row, Value col) {
      pieces.push_back({source(row, col), shared, row, col});
    });
  };
  // Past the end of K (the last step of a K that is not a multiple of the
  // step) A and B read as zero; the loads themselves stay in bounds.
  bool kEdge = g.k % kTileK != 0;
  auto below = [&](Value x, int64_t bound) { return ix.lt(x, bound); };
  // `v` where `inside`, else zeros (a condition per element: SPIR-V before
  // 1.4 has no vector select on one condition).
  auto orZero = [&](Value inside, Value v) -> Value {
    auto mask = VectorType::get({vec()}, b.getI1Type());
    return arith::SelectOp::create(
        b, vector::BroadcastOp::create(b, mask, inside), v, zero);
  };
  load(t.tileM(), kTileK, smemA, [&](Value row, Value col) -> Value {
    Value m = aRow(row);
    Value k = ix.add(k0, col);
    if (vectorA(g)) {
      Value v = vector::LoadOp::create(
          b, vecType, a,
          ValueRange{aOffset(ix, g, batch, m, kEdge ? ix.min(k, g.k - vec())
                                                    : k)},
          /*nontemporal=*/false, llvm::Align(16));
      return kEdge ? orZero(below(k, g.k), v) : v;
    }
    // Element by element: a convolution over channels that do not make
    // whole vectors (an RGB image's 3), a K that does not.
    SmallVector<Value> elements;
    for (int64_t e = 0; e < vec(); ++e) {
      Value ke = ix.add(k, e);
      Value x = memref::LoadOp::create(
          b, a,
          ValueRange{aOffset(ix, g, batch, m, kEdge ? ix.min(ke, g.k - 1)
                                                    : ke)});
      if (kEdge)
        x = arith::SelectOp::create(
            b, below(ke, g.k), x,
            arith::ConstantOp::create(b, b.getZeroAttr(g.element)));
      elements.push_back(x);
    }
    return vector::FromElementsOp::create(b, vecType, elements);
  });
  // Columns past the end of N (the last column tile cut) read as zero.
  bool nEdge = g.n % t.tileN() != 0;
  load(kTileK, t.tileN(), smemB, [&](Value row, Value col) -> Value {
    Value k = ix.add(k0, row);
    Value n = ix.add(n0, col);
    Value offset = bOffset(kEdge ? ix.min(k, g.k - 1) : k,
                           nEdge ? ix.min(n, g.n - vec()) : n);
    Value v = vector::LoadOp::create(b, vecType, bm, ValueRange{offset},
                                     /*nontemporal=*/false, llvm::Align(16));
    Value kInside = kEdge ? below(k, g.k) : Value();
    Value nInside = nEdge ? below(n, g.n) : Value();
    Value inside = ix.both(kInside, nInside);
    return inside ? orZero(inside, v) : v;
  });
  return pieces;
}

/// Starts asynchronous copies of the A and B tiles at K offset `k0` into
/// copy `stage` of them in workgroup memory, each thread whole 16-byte
/// vectors, and returns their group. Only for GEMMs without a cut K step or
/// column tile (asyncCopyFits).
Value KernelBuilder::copyTiles(Value k0, Value stage) {
  Type token = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> copies;
  auto copy = [&](int64_t rows, int64_t cols, Value shared, Value source,
                  function_ref<Value(Value, Value)> offset) {
    forEachVector(rows, cols, [&](Value row, Value col) {
      copies.push_back(nvgpu::DeviceAsyncCopyOp::create(
          b, token, shared, staged(stage, {row, col}), source,
          ValueRange{offset(row, col)}, b.getIndexAttr(vec()),
          /*srcElements=*/Value(), /*bypassL1=*/b.getUnitAttr()));
    });
  };
  copy(t.tileM(), kTileK, smemA, a, [&](Value row, Value col) {
    return aOffset(ix, g, batch, aRow(row), ix.add(k0, col));
  });
  copy(kTileK, t.tileN(), smemB, bm, [&](Value row, Value col) {
    return bOffset(ix.add(k0, row), ix.add(n0, col));
  });
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, token, copies);
}

void KernelBuilder::storeTiles(ArrayRef<TilePiece> pieces) {
  for (const TilePiece &p : pieces) {
    // CUDA cores stage the A tile transposed (see ldA).
    if (!t.simt || p.shared != smemA) {
      vector::StoreOp::create(b, p.value, p.shared,
                              staged(writeStage, {p.row, p.col}),
                              /*nontemporal=*/false, llvm::Align(16));
      continue;
    }
    for (int64_t e = 0; e < vec(); ++e)
      memref::StoreOp::create(b, vector::ExtractOp::create(b, p.value, e),
                              p.shared,
                              staged(writeStage, {ix.add(p.col, e), p.row}));
  }
}

/// The block's tile of C between global memory and `smemC`, 4 floats per
/// thread and step, only the rows that exist; rows past the end read as 0.
void KernelBuilder::copyC(bool toShared, int64_t rowBase) {
  auto vecType = VectorType::get({4}, b.getF32Type());
  int64_t perRow = t.tileN() / 4;
  for (int64_t i = 0; i < slabRows() * perRow / t.threads(); ++i) {
    Value idx = ix.add(thread, i * t.threads());
    Value row = ix.div(idx, perRow);
    Value col = ix.mul(ix.rem(idx, perRow), 4);
    Value m = ix.add(ix.add(m0, rowBase), row);
    Value n = ix.add(n0, col);
    Value global = cOffset(m, n);
    Value inside = exists(m, n);
    OpBuilder::InsertionGuard guard(b);
    if (toShared) {
      auto ifOp = scf::IfOp::create(b, vecType, inside,
                                    /*withElseRegion=*/true);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value loaded = vector::LoadOp::create(b, vecType, c, ValueRange{global});
      scf::YieldOp::create(b, loaded);
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value zero = arith::ConstantOp::create(
          b, DenseElementsAttr::get(vecType, b.getF32FloatAttr(0)));
      scf::YieldOp::create(b, zero);
      b.setInsertionPointAfter(ifOp);
      vector::StoreOp::create(b, ifOp.getResult(0), smemC,
                              ValueRange{row, col});
    } else {
      auto ifOp = scf::IfOp::create(b, TypeRange{}, inside,
                                    /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value v = vector::LoadOp::create(b, vecType, smemC, ValueRange{row, col});
      vector::StoreOp::create(b, v, c, ValueRange{global});
    }
  }
}

SmallVector<Value> KernelBuilder::initialAccumulators(bool zeroInit) {
  Type f32 = b.getF32Type();
  auto fragC = gpu::MMAMatrixType::get({kFragment, kFragment}, f32, "COp");
  SmallVector<Value> init;
  if (zeroInit) {
    Value zero = gpu::SubgroupMmaConstantMatrixOp::create(
        b, fragC, arith::ConstantOp::create(b, b.getF32FloatAttr(0.0f)));
    init.assign(t.perM * t.perN, zero);
    return init;
  }
  bool staged = edge || nEdge;
  if (staged) {
    copyC(/*toShared=*/true);
    gpu::BarrierOp::create(b);
  }
  for (int64_t i = 0; i < t.perM; ++i)
    for (int64_t j = 0; j < t.perN; ++j) {
      Value row = rowOf(i), col = colOf(j);
      init.push_back(
          staged ? gpu::SubgroupMmaLoadMatrixOp::create(
                     b, fragC, smemC, ValueRange{row, col},
                     b.getIndexAttr(ldC()), UnitAttr{})
               : gpu::SubgroupMmaLoadMatrixOp::create(
                     b, fragC, c,
                     ValueRange{cOffset(ix.add(m0, row), ix.add(n0, col))},
                     b.getIndexAttr(g.n), UnitAttr{}));
    }
  return init;
}

/// One K step's products on tensor cores, fragments loaded from the staged
/// tiles.
SmallVector<Value> KernelBuilder::multiply(ValueRange accumulators) {
  auto fragA = gpu::MMAMatrixType::get({kFragment, fragK()}, g.element, "AOp");
  auto fragB = gpu::MMAMatrixType::get({fragK(), kFragment}, g.element, "BOp");
  SmallVector<Value> acc(accumulators);
  for (int64_t kk = 0; kk < kTileK; kk += fragK()) {
    SmallVector<Value> as, bs;
    for (int64_t i = 0; i < t.perM; ++i)
      as.push_back(gpu::SubgroupMmaLoadMatrixOp::create(
          b, fragA, smemA, staged(readStage, {rowOf(i), ix.c(kk)}),
          b.getIndexAttr(ldA()), UnitAttr{}));
    for (int64_t j = 0; j < t.perN; ++j)
      bs.push_back(gpu::SubgroupMmaLoadMatrixOp::create(
          b, fragB, smemB, staged(readStage, {ix.c(kk), colOf(j)}),
          b.getIndexAttr(ldB()), UnitAttr{}));
    for (int64_t i = 0; i < t.perM; ++i)
      for (int64_t j = 0; j < t.perN; ++j) {
        Value &d = acc[i * t.perN + j];
        d = gpu::SubgroupMmaComputeOp::create(b, as[i], bs[j], d, UnitAttr{},
                                              UnitAttr{});
      }
  }
  return acc;
}

void KernelBuilder::store(ValueRange acc) {
  if (!stagesC(g, t, bool(epilogue))) {
    for (int64_t i = 0; i < t.perM; ++i)
      for (int64_t j = 0; j < t.perN; ++j)
        gpu::SubgroupMmaStoreMatrixOp::create(
            b, acc[i * t.perN + j], c,
            ValueRange{cOffset(ix.add(m0, rowOf(i)), ix.add(n0, colOf(j)))},
            b.getIndexAttr(g.n), UnitAttr{});
    return;
  }
  // Staged through workgroup memory one slab of rows at a time: the warps
  // whose fragments hold the slab store them, then every thread takes its
  // share of the slab.
  // Several slabs: the warps of one warp row hold each (their fragment
  // rows inside it, at rows known here).
  int64_t warpRows = t.perM * kFragment;
  for (int64_t s = 0; s < slabs(); ++s) {
    OpBuilder::InsertionGuard guard(b);
    int64_t first = s * slabRows();
    int64_t holder = first / warpRows * warpRows;
    if (slabs() > 1) {
      Value mine = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, unitM,
                                         ix.c(holder));
      auto ifOp = scf::IfOp::create(b, TypeRange{}, mine,
                                    /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    for (int64_t i = 0; i < t.perM; ++i) {
      int64_t row = holder + i * kFragment - first;
      if (slabs() > 1 && (row < 0 || row >= slabRows()))
        continue;
      for (int64_t j = 0; j < t.perN; ++j)
        gpu::SubgroupMmaStoreMatrixOp::create(
            b, acc[i * t.perN + j], smemC,
            ValueRange{slabs() > 1 ? ix.c(row) : rowOf(i), colOf(j)},
            b.getIndexAttr(ldC()), UnitAttr{});
    }
    if (slabs() > 1)
      b.setInsertionPointAfter(b.getInsertionBlock()->getParentOp());
    gpu::BarrierOp::create(b);
    if (epilogue)
      applyEpilogue(smemC, slabRows(), s * slabRows(), /*width=*/1);
    else
      copyC(/*toShared=*/false, s * slabRows());
    if (s + 1 < slabs())
      gpu::BarrierOp::create(b);
  }
}

/// The epilogue's body for `rows` rows of the block's tile of C staged in
/// `staged` ([row][column] f32), the first of them row `rowBase` of the
/// tile: each thread takes runs of `width` neighbouring columns of a row
/// (epilogueWidth), neighbouring threads neighbouring runs.
void KernelBuilder::applyEpilogue(Value staged, int64_t rows, int64_t rowBase,
                                  int64_t width) {
  int64_t runs = t.tileN() / width;
  int64_t total = rows * runs;
  auto loop = scf::ForOp::create(
      b, ix.c(0), ix.c(llvm::divideCeil(total, t.threads())), ix.c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value idx = ix.add(thread, ix.mul(loop.getInductionVar(), t.threads()));
  if (total % t.threads() != 0) {
    auto inside = scf::IfOp::create(b, TypeRange{}, ix.lt(idx, total),
                                    /*withElseRegion=*/false);
    b.setInsertionPoint(inside.thenBlock()->getTerminator());
  }
  Value row = ix.div(idx, runs);
  Value col = ix.mul(ix.rem(idx, runs), width);
  Value m = ix.add(ix.add(m0, rowBase), row);
  Value n = ix.add(n0, col);
  if (edge || nEdge) {
    auto inside = scf::IfOp::create(b, TypeRange{}, exists(m, n),
                                    /*withElseRegion=*/false);
    b.setInsertionPoint(inside.thenBlock()->getTerminator());
  }
  if (width == 1) {
    epilogueAt(m, n, [&]() -> Value {
      return memref::LoadOp::create(b, staged, ValueRange{row, col});
    });
    return;
  }
  epilogueOfVector(m, n,
                   vector::LoadOp::create(
                       b, VectorType::get({width}, b.getF32Type()), staged,
                       ValueRange{row, col}, /*nontemporal=*/false,
                       llvm::Align(std::min<int64_t>(width * 4, kBytes))));
}

/// The epilogue's body for element (m, n) of C, whose accumulated value
/// `accumulated` gives: its other inputs read at the element's indices
/// through their indexing maps, its results stored to its outputs.
void KernelBuilder::epilogueAt(Value m, Value n,
                               function_ref<Value()> accumulated) {
  epilogueRowAt(m, n, 1, [&](int64_t) { return accumulated(); });
}

/// How the lanes of a run of `width` neighbouring columns of C, the first
/// at a multiple of `width` of the epilogue's last loop, reach an operand
/// of it through `map`: all the same element (`Shared`: the last loop is
/// not in the map), `width` consecutive elements of `buffer` whose first
/// is aligned to the run's size (`Vector`: the last loop is its last index
/// alone, with unit stride, and the other strides and the offset are
/// multiples of `width`; buffers start at 16 bytes or more), or otherwise
/// (`Lanes`, element by element).
enum class LaneAccess { Shared, Vector, Lanes };
LaneAccess laneAccess(AffineMap map, Value buffer, int64_t width) {
  unsigned last = map.getNumDims() - 1;
  auto usesLast = [&](AffineExpr e) { return e.isFunctionOfDim(last); };
  if (llvm::none_of(map.getResults(), usesLast))
    return LaneAccess::Shared;
  auto type = cast<MemRefType>(buffer.getType());
  Type element = type.getElementType();
  auto lastIndex = dyn_cast<AffineDimExpr>(map.getResults().back());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (width == 1 || !lastIndex || lastIndex.getPosition() != last ||
      llvm::count_if(map.getResults(), usesLast) != 1 ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset % width != 0 ||
      strides.back() != 1 ||
      llvm::any_of(ArrayRef(strides).drop_back(), [&](int64_t stride) {
        return ShapedType::isDynamic(stride) || stride % width != 0;
      }))
    return LaneAccess::Lanes;
  return LaneAccess::Vector;
}

int64_t KernelBuilder::epilogueWidth(int64_t most) {
  int64_t last = epilogue.getStaticLoopRanges().back();
  int64_t width = most;
  while (width > 1 && (last % width != 0 || g.n % width != 0))
    width /= 2;
  return width;
}

/// The epilogue's body for elements (m, n) to (m, n + width - 1) of C, n a
/// multiple of `width` (epilogueWidth), whose accumulated values
/// `accumulated(lane)` gives: each input read once per run, as one vector,
/// or element by element (laneAccess), the body computed per element, each
/// output written as one vector or element by element. So a thread writes
/// 16 bytes of an f16 C at once where it would write 2.
void KernelBuilder::epilogueRowAt(Value m, Value n, int64_t width,
                                  function_ref<Value(int64_t)> accumulated) {
  SmallVector<int64_t> ranges = epilogue.getStaticLoopRanges();
  // C's element (batch, m, n) is element `flat` of its buffer, and the
  // epilogue iterates over C's shape in the same row-major order; the
  // lanes differ in its last loop only.
  Value rest = cOffset(m, n);
  SmallVector<Value> dims(ranges.size());
  for (int64_t d = ranges.size() - 1; d >= 0; --d) {
    dims[d] = d == 0 ? rest : ix.rem(rest, ranges[d]);
    rest = ix.div(rest, ranges[d]);
  }
  SmallVector<SmallVector<Value>> laneDims(width, dims);
  for (int64_t l = 1; l < width; ++l)
    laneDims[l].back() = ix.add(dims.back(), l);
  // Aligned to the vector's size, or to the 16 bytes the buffers start at.
  auto vectorOf = [&](Type element) {
    int64_t bytes = width * element.getIntOrFloatBitWidth() / 8;
    return std::pair(VectorType::get({width}, element),
                     llvm::Align(std::min(bytes, kBytes)));
  };
  SmallVector<IRMapping> lanes(width);
  for (OpOperand &operand : epilogue->getOpOperands()) {
    BlockArgument arg = epilogue.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    Value buffer = operand.get();
    if (denseRoot(buffer) == cRoot) {
      for (int64_t l = 0; l < width; ++l)
        lanes[l].map(arg, accumulated(l));
      continue;
    }
    AffineMap map = epilogue.getMatchingIndexingMap(&operand);
    switch (laneAccess(map, buffer, width)) {
    case LaneAccess::Shared: {
      Value v = memref::LoadOp::create(b, buffer,
                                       mapIndices(b, b.getLoc(), map, dims));
      for (IRMapping &lane : lanes)
        lane.map(arg, v);
      break;
    }
    case LaneAccess::Vector: {
      auto [type, align] = vectorOf(arg.getType());
      Value v = vector::LoadOp::create(b, type, buffer,
                                       mapIndices(b, b.getLoc(), map, dims),
                                       /*nontemporal=*/false, align);
      for (int64_t l = 0; l < width; ++l)
        lanes[l].map(arg, vector::ExtractOp::create(b, v, l).getResult());
      break;
    }
    case LaneAccess::Lanes:
      for (int64_t l = 0; l < width; ++l)
        lanes[l].map(
            arg, memref::LoadOp::create(
                     b, buffer, mapIndices(b, b.getLoc(), map, laneDims[l])));
      break;
    }
  }
  SmallVector<SmallVector<Value>> results;
  for (int64_t l = 0; l < width; ++l)
    results.push_back(cloneBody(b, epilogue, lanes[l], laneDims[l]));
  for (OpOperand &init : epilogue.getDpsInitsMutable()) {
    AffineMap map = epilogue.getMatchingIndexingMap(&init);
    int64_t i = init.getOperandNumber() - epilogue.getNumDpsInputs();
    if (laneAccess(map, init.get(), width) == LaneAccess::Vector) {
      SmallVector<Value> values;
      for (int64_t l = 0; l < width; ++l)
        values.push_back(results[l][i]);
      auto [type, align] = vectorOf(values.front().getType());
      vector::StoreOp::create(b,
                              vector::FromElementsOp::create(b, type, values),
                              init.get(), mapIndices(b, b.getLoc(), map, dims),
                              /*nontemporal=*/false, align);
      continue;
    }
    for (int64_t l = 0; l < width; ++l)
      memref::StoreOp::create(b, results[l][i], init.get(),
                              mapIndices(b, b.getLoc(), map, laneDims[l]));
  }
}

/// The epilogue for the columns (m, n) to (m, n + k - 1) of C whose
/// accumulated values are the k lanes of `values`, n a multiple of k: in
/// runs as wide as epilogueRowAt can take there.
void KernelBuilder::epilogueOfVector(Value m, Value n, Value values) {
  int64_t lanes = cast<VectorType>(values.getType()).getNumElements();
  int64_t width = epilogueWidth(lanes);
  for (int64_t e = 0; e < lanes; e += width)
    epilogueRowAt(m, ix.add(n, e), width, [&](int64_t l) -> Value {
      return vector::ExtractOp::create(b, values, e + l);
    });
}

SmallVector<Value> KernelBuilder::simtAccumulators(bool zeroInit) {
  auto v4 = VectorType::get({kGroup}, b.getF32Type());
  int64_t count = t.perM * kGroup * t.perN;
  if (zeroInit)
    return SmallVector<Value>(
        count, arith::ConstantOp::create(
                   b, DenseElementsAttr::get(v4, b.getF32FloatAttr(0))));
  SmallVector<Value> init;
  for (int64_t i = 0; i < t.perM; ++i)
    for (int64_t r = 0; r < kGroup; ++r) {
      Value m = ix.add(ix.add(m0, rowOf(i)), r);
      if (edge) // rows past the end are never stored
        m = ix.min(m, g.m - 1);
      for (int64_t j = 0; j < t.perN; ++j) {
        Value n = ix.add(n0, colOf(j));
        if (nEdge) // neither are columns past the end
          n = ix.min(n, g.n - kGroup);
        init.push_back(vector::LoadOp::create(
            b, v4, c, ValueRange{cOffset(m, n)},
            /*nontemporal=*/false, llvm::Align(16)));
      }
    }
  return init;
}

/// One K step's products on CUDA cores: per k, the thread's 4-row vectors
/// of A and 4-column vectors of B from the staged tiles, and an outer
/// product of fused multiply-adds.
SmallVector<Value> KernelBuilder::multiplySimt(ValueRange accumulators) {
  auto v4 = VectorType::get({kGroup}, b.getF32Type());
  SmallVector<Value> acc(accumulators);
  for (int64_t kk = 0; kk < kTileK; ++kk) {
    SmallVector<Value> as, bs;
    for (int64_t i = 0; i < t.perM; ++i)
      as.push_back(vector::LoadOp::create(
          b, v4, smemA, staged(readStage, {ix.c(kk), rowOf(i)}),
          /*nontemporal=*/false, llvm::Align(16)));
    for (int64_t j = 0; j < t.perN; ++j)
      bs.push_back(vector::LoadOp::create(
          b, v4, smemB, staged(readStage, {ix.c(kk), colOf(j)}),
          /*nontemporal=*/false, llvm::Align(16)));
    for (int64_t i = 0; i < t.perM; ++i)
      for (int64_t r = 0; r < kGroup; ++r) {
        Value ar = vector::BroadcastOp::create(
            b, v4, vector::ExtractOp::create(b, as[i], r));
        for (int64_t j = 0; j < t.perN; ++j) {
          Value &d = acc[(i * kGroup + r) * t.perN + j];
          d = vector::FMAOp::create(b, ar, bs[j], d);
        }
      }
  }
  return acc;
}

/// Each thread stores its own elements (4 columns at a time), or computes
/// the epilogue on them (4 columns at a time where it can:
/// epilogueRowAt), only the rows that exist.
void KernelBuilder::storeSimt(ValueRange acc) {
  for (int64_t i = 0; i < t.perM; ++i)
    for (int64_t r = 0; r < kGroup; ++r) {
      OpBuilder::InsertionGuard guard(b);
      Value m = ix.add(ix.add(m0, rowOf(i)), r);
      if (edge) {
        auto inside = scf::IfOp::create(b, TypeRange{}, ix.lt(m, g.m),
                                        /*withElseRegion=*/false);
        b.setInsertionPoint(inside.thenBlock()->getTerminator());
      }
      for (int64_t j = 0; j < t.perN; ++j) {
        OpBuilder::InsertionGuard guard(b);
        Value v = acc[(i * kGroup + r) * t.perN + j];
        Value n = ix.add(n0, colOf(j));
        if (nEdge) { // the thread's 4 columns exist or do not
          auto inside = scf::IfOp::create(b, TypeRange{}, ix.lt(n, g.n),
                                          /*withElseRegion=*/false);
          b.setInsertionPoint(inside.thenBlock()->getTerminator());
        }
        if (!epilogue) {
          vector::StoreOp::create(b, v, c, ValueRange{cOffset(m, n)},
                                  /*nontemporal=*/false, llvm::Align(16));
          continue;
        }
        epilogueOfVector(m, n, v);
      }
    }
}

void KernelBuilder::build(Value aRoot, Value bRoot, Value cRoot,
                          bool zeroInit, linalg::GenericOp epilogue) {
  edge = g.m % t.tileM() != 0;
  nEdge = g.n % t.tileN() != 0;
  this->cRoot = cRoot;
  if (t.slices == 1) {
    this->epilogue = epilogue;
    buildGemm(aRoot, bRoot, /*partials=*/{}, zeroInit);
    return;
  }
  // A split K: the partial products of the slices go to a buffer of their
  // own, [slice][batch][M][N]; the second kernel sums them into C (or
  // applies the epilogue to the sums).
  assert(zeroInit && "a split K starts each slice from zero");
  auto type = MemRefType::get({t.slices * g.batch * g.m * g.n},
                              b.getF32Type());
  Value partials =
      memref::AllocOp::create(b, type, b.getI64IntegerAttr(kBytes));
  buildGemm(aRoot, bRoot, partials, zeroInit);
  this->epilogue = epilogue;
  buildSliceSum(partials);
}

gpu::LaunchOp KernelBuilder::enterGemmLaunch(ArrayRef<Type> buffers,
                                             int64_t sharedBytes, Value aRoot,
                                             Value bRoot, Value partials) {
  Value dynamicBytes;
  if (sharedBytes)
    dynamicBytes = arith::ConstantIntOp::create(b, sharedBytes, 32);
  auto launch = gpu::LaunchOp::create(
      b, ix.c(llvm::divideCeil(g.n, t.tileN())),
      ix.c(llvm::divideCeil(g.m, t.tileM())), ix.c(g.batch * t.slices),
      ix.c(t.threads()), ix.c(1), ix.c(1), dynamicBytes,
      /*asyncTokenType=*/{}, /*asyncDependencies=*/{}, buffers);
  b.setInsertionPointToStart(&launch.getBody().front());
  thread = launch.getThreadIds().x;
  Value z = launch.getBlockIds().z;
  batch = ix.div(z, t.slices);
  Value slice = ix.rem(z, t.slices);
  cBatch = t.slices == 1 ? batch : ix.add(ix.mul(slice, g.batch), batch);
  m0 = ix.mul(launch.getBlockIds().y, t.tileM());
  n0 = ix.mul(launch.getBlockIds().x, t.tileN());
  if (t.simt) {
    unitM = ix.mul(ix.div(thread, t.unitsN), kGroup);
    unitN = ix.mul(ix.rem(thread, t.unitsN), kGroup);
  } else {
    Value warp = ix.div(thread, kWarpSize);
    unitM = ix.mul(ix.div(warp, t.unitsN), t.perM * kFragment);
    unitN = ix.mul(ix.rem(warp, t.unitsN), t.perN * kFragment);
  }
  a = flatView(b, aRoot);
  bm = flatView(b, bRoot);
  c = partials ? partials : cRoot ? flatView(b, cRoot) : Value();
  kBegin = ix.mul(slice, sliceK());
  return launch;
}

/// The GEMM kernel, writing C, or with a split K the slices' partial
/// products to `partials`.
void KernelBuilder::buildGemm(Value aRoot, Value bRoot, Value partials,
                              bool zeroInit) {
  if (t.warpgroup)
    return buildWarpgroupGemm(aRoot, bRoot, partials, zeroInit);
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto shared = [&](int64_t rows, int64_t cols, Type element,
                    int64_t copies = 1) {
    SmallVector<int64_t> shape = {rows, cols};
    if (copies > 1)
      shape.insert(shape.begin(), copies);
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface{},
                           workgroup);
  };
  SmallVector<Type> buffers = {shared(rowsA(t), ldA(), g.element, t.stages),
                               shared(kTileK, ldB(), g.element, t.stages)};
  bool stageC = stagesC(g, t, bool(epilogue));
  if (stageC)
    buffers.push_back(shared(slabRows(), ldC(), f32));

  OpBuilder::InsertionGuard outside(b);
  gpu::LaunchOp launch =
      enterGemmLaunch(buffers, 0, aRoot, bRoot, partials);
  smemA = launch.getWorkgroupAttributions()[0];
  smemB = launch.getWorkgroupAttributions()[1];
  if (stageC)
    smemC = launch.getWorkgroupAttributions()[2];
  int64_t sliceK = this->sliceK();

  // Software pipelining through registers (asynchronous copies below): the
  // tiles of step k + d (`prefetch`) are loaded from global memory into
  // registers before the products of step k, so that their latency overlaps
  // the arithmetic of d steps; they go to workgroup memory during step
  // k + d - 1 (with d > 1 the loop carries the values in between: d - 1
  // steps' worth of registers), once every warp is done reading the copy
  // they replace. Steps past the end reload the last one (min) rather than
  // branch.
  SmallVector<Value> init = t.simt ? simtAccumulators(zeroInit)
                                   : initialAccumulators(zeroInit);
  auto stepAfter = [&](Value step, int64_t ahead) {
    return ix.add(kBegin,
                  ix.min(ix.add(step, ahead * kTileK), sliceK - kTileK));
  };
  size_t numAcc = init.size();
  scf::ForOp loop;
  if (t.asyncCopy) {
    // The copies of step k + S - 1 (S copies of the tiles) start before the
    // products of step k and go to the copy step k - 1 read. Step k waits
    // for its own copies (those of the S - 2 steps after it may still be
    // under way), then one barrier makes them visible to every warp and
    // ensures that every warp is done with step k - 1.
    Value group;
    for (int64_t s = 0; s + 1 < t.stages; ++s)
      group = copyTiles(stepAfter(ix.c(0), s), ix.c(s));
    loop = scf::ForOp::create(b, ix.c(0), ix.c(sliceK), ix.c(kTileK), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value step = ix.div(loop.getInductionVar(), kTileK);
      nvgpu::DeviceAsyncWaitOp::create(b, group,
                                       b.getI32IntegerAttr(t.stages - 2));
      gpu::BarrierOp::create(b);
      copyTiles(stepAfter(loop.getInductionVar(), t.stages - 1),
                ix.rem(ix.add(step, t.stages - 1), t.stages));
      readStage = ix.rem(step, t.stages);
      scf::YieldOp::create(b, multiply(loop.getRegionIterArgs()));
    }
    // The copies of the steps past the end (repeats of the last one).
    nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(0));
  } else {
    writeStage = ix.c(0);
    storeTiles(loadTiles(kBegin));
    // Where each piece goes (the same for every step), and how many.
    SmallVector<TilePiece> layout;
    for (int64_t ahead = 1; ahead < t.prefetch; ++ahead) {
      layout = loadTiles(stepAfter(ix.c(0), ahead));
      for (const TilePiece &p : layout)
        init.push_back(p.value);
    }
    gpu::BarrierOp::create(b);
    loop = scf::ForOp::create(b, ix.c(0), ix.c(sliceK), ix.c(kTileK), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value step = loop.getInductionVar();
      if (t.stages > 1) {
        readStage = ix.rem(ix.div(step, kTileK), 2);
        writeStage = arith::SubIOp::create(b, ix.c(1), readStage);
      }
      SmallVector<TilePiece> loaded = loadTiles(stepAfter(step, t.prefetch));
      ValueRange args = loop.getRegionIterArgs();
      SmallVector<Value> acc = t.simt ? multiplySimt(args.take_front(numAcc))
                                      : multiply(args.take_front(numAcc));
      // With one copy, the next step's tiles overwrite those every warp is
      // still reading; with two, the copy they go to was last read in the
      // step before this one, which every warp has finished.
      if (t.stages == 1)
        gpu::BarrierOp::create(b);
      if (t.prefetch > 1) {
        // The oldest carried step goes to workgroup memory, the others move
        // up, the one just loaded joins them.
        ValueRange carried = args.drop_front(numAcc);
        SmallVector<TilePiece> next = layout;
        for (auto [piece, value] : llvm::zip(next, carried))
          piece.value = value;
        storeTiles(next);
        llvm::append_range(acc, carried.drop_front(layout.size()));
        for (const TilePiece &p : loaded)
          acc.push_back(p.value);
      } else {
        storeTiles(loaded);
      }
      gpu::BarrierOp::create(b);
      scf::YieldOp::create(b, acc);
    }
  }
  ValueRange results = loop.getResults().take_front(numAcc);
  if (t.simt)
    storeSimt(results);
  else
    store(results);
  gpu::TerminatorOp::create(b);
}

/// Warpgroup MMA's layout of a K step's tiles in workgroup memory (f16
/// elements; a copy of them starts at a multiple of kSwizzleBytes): A's
/// tileM rows of 64 (128 bytes), B's 64 rows of tileN as tileN / 64 columns
/// of 64. Each is made of 8-row, 128-byte blocks (1024 bytes; A's in row
/// order, B's column block by column block within each 8 rows of K) in
/// which the 16-byte vector v of row r is stored at vector v ^ r: the
/// 128-byte swizzle, which lets the tensor cores read 8 rows' vector at once
/// without bank conflicts.
int64_t warpgroupStageA(const Tiling &t) { return t.tileM() * kWarpgroupK; }
int64_t warpgroupStage(const Tiling &t) {
  return warpgroupStageA(t) + kWarpgroupK * t.tileN();
}
/// Dynamic workgroup memory of a warpgroup kernel: its copies of the tiles,
/// and room to move their start to a multiple of kSwizzleBytes.
int64_t warpgroupSharedBytes(const Tiling &t) {
  return t.stages * warpgroupStage(t) * 2 + kSwizzleBytes;
}
/// Whether a warpgroup kernel's epilogue takes C through that memory once
/// the products are done (its tile of f32, rows padded by
/// kWarpgroupCPadding floats), where it fits. Each thread then computes
/// the epilogue for runs of up to kWarpgroupEpilogueColumns neighbouring
/// columns and writes them as one vector, where from the accumulators it
/// would write its pairs of columns element by element, a warp's store
/// spanning 8 rows: on BERT's FFN up (1024x3072x768, f16), half of the
/// kernel's warps' time was spent in those stores (Nsight Compute's
/// samples, H100).
bool warpgroupStagedEpilogue(const Tiling &t) {
  return t.tileM() * (t.tileN() + kWarpgroupCPadding) * 4 <=
         warpgroupSharedBytes(t);
}

/// Starts asynchronous copies of the A and B tiles at K offset `k0` into
/// the copy of them that starts at element `stageStart` of `smemA`, in the
/// swizzled layout above, and returns their group. Vectors past the end of
/// K or N are filled with zeros (their source clamped, none of it read),
/// and so is everything where `live` (if given) is false: a step past the
/// end of K, whose copies only keep the count of groups in flight even.
Value KernelBuilder::copyWarpgroupTiles(Value k0, Value stageStart, Value live,
                                        bool withA) {
  Type token = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  bool kEdge = g.k % kWarpgroupK != 0;
  int64_t v = vec(); // 8 f16: 16 bytes
  int64_t rowVectors = kSwizzleBytes / 8 / kBytes;
  // Where vector `vector` (of 8) of row `row` of 128-byte block `block` is.
  auto swizzled = [&](Value block, Value row, Value vector) {
    Value within = ix.rem(row, 8);
    return ix.add(
        ix.mul(block, kSwizzleBytes / 2),
        ix.add(ix.mul(within, kWarpgroupK),
               ix.mul(arith::XOrIOp::create(b, vector, within), v)));
  };
  auto elements = [&](Value inside) -> Value {
    if (!inside)
      return {};
    return arith::SelectOp::create(b, inside, ix.c(v), ix.c(0));
  };
  SmallVector<Value> copies;
  auto copy = [&](Value dst, Value src, Value offset, Value inside) {
    copies.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, token, smemA, ValueRange{dst}, src, ValueRange{offset},
        b.getIndexAttr(v), elements(ix.both(inside, live)),
        /*bypassL1=*/b.getUnitAttr()));
  };
  // A tile of `rows` rows of 64 of K (A, and B read K-major), 8 vectors a
  // row, so that the 8 threads of a quarter warp fill one 128-byte row.
  // `offset(row, k)`: where the vector at K index k of the tile's row is (k
  // clamped to the last whole vector); `rowExists(row)`: whether the row is
  // inside the operand (null: always).
  auto copyKMajor = [&](int64_t rows, Value start, Value source,
                        function_ref<Value(Value, Value)> offset,
                        function_ref<Value(Value)> rowExists) {
    for (int64_t i = 0; i < rows * rowVectors / t.threads(); ++i) {
      Value idx = ix.add(thread, i * t.threads());
      Value row = ix.div(idx, rowVectors);
      Value vector = ix.rem(idx, rowVectors);
      Value k = ix.add(k0, ix.mul(vector, v));
      Value inside = kEdge ? ix.lt(k, g.k) : Value();
      copy(ix.add(start, swizzled(ix.div(row, 8), row, vector)), source,
           offset(row, kEdge ? ix.min(k, g.k - v) : k),
           ix.both(inside, rowExists(row)));
    }
  };
  if (withA)
    copyKMajor(
        t.tileM(), stageStart, a,
        [&](Value row, Value k) { return aOffset(ix, g, batch, aRow(row), k); },
        [](Value) { return Value(); });
  bool nEdge = g.n % t.tileN() != 0;
  Value startB = ix.add(stageStart, warpgroupStageA(t));
  if (g.kMajorB()) {
    // B's columns are the rows of its tile.
    copyKMajor(
        t.tileN(), startB, bm,
        [&](Value row, Value k) {
          Value n = ix.add(n0, row);
          return bOffset(k, nEdge ? ix.min(n, g.n - 1) : n);
        },
        [&](Value row) {
          return nEdge ? ix.lt(ix.add(n0, row), g.n) : Value();
        });
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, token, copies);
  }
  // B: row k of the tile is tileN / 8 vectors, 8 of each column block.
  int64_t perRow = t.tileN() / v;
  for (int64_t i = 0; i < kWarpgroupK * perRow / t.threads(); ++i) {
    Value idx = ix.add(thread, i * t.threads());
    Value row = ix.div(idx, perRow);
    Value vector = ix.rem(idx, perRow);
    // Each 8 rows are tileN / 64 blocks, one per 64 columns.
    Value block = ix.add(ix.mul(ix.div(row, 8), t.tileN() / kWarpgroupK),
                         ix.div(vector, rowVectors));
    Value dst =
        ix.add(startB, swizzled(block, row, ix.rem(vector, rowVectors)));
    Value k = ix.add(k0, row);
    Value n = ix.add(n0, ix.mul(vector, v));
    Value kInside = kEdge ? ix.lt(k, g.k) : Value();
    Value nInside = nEdge ? ix.lt(n, g.n) : Value();
    copy(dst, bm,
         bOffset(kEdge ? ix.min(k, g.k - 1) : k,
                 nEdge ? ix.min(n, g.n - v) : n),
         ix.both(kInside, nInside));
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, token, copies);
}

/// wgmma's accumulator layout (m64nNk16, f32): warp w of the warpgroup
/// holds rows 16w..16w+15; lane l rows l/4 and l/4 + 8 of them, columns
/// 8j + 2(l%4) and the next of each 8; element 4j + 2i + e of the
/// thread's is row 16w + l/4 + 8i, column 8j + 2(l%4) + e. Returns the
/// thread's first row and column (i = j = e = 0).
std::pair<Value, Value> KernelBuilder::accumulatorOrigin() {
  Value lane = ix.rem(thread, kWarpSize);
  Value row =
      ix.add(ix.mul(ix.div(thread, kWarpSize), kFragment), ix.div(lane, 4));
  return {row, ix.mul(ix.rem(lane, 4), 2)};
}

void KernelBuilder::forEachAccumulatorPair(
    function_ref<void(Value, Value, int64_t)> f) {
  auto [row, col] = accumulatorOrigin();
  for (int64_t j = 0; j < t.tileN() / 8; ++j)
    for (int64_t i = 0; i < 2; ++i)
      f(ix.add(row, 8 * i), ix.add(col, 8 * j), 4 * j + 2 * i);
}

/// The GEMM on sm_90a's warpgroup MMA: each warpgroup of the block
/// multiplies its 64 rows of the tile by the tile's tileN columns with one
/// wgmma.mma_async per 16 of K, reading A and B from workgroup memory
/// through descriptors, accumulating in registers. The tiles are copied
/// asynchronously (cp.async), `prefetch` K steps ahead; each step waits for
/// its own copies, fences them for the tensor cores' (async) proxy, passes
/// a barrier (so every warpgroup is also done with the products whose copy
/// of the tiles the next copies overwrite), starts its products, starts the
/// copies of a later step while they run, then waits for them, or for all
/// but the last stages - 1 - prefetch steps' of them. C is stored straight
/// from the accumulators; an epilogue is applied to C staged in the
/// workgroup memory of the tiles where it fits (warpgroupStagedEpilogue).
void KernelBuilder::buildWarpgroupGemm(Value aRoot, Value bRoot, Value partials,
                                       bool zeroInit) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  int64_t bytes = warpgroupSharedBytes(t);
  OpBuilder::InsertionGuard outside(b);
  enterGemmLaunch({}, bytes, aRoot, bRoot, partials);
  int64_t sliceK = this->sliceK();

  TileMemory memory = tileMemory(bytes);
  Value raw = memory.raw, first = memory.first, tiles = memory.tiles;
  int64_t stage = warpgroupStage(t);
  auto stageStart = [&](Value s) { return ix.add(first, ix.mul(s, stage)); };

  Value warpgroupRows =
      ix.mul(ix.div(thread, kWarpgroupThreads), 8 * kSwizzleBytes);
  // Accumulators: tileN / 2 floats per thread, as the instruction's struct.
  Type accType = accumulatorType();
  Value init = LLVM::ZeroOp::create(b, accType);
  if (!zeroInit) {
    // From C: rows and columns past the ends read the last ones (their
    // products are not stored).
    auto pairType = VectorType::get({2}, f32);
    forEachAccumulatorPair([&](Value row, Value col, int64_t r) {
      Value m = ix.add(m0, row), n = ix.add(n0, col);
      Value pair = vector::LoadOp::create(
          b, pairType, c,
          ValueRange{cOffset(edge ? ix.min(m, g.m - 1) : m,
                             nEdge ? ix.min(n, g.n - 2) : n)});
      for (int64_t e = 0; e < 2; ++e)
        init = LLVM::InsertValueOp::create(
            b, init, vector::ExtractOp::create(b, pair, e), r + e);
    });
  }
  auto stepAfter = [&](Value step, int64_t ahead) {
    return ix.add(kBegin, ix.min(ix.add(step, ahead * kWarpgroupK),
                                 sliceK - kWarpgroupK));
  };
  // The copies of the tiles hold the `prefetch` steps being copied, the
  // step being multiplied, and the steps before it whose products may
  // still be running (`running`: the copies of a step go to the copy that
  // the products of step k - 1 - running read, which every warpgroup has
  // waited for before the step's barrier).
  int64_t running = t.stages - 1 - t.prefetch;
  // Copies of a step past the end (K at `k` of the slice) read nothing.
  auto live = [&](Value k) { return ix.lt(k, sliceK); };
  Value group;
  for (int64_t s = 0; s < t.prefetch; ++s)
    group = copyWarpgroupTiles(
        stepAfter(ix.c(0), s), stageStart(ix.c(s)),
        s * kWarpgroupK < sliceK
            ? Value()
            : arith::ConstantOp::create(b, b.getBoolAttr(false)).getResult());
  auto loop = scf::ForOp::create(b, ix.c(0), ix.c(sliceK), ix.c(kWarpgroupK),
                                 ValueRange{init});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = ix.div(loop.getInductionVar(), kWarpgroupK);
    nvgpu::DeviceAsyncWaitOp::create(b, group,
                                     b.getI32IntegerAttr(t.prefetch - 1));
    NVVM::FenceProxyOp::create(
        b, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(b);
    NVVM::WgmmaFenceAlignedOp::create(b);
    Value start = ix.add(tiles, ix.mul(ix.rem(step, t.stages), stage * 2));
    Value acc = multiplyStep(loop.getRegionIterArgs()[0], start, warpgroupRows);
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    copyWarpgroupTiles(
        stepAfter(loop.getInductionVar(), t.prefetch),
        stageStart(ix.rem(ix.add(step, t.prefetch), t.stages)),
        live(ix.add(loop.getInductionVar(), t.prefetch * kWarpgroupK)));
    NVVM::WgmmaWaitGroupSyncOp::create(b, running);
    scf::YieldOp::create(b, acc);
  }
  if (running)
    NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  // The copies of the steps past the end (zero fills).
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(0));
  storeWarpgroupResult(loop.getResult(0), raw);
  gpu::TerminatorOp::create(b);
}

/// The warpgroup kernel's `bytes` of dynamic workgroup memory: the buffer,
/// and where its swizzled tiles start, in elements of its f16 view (smemA)
/// and as a byte address. The swizzle is a function of address bits: the
/// tiles start at the first multiple of its period (the address is the
/// shared window's).
KernelBuilder::TileMemory KernelBuilder::tileMemory(int64_t bytes) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value raw = gpu::DynamicSharedMemoryOp::create(
      b, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                         MemRefLayoutAttrInterface{}, workgroup));
  smemA = memref::ViewOp::create(b,
                                 MemRefType::get({bytes / 2}, g.element,
                                                 MemRefLayoutAttrInterface{},
                                                 workgroup),
                                 raw, ix.c(0), ValueRange{});
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, raw);
  Value pad = ix.rem(arith::SubIOp::create(b, ix.c(kSwizzleBytes),
                                           ix.rem(address, kSwizzleBytes)),
                     kSwizzleBytes);
  return {raw, ix.div(pad, 2), ix.add(address, pad)};
}

/// Shared-memory matrix descriptors: the start address, the leading and
/// stride byte offsets, all in units of 16 bytes, and the 128-byte swizzle
/// (1 in bits 62-63). A (K-major): 8-row blocks 1024 bytes apart (the
/// leading offset is unused by the swizzled layout). B (N-major): column
/// blocks of 64 1024 bytes apart, 8-row blocks tileN / 64 x 1024 bytes;
/// K-major (kMajorB), as A, 8 columns a block.
Value KernelBuilder::descriptor(Value byteAddress, int64_t leading,
                                int64_t stride) {
  Type i64 = b.getI64Type();
  Value x = arith::IndexCastOp::create(b, i64, byteAddress);
  x = arith::AndIOp::create(b, x,
                            arith::ConstantIntOp::create(b, i64, 0x3FFFF));
  x = arith::ShRUIOp::create(b, x, arith::ConstantIntOp::create(b, i64, 4));
  uint64_t fields = (uint64_t(leading >> 4) << 16) |
                    (uint64_t(stride >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(
      b, x, arith::ConstantIntOp::create(b, i64, int64_t(fields)));
}

Type KernelBuilder::accumulatorType() {
  return LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(t.tileN() / 2, b.getF32Type()));
}

/// The products of one K step (64) of the tiles that start at byte
/// address `start` (A, then B), added to `acc`: a wgmma.mma_async per 16 of
/// K, each warpgroup its 64 rows (`warpgroupRows`: the byte offset of its
/// first in the A tile).
Value KernelBuilder::multiplyStep(Value acc, Value start, Value warpgroupRows) {
  MLIRContext *ctx = b.getContext();
  int64_t blocksN = t.tileN() / kWarpgroupK;
  for (int64_t kk = 0; kk < kWarpgroupK / kFragment; ++kk) {
    Value descA =
        descriptor(ix.add(ix.add(start, warpgroupRows), kk * kFragment * 2),
                   kBytes, kSwizzleBytes);
    Value startB = ix.add(start, warpgroupStageA(t) * 2);
    Value descB =
        g.kMajorB()
            ? descriptor(ix.add(startB, kk * kFragment * 2), kBytes,
                         kSwizzleBytes)
            : descriptor(ix.add(startB, kk * 2 * blocksN * kSwizzleBytes),
                         kSwizzleBytes, blocksN * kSwizzleBytes);
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, acc.getType(), acc, descA, descB,
        NVVM::MMAShapeAttr::get(ctx, 64, t.tileN(), kFragment),
        NVVM::WGMMATypes::f16, NVVM::WGMMATypes::f16, NVVM::WGMMATypes::f32,
        NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
        NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
        g.kMajorB() ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        /*satfinite=*/NVVM::MMAIntOverflowAttr{});
  }
  return acc;
}

/// C from the accumulators `acc` (every product done): stored, or the
/// epilogue applied to it, through the dynamic workgroup memory `raw`
/// where it fits (warpgroupStagedEpilogue).
void KernelBuilder::storeWarpgroupResult(Value acc, Value raw) {
  Type f32 = b.getF32Type();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  if (epilogue && warpgroupStagedEpilogue(t)) {
    // C goes through the workgroup memory the tiles were in, so that each
    // thread takes runs of neighbouring columns of a row of it.
    Value staged = memref::ViewOp::create(
        b,
        MemRefType::get({t.tileM(), t.tileN() + kWarpgroupCPadding}, f32,
                        MemRefLayoutAttrInterface{}, workgroup),
        raw, ix.c(0), ValueRange{});
    gpu::BarrierOp::create(b); // every thread's copies and products done
    auto pairType = VectorType::get({2}, f32);
    forEachAccumulatorPair([&](Value row, Value col, int64_t r) {
      Value values[2];
      for (int64_t e = 0; e < 2; ++e)
        values[e] = LLVM::ExtractValueOp::create(b, acc, r + e);
      vector::StoreOp::create(
          b, vector::FromElementsOp::create(b, pairType, values), staged,
          ValueRange{row, col}, /*nontemporal=*/false, llvm::Align(8));
    });
    gpu::BarrierOp::create(b);
    applyEpilogue(staged, t.tileM(), /*rowBase=*/0,
                  epilogueWidth(kWarpgroupEpilogueColumns));
    return;
  }
  forEachAccumulatorPair([&](Value row, Value col, int64_t r) {
    Value m = ix.add(m0, row), n = ix.add(n0, col);
    OpBuilder::InsertionGuard guard(b);
    if (edge || nEdge) {
      auto inside = scf::IfOp::create(b, TypeRange{}, exists(m, n),
                                      /*withElseRegion=*/false);
      b.setInsertionPoint(inside.thenBlock()->getTerminator());
    }
    Value values[2];
    for (int64_t e = 0; e < 2; ++e)
      values[e] = LLVM::ExtractValueOp::create(b, acc, r + e);
    if (epilogue) {
      for (int64_t e = 0; e < 2; ++e)
        epilogueAt(m, ix.add(n, e), [&] { return values[e]; });
      return;
    }
    vector::StoreOp::create(
        b, vector::FromElementsOp::create(b, VectorType::get({2}, f32), values),
        c, ValueRange{cOffset(m, n)});
  });
}

/// Attention as one kernel, a block (a warpgroup) per 64 rows of Q of one
/// batch (b, head): S = Q K^T (this builder's GEMM: heads of 64 or 128, L
/// keys a multiple of 64 up to 256) by wgmma into registers, where thread
/// t holds rows t/4 % 8 and 8 more of its warp's 16, L/4 columns each; the
/// row ops after it (`softmax`: the scale and mask, the maxima,
/// exponentials, sums and normalization of a softmax, any of RowKernel's)
/// computed there, each row's 4 threads combining their partial results by
/// warp shuffles; P stored to workgroup memory as wgmma's A tiles, and
/// O = P V (`pv`'s GEMM, 64 or 128 columns) by wgmma from them, stored or
/// its epilogue applied as the warpgroup GEMM does. Workgroup memory: per
/// 64 of the head Q's and K's tiles (the first GEMM's), then per 64 keys
/// P's tile and V's, all copied at the start (cp.async, V's in groups that
/// the scores do not wait for). S and P never go to global memory: on
/// BERT-base b8 (H100) the kernel takes 7.9 us a layer where the three it
/// replaces took 17.
void KernelBuilder::buildAttention(KernelBuilder &pv, RowKernel &softmax,
                                   Value qRoot, Value kRoot, Value sRoot,
                                   Value pRoot, Value vRoot, Value oRoot,
                                   linalg::GenericOp epilogue) {
  MLIRContext *ctx = b.getContext();
  int64_t keys = g.n, keySteps = keys / kWarpgroupK;
  int64_t headSteps = g.k / kWarpgroupK;
  int64_t scoresStage = warpgroupStage(t), contextStage = warpgroupStage(pv.t);
  int64_t scoresTiles = headSteps * scoresStage;
  // And at least what the context's epilogue stages there.
  int64_t bytes =
      std::max((scoresTiles + keySteps * contextStage) * 2 + kSwizzleBytes,
               pv.t.tileM() * (pv.t.tileN() + kWarpgroupCPadding) * 4);
  OpBuilder::InsertionGuard outside(b);
  enterGemmLaunch({}, bytes, qRoot, kRoot, /*partials=*/{});
  pv.thread = thread;
  pv.batch = pv.cBatch = batch;
  pv.m0 = m0;
  pv.n0 = ix.c(0);
  pv.kBegin = ix.c(0);
  pv.bm = flatView(b, vRoot);
  pv.c = flatView(b, oRoot);
  pv.cRoot = oRoot;
  pv.epilogue = epilogue;

  TileMemory memory = tileMemory(bytes);
  Value raw = memory.raw, first = memory.first, tiles = memory.tiles;
  pv.smemA = smemA;
  // Where the tiles of the second GEMM's K step s start, in elements.
  auto contextStart = [&](int64_t s) {
    return ix.add(first, scoresTiles + s * contextStage);
  };
  for (int64_t s = 0; s < headSteps; ++s)
    copyWarpgroupTiles(ix.c(s * kWarpgroupK), ix.add(first, s * scoresStage));
  Value group;
  for (int64_t s = 0; s < keySteps; ++s)
    group = pv.copyWarpgroupTiles(ix.c(s * kWarpgroupK), contextStart(s),
                                  /*live=*/{}, /*withA=*/false);
  auto fenceAndSync = [&] {
    NVVM::FenceProxyOp::create(
        b, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(b);
  };
  // Q and K's copies (V's after them may still be running).
  Value zero = LLVM::ZeroOp::create(b, accumulatorType());
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(keySteps));
  fenceAndSync();
  NVVM::WgmmaFenceAlignedOp::create(b);
  Value scores = zero;
  for (int64_t s = 0; s < headSteps; ++s)
    scores = multiplyStep(scores, ix.add(tiles, s * scoresStage * 2),
                          /*warpgroupRows=*/ix.c(0));
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);

  // The row ops, for each of the thread's two rows (accumulatorOrigin);
  // the 4 threads of a row are lanes 4i to 4i + 3 of a warp.
  auto [warpRow, pairColumn] = accumulatorOrigin();
  auto quad = [&](ImplicitLocOpBuilder &b, Value partial,
                  function_ref<Value(Value, Value)> combine) {
    for (int64_t offset : {1, 2}) {
      // 16-bit floats travel as f32 (exactly).
      Type type = partial.getType();
      Value mine = type.getIntOrFloatBitWidth() == 16
                       ? arith::ExtFOp::create(b, b.getF32Type(), partial)
                       : partial;
      Value theirs = gpu::ShuffleOp::create(b, mine, offset, kWarpSize,
                                            gpu::ShuffleMode::XOR)
                         .getShuffleResult();
      if (theirs.getType() != type)
        theirs = arith::TruncFOp::create(b, type, theirs);
      partial = combine(partial, theirs);
    }
    return partial;
  };
  auto f16x2 = VectorType::get({2}, g.element);
  for (int64_t i = 0; i < 2; ++i) {
    Value row = ix.add(warpRow, 8 * i);
    // Element 4j + 2i + e of the accumulators: column 8j + 2(l % 4) + e.
    SmallVector<Value> columns, values;
    for (int64_t j = 0; j < keys / 8; ++j)
      for (int64_t e = 0; e < 2; ++e) {
        columns.push_back(ix.add(pairColumn, 8 * j + e));
        values.push_back(
            LLVM::ExtractValueOp::create(b, scores, 4 * j + 2 * i + e));
      }
    Value flatRow = ix.add(ix.mul(batch, g.m), ix.add(m0, row));
    softmax.emitRow(b, thread, flatRow, columns, sRoot, values, quad);
    // P's pairs into their K step's A tile: 16-byte vector (j % 8) of the
    // row, swizzled.
    ArrayRef<Value> p = softmax.elementValuesOf(pRoot);
    for (int64_t j = 0; j < keys / 8; ++j) {
      Value at =
          ix.add(contextStart(j / 8),
                 ix.add(ix.add(ix.mul(ix.div(row, 8), kSwizzleBytes / 2),
                               ix.mul(ix.rem(row, 8), kWarpgroupK)),
                        ix.add(ix.mul(arith::XOrIOp::create(b, ix.c(j % 8),
                                                            ix.rem(row, 8)),
                                      8),
                               pairColumn)));
      vector::StoreOp::create(
          b, vector::FromElementsOp::create(b, f16x2, p.slice(2 * j, 2)), smemA,
          ValueRange{at});
    }
  }
  // V's copies, and every thread's P.
  Value context = LLVM::ZeroOp::create(b, pv.accumulatorType());
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(0));
  fenceAndSync();
  NVVM::WgmmaFenceAlignedOp::create(b);
  for (int64_t s = 0; s < keySteps; ++s)
    context = pv.multiplyStep(
        context, ix.add(tiles, (scoresTiles + s * contextStage) * 2),
        /*warpgroupRows=*/ix.c(0));
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  pv.storeWarpgroupResult(context, raw);
  gpu::TerminatorOp::create(b);
}

/// The second kernel of a split K: each thread sums the slices' partial
/// products of 4 consecutive elements of C and stores them, or applies the
/// epilogue to them.
void KernelBuilder::buildSliceSum(Value partials) {
  constexpr int64_t kThreads = 256;
  int64_t total = g.batch * g.m * g.n;
  int64_t vectors = total / kGroup; // N is a multiple of the tile's columns
  OpBuilder::InsertionGuard outside(b);
  auto launch = gpu::LaunchOp::create(
      b, ix.c(llvm::divideCeil(vectors, kThreads)), ix.c(1), ix.c(1),
      ix.c(kThreads), ix.c(1), ix.c(1));
  b.setInsertionPointToStart(&launch.getBody().front());
  Value idx = ix.add(ix.mul(launch.getBlockIds().x, kThreads),
                     launch.getThreadIds().x);
  c = flatView(b, cRoot);
  {
    OpBuilder::InsertionGuard guard(b);
    if (vectors % kThreads != 0) {
      auto inside = scf::IfOp::create(b, TypeRange{}, ix.lt(idx, vectors),
                                      /*withElseRegion=*/false);
      b.setInsertionPoint(inside.thenBlock()->getTerminator());
    }
    Value flat = ix.mul(idx, kGroup);
    auto v4 = VectorType::get({kGroup}, b.getF32Type());
    Value sum;
    for (int64_t s = 0; s < t.slices; ++s) {
      Value part = vector::LoadOp::create(
          b, v4, partials, ValueRange{ix.add(flat, s * total)},
          /*nontemporal=*/false, llvm::Align(16));
      sum = sum ? arith::AddFOp::create(b, sum, part).getResult() : part;
    }
    if (!epilogue) {
      vector::StoreOp::create(b, sum, c, ValueRange{flat},
                              /*nontemporal=*/false, llvm::Align(16));
    } else {
      batch = cBatch = ix.div(flat, g.m * g.n);
      Value m = ix.rem(ix.div(flat, g.n), g.m);
      Value n = ix.rem(flat, g.n);
      epilogueOfVector(m, n, sum);
    }
  }
  gpu::TerminatorOp::create(b);
}

/// Whether `op` reads or writes buffer `base` (through any view of it);
/// making a view of it does neither.
bool touches(Operation *op, Value base) {
  bool found = false;
  op->walk([&](Operation *inner) {
    if (isMemoryEffectFree(inner))
      return;
    for (Value v : inner->getOperands())
      if (isa<MemRefType>(v.getType()) && viewSource(v) == base)
        found = true;
  });
  return found;
}

/// Whether `op` (a linalg op, or a kernel this pass built, say) may write
/// buffer `base` through any view of it: one of its ops or nested ops has
/// a write effect on such a view or on memory it does not name, or has no
/// known effects and takes such a view.
bool mayWrite(Operation *op, Value base) {
  auto isBase = [&](Value v) {
    return v && isa<MemRefType>(v.getType()) && viewSource(v) == base;
  };
  WalkResult result = op->walk([&](Operation *inner) {
    if (isMemoryEffectFree(inner) ||
        inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!effects)
      return llvm::any_of(inner->getOperands(), isBase)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list)
      if (isa<MemoryEffects::Write>(e.getEffect()) &&
          (!e.getValue() || isBase(e.getValue())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// How far the searches below look past unrelated ops.
constexpr int kSearchWindow = 16;

/// The zero linalg.fill of `init` before `op` with no other use of its
/// buffer between them, if there is one.
linalg::FillOp zeroFillBefore(Operation *op, Value init) {
  Value base = viewSource(init);
  Operation *prev = op->getPrevNode();
  for (int i = 0; prev && i < kSearchWindow;
       ++i, prev = prev->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(prev);
    if (fill && fill.hasPureBufferSemantics() &&
        fill.getDpsInits()[0] == init) {
      auto value = fill.getDpsInputs()[0].getDefiningOp<arith::ConstantOp>();
      auto f = value ? dyn_cast<FloatAttr>(value.getValue()) : FloatAttr();
      return f && f.getValue().isZero() ? fill : linalg::FillOp();
    }
    if (touches(prev, base))
      return {};
  }
  return {};
}

/// Whether every use of `root`, through expand/collapse_shape views, is by
/// one of `users`.
bool onlyUsedBy(Value root, ArrayRef<Operation *> users) {
  for (Operation *user : root.getUsers()) {
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
      if (!onlyUsedBy(user->getResult(0), users))
        return false;
    } else if (!llvm::is_contained(users, user)) {
      return false;
    }
  }
  return true;
}

/// A view's buffer and where the view's elements are in it.
struct StridedView {
  Value root;
  SmallVector<int64_t> strides;
  int64_t offset;
};

/// The dense buffer with an identity layout that `v` is a view of through
/// subview and expand/collapse_shape ops, and `v`'s strides and offset in
/// it (its layout's, which such views keep relative to the start of that
/// buffer), when they are static.
std::optional<StridedView> stridedView(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  StridedView view;
  if (!type || !type.hasStaticShape() ||
      failed(type.getStridesAndOffset(view.strides, view.offset)) ||
      ShapedType::isDynamic(view.offset) ||
      llvm::any_of(view.strides, ShapedType::isDynamic))
    return std::nullopt;
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
            def))
      break;
    v = def->getOperand(0);
  }
  auto root = dyn_cast<MemRefType>(v.getType());
  if (!root || !root.hasStaticShape() || !root.getLayout().isIdentity())
    return std::nullopt;
  view.root = v;
  return view;
}

/// A transpose whose result a GEMM reads as an operand, which the GEMM can
/// read through instead: from `root` as `layout` says.
struct FoldedTranspose {
  linalg::TransposeOp transpose;
  Value root;
  Layout layout;
};

/// The transpose that fills the buffer of `operand`, an operand of `op`
/// whose batch, rows and columns (`groups`, outermost first) are that
/// buffer's elements in row-major order, when nothing else uses the buffer,
/// the transpose reads a view with static strides of another buffer, and
/// no op between the two writes that buffer.
std::optional<FoldedTranspose>
foldedTranspose(linalg::LinalgOp op, Value operand, ArrayRef<int64_t> groups) {
  Value buffer = denseRoot(operand);
  if (!buffer || !buffer.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  linalg::TransposeOp transpose;
  for (Operation *user : buffer.getUsers())
    if (auto x = dyn_cast<linalg::TransposeOp>(user);
        x && x.getInit() == buffer)
      transpose = x;
  if (!transpose || !transpose.hasPureBufferSemantics() ||
      transpose->getBlock() != op->getBlock() ||
      !transpose->isBeforeInBlock(op) || !onlyUsedBy(buffer, {transpose, op}))
    return std::nullopt;
  std::optional<StridedView> input = stridedView(transpose.getInput());
  if (!input)
    return std::nullopt;
  for (Operation *x = transpose->getNextNode(); x != op; x = x->getNextNode())
    if (mayWrite(x, input->root))
      return std::nullopt;
  // The result's dimensions as extents and strides in the input's buffer,
  // split (innermost first) into the operand's columns, rows and batch; a
  // dimension may be split between two of them.
  ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
  SmallVector<Factor> dims;
  for (auto [extent, from] : llvm::zip(shape, transpose.getPermutation()))
    dims.push_back({extent, input->strides[from]});
  FoldedTranspose folded{transpose, input->root,
                         Layout{input->offset, {}, {}, {}}};
  SmallVector<Factor, 2> *parts[] = {&folded.layout.batch, &folded.layout.rows,
                                     &folded.layout.cols};
  for (int i = 2; i >= 0; --i) {
    SmallVector<Factor, 2> &part = *parts[i];
    for (int64_t left = groups[i]; left > 1;) {
      if (dims.empty())
        return std::nullopt;
      Factor &d = dims.back();
      if (d.extent == 1) {
        dims.pop_back();
      } else if (left % d.extent == 0) {
        part.insert(part.begin(), d);
        left /= d.extent;
        dims.pop_back();
      } else if (d.extent % left == 0) {
        part.insert(part.begin(), {left, d.stride});
        d = {d.extent / left, d.stride * left};
        left = 1;
      } else {
        return std::nullopt;
      }
    }
    if (part.empty())
      part.push_back({1, 0});
  }
  if (llvm::any_of(dims, [](Factor d) { return d.extent != 1; }))
    return std::nullopt;
  return folded;
}

/// Whether the kernels can copy an operand laid out as `layout` in 16-byte
/// vectors of `width` elements along its columns (or, if they are the ones
/// consecutive in memory, its rows), each vector aligned.
bool copiesVectors(const Layout &layout, int64_t width) {
  ArrayRef<Factor> along = layout.rowsContiguous() ? layout.rows : layout.cols;
  auto aligned = [&](ArrayRef<Factor> factors) {
    return llvm::all_of(factors, [&](Factor f) {
      return f.extent == 1 || f.stride % width == 0;
    });
  };
  return along.back().stride == 1 && along.back().extent % width == 0 &&
         layout.offset % width == 0 && aligned(layout.batch) &&
         aligned(along.drop_back()) &&
         aligned(layout.rowsContiguous() ? layout.cols : layout.rows);
}

/// The elementwise op after tensor-core op `op` that can be its epilogue:
/// it reads C (whose buffer is `cRoot`) at each of its iterations' own
/// index, and nothing else reads C; its other inputs are read through
/// dimensions and constants, and its outputs, written with identity maps,
/// are none of the buffers the kernel reads. The kernel takes the
/// epilogue's place, so the ops between the two must not write A or B
/// (`roots`); they are looked past, C being used by none of them.
linalg::GenericOp epilogueOf(linalg::LinalgOp op, Value cRoot,
                             linalg::FillOp fill, ArrayRef<Value> roots) {
  SmallVector<Value> inputs = {viewSource(roots[0]), viewSource(roots[1])};
  Operation *next = op->getNextNode();
  for (int i = 0; next && i < kSearchWindow; ++i) {
    if (touches(next, cRoot))
      break;
    if (llvm::any_of(inputs, [&](Value in) { return mayWrite(next, in); }))
      return {};
    next = next->getNextNode();
  }
  auto e = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!e || !e.hasPureBufferSemantics() || e.getNumReductionLoops() != 0 ||
      e.hasDynamicShape())
    return {};
  bool readsC = false;
  for (OpOperand *in : e.getDpsInputOperands()) {
    AffineMap map = e.getMatchingIndexingMap(in);
    if (denseRoot(in->get()) == cRoot) {
      if (!map.isIdentity())
        return {};
      readsC = true;
      continue;
    }
    if (llvm::any_of(map.getResults(), [](AffineExpr x) {
          return !isa<AffineDimExpr, AffineConstantExpr>(x);
        }))
      return {};
  }
  if (!readsC)
    return {};
  // Outputs may be views (the interior of the next convolution's padded
  // input): they are stored to through them. An output may be the buffer
  // of an input that is read only at the element written, by the thread
  // that writes it: C itself (its values come from the accumulators), or
  // the same view read with an identity map (an in-place residual add).
  for (OpOperand &out : e.getDpsInitsMutable()) {
    Value root = viewSource(out.get());
    auto conflicts = [&](OpOperand *in) {
      if (viewSource(in->get()) != root)
        return false;
      bool sameElement =
          e.getMatchingIndexingMap(in).isIdentity() &&
          (in->get() == out.get() || denseRoot(in->get()) == cRoot);
      return !sameElement;
    };
    if (!e.getMatchingIndexingMap(&out).isIdentity() ||
        !e.getMatchingBlockArgument(&out).use_empty() ||
        llvm::is_contained(inputs, root) ||
        llvm::any_of(e.getDpsInputOperands(), conflicts))
      return {};
  }
  SmallVector<Operation *> users = {op, e};
  if (fill)
    users.push_back(fill);
  if (!onlyUsedBy(cRoot, users))
    return {};
  return e;
}

/// The buffers a kernel for `op` (GEMM `g`) addresses its A, B and C in
/// (null where it cannot). Operands that transposes fill are read through
/// them where their elements still make aligned vectors along K in A,
/// along N in B (or, `kMajorB`: warpgroup MMA, along K): their layouts go
/// to `g`, the transposes to `folded`, to be dropped with the op.
std::array<Value, 3>
operandRoots(linalg::LinalgOp op, Gemm &g, bool kMajorB,
             SmallVectorImpl<linalg::TransposeOp> &folded) {
  Value input = op.getDpsInputs()[0];
  std::array<Value, 3> roots = {
      isa<linalg::Conv2DNhwcHwcfOp>(op) ? convInputRoot(input, g)
                                        : denseRoot(input),
      denseRoot(op.getDpsInputs()[1]), denseRoot(op.getDpsInits()[0])};
  // Operand `i` (groups: its batch, rows, columns) through its transpose,
  // when its layout suits the kernel (`kMajor`: its rows may be the ones
  // consecutive in memory).
  auto fold = [&](unsigned i, ArrayRef<int64_t> groups, bool kMajor,
                  std::optional<Layout> &layout) {
    std::optional<FoldedTranspose> f =
        foldedTranspose(op, op.getDpsInputs()[i], groups);
    if (!f || f->root == roots[2] || (f->layout.rowsContiguous() && !kMajor) ||
        !copiesVectors(f->layout, vectorWidth(g.element)))
      return;
    layout = f->layout;
    roots[i] = f->root;
    folded.push_back(f->transpose);
  };
  if (g.kh == 0 && roots[2]) {
    fold(0, {g.batch, g.m, g.k}, /*kMajor=*/false, g.aLayout);
    fold(1, {g.batch, g.k, g.n}, kMajorB, g.bLayout);
  }
  return roots;
}

/// Attention's three steps that buildAttention computes as one kernel: the
/// scores S = Q K^T (a marked contraction starting from zero), the row ops
/// that a row kernel would take after it and that read S at the element
/// (softmax's), the last of them writing P, and the context O = P V (the
/// next marked contraction, from zero), with the elementwise op after it if
/// there is one (its epilogue).
struct Attention {
  linalg::LinalgOp scores, context;
  linalg::FillOp scoresFill, contextFill;
  linalg::GenericOp epilogue;
  Gemm qk, pv;
  std::array<Value, 3> qkRoots, pvRoots;
  SmallVector<linalg::TransposeOp> folded;
  std::unique_ptr<RowKernel> softmax;
};

/// Attention from its scores contraction `op`, if buildAttention can
/// compute it: f16 Q and K with 64 or 128 columns (a head), 64 to 256 keys
/// in steps of 64, rows of Q a multiple of 64, V with 64 or 128 columns,
/// at most kMaxAttentionAccumulators accumulators a thread; every
/// buffer between the steps used by them alone; between the row ops and
/// the context only what it drops (its fill, the transposes it reads
/// through), allocations, views and constants; no row op writing what the
/// kernel reads.
std::optional<Attention> attentionAt(linalg::LinalgOp op) {
  std::optional<Gemm> qk = gemmOf(op);
  auto headSize = [](int64_t d) {
    return d == kWarpgroupK || d == 2 * kWarpgroupK;
  };
  if (!qk || qk->kh != 0 || !qk->element.isF16() || !headSize(qk->k) ||
      qk->n % kWarpgroupK != 0 || qk->n > 256 || qk->m % 64 != 0)
    return std::nullopt;
  Attention a;
  a.scores = op;
  a.qk = *qk;
  a.scoresFill = zeroFillBefore(op, op.getDpsInits()[0]);
  a.qkRoots = operandRoots(op, a.qk, /*kMajorB=*/true, a.folded);
  if (!a.scoresFill || llvm::is_contained(a.qkRoots, Value()))
    return std::nullopt;
  Value sRoot = a.qkRoots[2];
  a.softmax = std::make_unique<RowKernel>(RowShape{qk->batch * qk->m, qk->n});
  a.softmax->seed(sRoot);
  Operation *next = op->getNextNode();
  for (; next; next = next->getNextNode()) {
    if (isa<linalg::LinalgOp>(next)) {
      if (!a.softmax->accepts(next))
        break;
      a.softmax->add(next);
    } else if (!isNeutral(next)) {
      break;
    }
  }
  if (!a.softmax->hasReduction())
    return std::nullopt;
  a.softmax->dropUnusedFills();
  SmallVector<Operation *> between;
  for (int i = 0; next && i < kSearchWindow && !isMarkedForTiledGemm(next);
       next = next->getNextNode(), ++i)
    if (!isNeutral(next))
      between.push_back(next);
  auto pv = dyn_cast_or_null<linalg::LinalgOp>(next);
  if (!pv || !isMarkedForTiledGemm(pv) || !pv.hasPureBufferSemantics())
    return std::nullopt;
  std::optional<Gemm> g = gemmOf(pv);
  if (!g || g->kh != 0 || !g->element.isF16() || g->batch != qk->batch ||
      g->m != qk->m || g->k != qk->n || !headSize(g->n) ||
      (qk->n + g->n) / 2 > kMaxAttentionAccumulators)
    return std::nullopt;
  a.context = pv;
  a.pv = *g;
  a.contextFill = zeroFillBefore(pv, pv.getDpsInits()[0]);
  SmallVector<linalg::TransposeOp> folded;
  a.pvRoots = operandRoots(pv, a.pv, /*kMajorB=*/false, folded);
  if (!a.contextFill || llvm::is_contained(a.pvRoots, Value()) ||
      a.pv.aLayout || !a.softmax->computes(a.pvRoots[0]))
    return std::nullopt;
  for (Operation *x : between)
    if (x != a.contextFill.getOperation() && !llvm::is_contained(folded, x))
      return std::nullopt;
  for (Operation *x : a.softmax->members())
    for (Value root : {a.qkRoots[0], a.qkRoots[1], a.pvRoots[1]})
      if (mayWrite(x, root))
        return std::nullopt;
  // The threads of a row combine partial results by 32-bit shuffles.
  for (Operation *x : a.softmax->members()) {
    auto linalgOp = cast<linalg::LinalgOp>(x);
    if (isa<linalg::FillOp>(x) || linalgOp.getNumReductionLoops() == 0)
      continue;
    Type type = linalgOp.getBlock()->getArguments().back().getType();
    if (!isa<FloatType>(type) || (type.getIntOrFloatBitWidth() != 16 &&
                                  type.getIntOrFloatBitWidth() != 32))
      return std::nullopt;
  }
  for (Operation *x :
       {op.getOperation(), a.scoresFill.getOperation(), pv.getOperation()})
    a.softmax->addConsumer(x);
  if (a.softmax->writesOutside())
    return std::nullopt;
  a.epilogue =
      epilogueOf(pv, a.pvRoots[2], a.contextFill, {a.pvRoots[0], a.pvRoots[1]});
  a.folded.append(folded.begin(), folded.end());
  return a;
}

struct SelectTensorCoreOpsPass
    : PassWrapper<SelectTensorCoreOpsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SelectTensorCoreOpsPass)
  SelectTensorCoreOpsPass() = default;
  SelectTensorCoreOpsPass(const SelectTensorCoreOpsPass &other)
      : PassWrapper(other) {}
  SelectTensorCoreOpsPass(bool tensorCores, bool tf32, bool simt) {
    this->tensorCores = tensorCores;
    this->tf32 = tf32;
    this->simt = simt;
  }
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("f16 contractions on tensor cores"),
      llvm::cl::init(true)};
  Option<bool> tf32{*this, "tf32",
                    llvm::cl::desc("Also f32 contractions, computed in tf32"),
                    llvm::cl::init(false)};
  Option<bool> simt{
      *this, "simt",
      llvm::cl::desc("f32 contractions not on tensor cores: the same tiled "
                     "kernel on CUDA cores"),
      llvm::cl::init(false)};
  StringRef getArgument() const override {
    return "onnx-tosa-select-tensor-core-ops";
  }
  StringRef getDescription() const override {
    return "Mark the f16 (and with tf32, f32) matmuls and convolutions the "
           "tensor-core kernel handles, and with simt the f32 ones the tiled "
           "CUDA-core kernel handles";
  }
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> marked;
    TargetInfo target = targetOf(getOperation());
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<Gemm> g = gemmOf(op);
      if (!g || g->batch * g->m * g->n * g->k < kMinProducts)
        return;
      if (tensorCores && (g->element.isF16() || tf32) &&
          chooseTiling(*g, target, false))
        op->setAttr(kMarker, UnitAttr::get(op->getContext()));
      else if (simt && g->element.isF32() && !tf32 &&
               chooseTiling(*g, target, true))
        op->setAttr(kSimtMarker, UnitAttr::get(op->getContext()));
      else
        return;
      marked.push_back(op);
    });
    for (linalg::LinalgOp op : marked)
      if (op.hasPureTensorSemantics())
        moveInitToEpilogue(op);
  }

  /// A contraction that accumulates onto a value other than zero (the
  /// broadcast bias of a convolution, say) starts from zero instead and the
  /// value is added by an elementwise op after it, which
  /// onnx-tosa-fuse-elementwise merges with the op that follows (the
  /// activation, the cast back to f16): one kernel, the tensor-core
  /// kernel's epilogue, instead of a broadcast before and an elementwise
  /// op after.
  static void moveInitToEpilogue(linalg::LinalgOp op) {
    OpOperand &initOperand = op.getDpsInitsMutable()[0];
    Value init = initOperand.get();
    if (auto fill = init.getDefiningOp<linalg::FillOp>())
      if (auto value = getConstantFloat(fill.getDpsInputs()[0]);
          value && value->isZero())
        return;
    auto type = cast<RankedTensorType>(init.getType());
    Location loc = op.getLoc();
    OpBuilder b(op);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(
                                                       type.getElementType()));
    Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                          type.getElementType());
    initOperand.assign(
        linalg::FillOp::create(b, loc, zero, empty).getResult(0));
    b.setInsertionPointAfter(op);
    SmallVector<AffineMap> maps(
        3, b.getMultiDimIdentityMap(type.getRank()));
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    Value result = op->getResult(0);
    auto add = linalg::GenericOp::create(
        b, loc, type, ValueRange{result, init}, ValueRange{empty}, maps,
        iterators, [](OpBuilder &nb, Location nl, ValueRange args) {
          Value sum = arith::AddFOp::create(nb, nl, args[0], args[1]);
          linalg::YieldOp::create(nb, nl, sum);
        });
    result.replaceAllUsesExcept(add.getResult(0), add);
  }

  static std::optional<APFloat> getConstantFloat(Value v) {
    auto cst = v.getDefiningOp<arith::ConstantOp>();
    auto attr = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
    if (!attr)
      return std::nullopt;
    return attr.getValue();
  }
};

/// The tiling `spec` names ("UMxUNxPMxPN" or "UMxUNxPMxPNsS": units, units'
/// fragments or groups, slices), when it is one `g` can use on `simt` or
/// tensor cores; else none.
std::optional<Tiling> parseTiling(StringRef spec, const Gemm &g, bool simt) {
  auto [shape, sliceText] = spec.split('s');
  SmallVector<StringRef> parts;
  shape.split(parts, 'x');
  Tiling t{0, 0, 0, 0, simt, 1};
  int64_t *fields[] = {&t.unitsM, &t.unitsN, &t.perM, &t.perN};
  if (parts.size() != 4 ||
      (!sliceText.empty() && sliceText.getAsInteger(10, t.slices)))
    return std::nullopt;
  for (auto [text, field] : llvm::zip(parts, fields))
    if (text.getAsInteger(10, *field) || *field < 1 || *field > 16)
      return std::nullopt;
  int64_t steps = llvm::divideCeil(g.k, kTileK);
  bool valid =
      t.threads() <= 1024 && t.threads() % kWarpSize == 0 &&
      g.n % vectorWidth(g.element) == 0 && t.slices >= 1 &&
      steps % t.slices == 0 &&
      // Each thread copies whole vectors of the tiles.
      (t.tileM() * kTileK / vectorWidth(g.element)) % t.threads() == 0 &&
      (t.tileN() * kTileK / vectorWidth(g.element)) % t.threads() == 0;
  return valid ? std::optional(t) : std::nullopt;
}

/// A forced warpgroup-MMA tiling, "wgMxN[sS]": M rows (64 to 256, a
/// warpgroup per 64), N columns (64 to 256, multiples of 64), S slices of
/// K.
std::optional<Tiling> parseWarpgroupTiling(StringRef spec, const Gemm &g) {
  if (!spec.consume_front("wg") || !g.element.isF16() || !vectorA(g) ||
      g.n % vectorWidth(g.element) != 0)
    return std::nullopt;
  auto [shape, sliceText] = spec.split('s');
  auto [rowsText, colsText] = shape.split('x');
  int64_t rows = 0, cols = 0, slices = 1;
  auto valid = [](int64_t x) {
    return x >= kWarpgroupK && x <= 256 && x % kWarpgroupK == 0;
  };
  if (rowsText.getAsInteger(10, rows) || colsText.getAsInteger(10, cols) ||
      (!sliceText.empty() && sliceText.getAsInteger(10, slices)) ||
      !valid(rows) || !valid(cols) || slices < 1 ||
      llvm::divideCeil(g.k, kWarpgroupK) % slices != 0)
    return std::nullopt;
  // Each of the 2 x rows threads copies as many 16-byte vectors of the B
  // tile (64 x cols) as the others: 192 rows take 192 columns, not 128.
  if ((kWarpgroupK * cols / vectorWidth(g.element)) % (2 * rows) != 0)
    return std::nullopt;
  Tiling t = warpgroupTiling(rows, cols);
  t.slices = slices;
  return t;
}

/// The one place that chooses the kernel of each marked contraction on
/// buffers (onnx-tosa-kernel-config): fused attention, warpgroup MMA, WMMA
/// on tensor cores or the tiled kernel on CUDA cores, with its tiling, K
/// slices, copies of the tiles, steps loaded ahead and asynchronous copies,
/// from the rules above and the module's target. The choice is written on
/// the op as `onnx_tosa.kernel` (kernelToAttr), which
/// onnx-tosa-tensor-core-kernels builds; an op left without it stays a
/// plain loop nest.
struct KernelConfigPass
    : PassWrapper<KernelConfigPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KernelConfigPass)
  KernelConfigPass() = default;
  KernelConfigPass(const KernelConfigPass &other) : PassWrapper(other) {}
  // `ahead` 0: each kernel's own (see runOnOperation).
  KernelConfigPass(StringRef spec, unsigned copies, unsigned ahead,
                   AsyncCopies async, bool warpgroups, bool spirv,
                   bool fuseAttention) {
    attention = fuseAttention;
    tiling = spec.str();
    spirvTilings = spirv;
    warpgroupMma = warpgroups;
    stages = copies;
    prefetch = ahead;
    asyncCopies = async == AsyncCopies::All       ? "all"
                  : async == AsyncCopies::Matmuls ? "matmuls"
                                                  : "none";
  }

  Option<unsigned> stages{
      *this, "stages",
      llvm::cl::desc("copies of the A and B tiles in workgroup memory, as "
                     "many as fit in 48 KiB up to this: 1 or 2 through "
                     "registers, 2 to 4 with async-copies (0: 2, or 4 with "
                     "async-copies)"),
      llvm::cl::init(0)};
  Option<std::string> asyncCopies{
      *this, "async-copies",
      llvm::cl::desc("which tensor-core kernels copy their tiles to "
                     "workgroup memory asynchronously (nvgpu.device_async_"
                     "copy: cp.async), stages - 1 K steps ahead: none, "
                     "matmuls or all"),
      llvm::cl::init("none")};
  Option<unsigned> prefetch{
      *this, "prefetch",
      llvm::cl::desc("K steps ahead that tiles are loaded, 1 to 4 (0: 2 on "
                     "tensor cores, 1 on CUDA cores); warpgroup MMA: 1 to "
                     "stages - 1 (0: stages - 1), the other copies of the "
                     "tiles for products left running"),
      llvm::cl::init(0)};
  Option<bool> warpgroupMma{
      *this, "warpgroup-mma",
      llvm::cl::desc("f16 GEMMs use warpgroup MMA (wgmma.mma_async; needs "
                     "an sm_90a target) where chooseWarpgroupTiling says "
                     "so: not GEMVs, convolutions whose tiles fill the GPU"),
      llvm::cl::init(false)};
  Option<bool> attention{
      *this, "attention",
      llvm::cl::desc("with warpgroup-mma: attention's scores, softmax and "
                     "context (Q K^T, the row ops after it, P V) as one "
                     "kernel where attentionAt finds them"),
      llvm::cl::init(true)};
  Option<bool> spirvTilings{
      *this, "spirv-tilings",
      llvm::cl::desc("the kernels become SPIR-V: CUDA-core tilings as "
                     "chooseSpirvTiling says, one copy of the tiles unless "
                     "stages says otherwise"),
      llvm::cl::init(false)};
  Option<std::string> tiling{
      *this, "tiling",
      llvm::cl::desc("for tuning experiments: every kernel whose GEMM can use "
                     "it gets this tiling, UMxUNxPMxPN[sS] (units of the "
                     "block, fragments or 4x4 groups per unit, K slices), "
                     "or with warpgroup-mma wgMxN[sS] (rows, columns, K "
                     "slices)"),
      llvm::cl::init("")};
  StringRef getArgument() const override { return "onnx-tosa-kernel-config"; }
  StringRef getDescription() const override {
    return "Choose the kernel of each marked contraction on buffers and "
           "write it on the op (onnx_tosa.kernel)";
  }

  static void record(Operation *op, const Tiling &t) {
    op->setAttr(kKernelAttr, kernelToAttr(op->getContext(), t));
  }

  void runOnOperation() override {
    if (!llvm::is_contained({"none", "matmuls", "all"}, asyncCopies)) {
      getOperation().emitError("onnx-tosa-kernel-config: async-copies "
                               "must be none, matmuls or all, not '")
          << asyncCopies << "'";
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isMarkedForTiledGemm(op) && op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    // Ops that an attention kernel takes.
    DenseSet<Operation *> taken;
    // What the options allow where the target has it: no warpgroup MMA or
    // asynchronous copies on chips without them.
    TargetInfo target = targetOf(getOperation());
    bool warpgroupMma = this->warpgroupMma && target.warpgroupMma;
    std::string asyncCopies =
        target.asyncCopy ? this->asyncCopies.getValue() : "none";
    for (linalg::LinalgOp op : ops) {
      if (taken.contains(op))
        continue;
      bool simt = op->hasAttr(kSimtMarker);
      if (warpgroupMma && attention && !simt)
        if (std::optional<Attention> a = attentionAt(op)) {
          op->setAttr(kKernelAttr,
                      DictionaryAttr::get(
                          op->getContext(),
                          {NamedAttribute(
                              StringAttr::get(op->getContext(), "kind"),
                              StringAttr::get(op->getContext(), "attention"))}));
          taken.insert(a->context);
          continue;
        }
      std::optional<Gemm> g = gemmOf(op);
      // The rule's tiling: SPIR-V's own where it has one.
      auto choose = [&](bool split) -> std::optional<Tiling> {
        if (simt && spirvTilings)
          if (std::optional<Tiling> t = chooseSpirvTiling(*g, target, split))
            return t;
        return chooseTiling(*g, target, simt, /*large=*/true, split);
      };
      std::optional<Tiling> t = g ? choose(/*split=*/true) : std::nullopt;
      if (!t)
        continue;
      Value init = op.getDpsInits()[0];
      linalg::FillOp fill = zeroFillBefore(op, init);
      // Warpgroup MMA where it can be used (a split K starts each slice
      // from zero); a forced "wg" tiling (tuning experiments) in place of
      // the rule's.
      std::optional<Tiling> w;
      if (warpgroupMma && !simt) {
        w = parseWarpgroupTiling(tiling, *g);
        if (!w || (!fill && w->slices > 1))
          w = chooseWarpgroupTiling(*g, target, /*split=*/bool(fill));
      }
      SmallVector<linalg::TransposeOp> folded;
      std::array<Value, 3> roots =
          operandRoots(op, *g, /*kMajorB=*/w.has_value(), folded);
      if (!roots[0] || !roots[1] || !roots[2])
        continue;
      linalg::GenericOp epilogue =
          epilogueOf(op, roots[2], fill, {roots[0], roots[1]});
      // A given number of copies of the warpgroup kernel's tiles (2 to 4)
      // in place of the default.
      if (w) {
        if (stages)
          w->stages = std::clamp<int64_t>(stages, 2, 4);
        // As many of them as fit in a block's workgroup memory.
        while (w->stages > 2 &&
               warpgroupSharedBytes(*w) > target.maxSharedBytesPerBlock)
          --w->stages;
        w->prefetch = prefetch ? std::clamp<int64_t>(prefetch, 1, w->stages - 1)
                               : w->stages - 1;
        record(op, *w);
        continue;
      }
      // A forced tiling is taken where the kernel can have it, with one
      // copy of the tiles or the two it may get below (and an epilogue's
      // staging of C in workgroup memory).
      auto fits = [&](const Tiling &x, bool withEpilogue) {
        return workgroupBytes(*g, x, withEpilogue) <= target.staticSharedBytes;
      };
      if (!tiling.empty())
        if (std::optional<Tiling> forced = parseTiling(tiling, *g, simt);
            forced && (fits(*forced, true) ||
                       (stages != 1 && fits(withStages(*forced, 2), true))))
          t = forced;
      // Each slice of a split K starts from zero.
      if (!fill && t->slices > 1)
        t = choose(/*split=*/false);
      // A cut last row tile that starts from C stages all of C at once,
      // which only small tiles leave room for.
      if (!simt && !fill && stagedRows(*t) != t->tileM() &&
          (g->m % t->tileM() != 0 || g->n % t->tileN() != 0))
        t = chooseTiling(*g, target, simt);
      // (Asynchronous copies stage C a fragment row at a time, which a cut
      // last row tile that starts from C cannot have: see above.)
      bool async = asyncCopies == "all" ||
                   (asyncCopies == "matmuls" &&
                    !isa<linalg::Conv2DNhwcHwcfOp>(op));
      if (async && asyncCopyFits(*g, *t) &&
          (fill || g->m % t->tileM() == 0)) {
        // As many copies as fit, up to `stages`; at least two.
        int64_t most = stages ? std::clamp<int64_t>(stages, 2, 4) : 4;
        for (int64_t copies = most; copies >= 2 && !t->asyncCopy; --copies) {
          Tiling candidate = withStages(*t, copies);
          candidate.asyncCopy = true;
          if (fits(candidate, bool(epilogue)))
            t = candidate;
        }
      }
      // Two copies by default; one for SPIR-V, where for the tilings the
      // rules choose the sweep found two at most 0.7 % faster and up to
      // 12 % slower (BERT's smaller GEMMs).
      bool twoCopies = stages ? stages != 1 : !spirvTilings;
      if (!t->asyncCopy && twoCopies && fits(withStages(*t, 2), bool(epilogue)))
        t->stages = 2;
      // Measured with benchmarks/gemm_tilings.py on the H200: two steps
      // ahead took 14 % off the time of BERT's f16 GEMMs; on CUDA cores,
      // whose 8x8-element threads already hold 64 accumulators, any more
      // registers made them slower.
      t->prefetch =
          prefetch ? std::clamp<int64_t>(prefetch, 1, 4) : (simt ? 1 : 2);
      record(op, *t);
    }
  }
};


/// Builds the kernel onnx-tosa-kernel-config chose for each op
/// (onnx_tosa.kernel) in its place; it chooses nothing itself.
struct TensorCoreKernelsPass
    : PassWrapper<TensorCoreKernelsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TensorCoreKernelsPass)
  StringRef getArgument() const override {
    return "onnx-tosa-tensor-core-kernels";
  }
  StringRef getDescription() const override {
    return "Contractions on buffers become the kernels "
           "onnx-tosa-kernel-config chose for them";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<arith::ArithDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                memref::MemRefDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                scf::SCFDialect, vector::VectorDialect>();
  }
  /// Attention's kernel, in place of its last op; the ops it computes
  /// are erased.
  void buildAttention(Attention &a) {
    Operation *last =
        a.epilogue ? a.epilogue.getOperation() : a.context.getOperation();
    ImplicitLocOpBuilder b(a.scores.getLoc(), last);
    // (The context's tiling keeps the GEMM's copies of the tiles, by which
    // warpgroupStagedEpilogue decides that its epilogue goes through
    // workgroup memory: the kernel has at least that much.)
    Tiling qkTiling = warpgroupTiling(64, a.qk.n);
    Tiling pvTiling = warpgroupTiling(64, a.pv.n);
    KernelBuilder pv(b, a.pv, pvTiling);
    KernelBuilder(b, a.qk, qkTiling)
        .buildAttention(pv, *a.softmax, a.qkRoots[0], a.qkRoots[1],
                        a.qkRoots[2], a.pvRoots[0], a.pvRoots[1], a.pvRoots[2],
                        a.epilogue);
    SmallVector<Operation *> erased = {a.scores, a.scoresFill, a.context,
                                       a.contextFill};
    llvm::append_range(erased, a.softmax->members());
    if (a.epilogue)
      erased.push_back(a.epilogue);
    for (linalg::TransposeOp x : a.folded)
      erased.push_back(x);
    for (Operation *x : erased)
      x->erase();
  }

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kKernelAttr) && op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      auto config = op->getAttrOfType<DictionaryAttr>(kKernelAttr);
      auto kind = config ? config.getAs<StringAttr>("kind") : StringAttr();
      if (kind && kind.getValue() == "attention") {
        if (std::optional<Attention> a = attentionAt(op))
          buildAttention(*a);
        else
          op->removeAttr(kKernelAttr);
        continue;
      }
      std::optional<Tiling> t = kernelFromAttr(config);
      std::optional<Gemm> g = gemmOf(op);
      if (!t || !g) {
        op.emitError("onnx-tosa-tensor-core-kernels: unreadable ")
            << kKernelAttr << " " << config;
        return signalPassFailure();
      }
      linalg::FillOp fill = zeroFillBefore(op, op.getDpsInits()[0]);
      SmallVector<linalg::TransposeOp> folded;
      std::array<Value, 3> roots =
          operandRoots(op, *g, /*kMajorB=*/t->warpgroup, folded);
      if (!roots[0] || !roots[1] || !roots[2]) {
        op->removeAttr(kKernelAttr);
        continue;
      }
      linalg::GenericOp epilogue =
          epilogueOf(op, roots[2], fill, {roots[0], roots[1]});
      // With an epilogue the kernel takes its place: only views and
      // allocations are between the two, and its inputs may be among them.
      ImplicitLocOpBuilder b(op.getLoc(), epilogue ? epilogue.getOperation()
                                                   : op.getOperation());
      KernelBuilder(b, *g, *t).build(roots[0], roots[1], roots[2],
                                     /*zeroInit=*/bool(fill), epilogue);
      op->erase();
      if (fill)
        fill->erase();
      if (epilogue)
        epilogue->erase();
      for (linalg::TransposeOp x : folded)
        x->erase();
    }
  }
};

struct AlignWorkgroupMemoryPass
    : PassWrapper<AlignWorkgroupMemoryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AlignWorkgroupMemoryPass)
  StringRef getArgument() const override {
    return "onnx-tosa-align-workgroup-memory";
  }
  StringRef getDescription() const override {
    return "Align the workgroup buffers of gpu kernels to 128 bytes";
  }
  void runOnOperation() override {
    getOperation().walk([](gpu::GPUFuncOp func) {
      for (unsigned i = 0; i < func.getNumWorkgroupAttributions(); ++i)
        func.setWorkgroupAttributionAttr(
            i, LLVM::LLVMDialect::getAlignAttrName(),
            IntegerAttr::get(IntegerType::get(func.getContext(), 64), 128));
    });
  }
};

} // namespace

bool isMarkedForTiledGemm(Operation *op) {
  return op->hasAttr(kMarker) || op->hasAttr(kSimtMarker);
}

std::unique_ptr<Pass> createSelectTensorCoreOpsPass(bool tensorCores,
                                                    bool tf32, bool simt) {
  return std::make_unique<SelectTensorCoreOpsPass>(tensorCores, tf32, simt);
}
std::unique_ptr<Pass> createKernelConfigPass(StringRef tiling, unsigned stages,
                                             unsigned prefetch,
                                             AsyncCopies asyncCopies,
                                             bool warpgroupMma,
                                             bool spirvTilings, bool attention) {
  return std::make_unique<KernelConfigPass>(tiling, stages, prefetch,
                                            asyncCopies, warpgroupMma,
                                            spirvTilings, attention);
}
std::unique_ptr<Pass> createTensorCoreKernelsPass() {
  return std::make_unique<TensorCoreKernelsPass>();
}
std::unique_ptr<Pass> createAlignWorkgroupMemoryPass() {
  return std::make_unique<AlignWorkgroupMemoryPass>();
}

} // namespace onnx_tosa
