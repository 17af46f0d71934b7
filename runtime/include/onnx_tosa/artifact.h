//===- artifact.h - The compiled-model file the runtime loads ---*- C++ -*-===//
//
// An artifact is everything the runtime needs to run one compiled model: the
// buffers (inputs, outputs, constants, intermediates), the kernel modules (PTX
// text or SPIR-V words), and the ordered list of kernel launches. The compiler
// fills an `Artifact` and calls `writeArtifact`; the runtime calls
// `readArtifact`. Plain C++ only: the runtime links no LLVM/MLIR.
//
// On disk (little-endian): "OTSAART\0", u32 version, then the fields below in
// declaration order. Strings and blobs are u64 length + bytes; vectors are
// u64 count + elements.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_ARTIFACT_H
#define ONNX_TOSA_ARTIFACT_H

#include <cstdint>
#include <string>
#include <vector>

namespace onnx_tosa {

constexpr uint32_t kArtifactVersion = 6;
/// The oldest version the runtime still reads (what later versions added
/// takes its default).
constexpr uint32_t kOldestArtifactVersion = 2;

/// Element types, numbered as ONNX's TensorProto.DataType so that the
/// importer, the artifact and .npy I/O agree on one table.
/// The narrow types (float8, float4, 4- and 2-bit integers) are stored one
/// element per byte, the bit pattern in the low bits (not packed as ONNX
/// packs 4- and 2-bit initializers).
enum class DType : uint32_t {
  F32 = 1, U8 = 2, I8 = 3, U16 = 4, I16 = 5, I32 = 6, I64 = 7,
  Bool = 9, F16 = 10, F64 = 11, U32 = 12, U64 = 13, BF16 = 16,
  F8E4M3FN = 17, F8E4M3FNUZ = 18, F8E5M2 = 19, F8E5M2FNUZ = 20,
  U4 = 21, I4 = 22, F4E2M1 = 23, F8E8M0 = 24, U2 = 25, I2 = 26,
};

/// Whether `t` is a narrow type (one element per byte, see DType).
bool isNarrowDType(DType t);

/// Size in bytes of one element; 0 for an unknown type.
size_t dtypeSize(DType t);
/// Short name as numpy spells it ("float32", "int64", ...); "?" if unknown.
const char *dtypeName(DType t);

enum class Target : uint32_t { Cuda = 1, Vulkan = 2 };

enum class BufferKind : uint32_t {
  Input = 1,        ///< filled from a user input before each run
  Constant = 2,     ///< weights: `data` holds the bytes, uploaded once
  Intermediate = 3, ///< scratch written and read by kernels
};

struct Buffer {
  BufferKind kind = BufferKind::Intermediate;
  uint64_t sizeBytes = 0;
  std::vector<uint8_t> data; ///< only for Constant
};

/// A model input or output: a name, a type and the buffer that holds it.
struct TensorBinding {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  uint32_t buffer = 0; ///< index into Artifact::buffers
  /// An output whose size depends on the data (NonZero, Unique, ...):
  /// `shape[boundedDim]` is an upper bound, and buffer `countBuffer` holds
  /// the real extent (one int32) after each run. The buffer starts with the
  /// elements of the real array in C order. -1 for every other tensor.
  /// Since version 6.
  int64_t boundedDim = -1;
  uint32_t countBuffer = 0;
  /// An int64, uint64 or float64 input whose values the program computes in
  /// 32 bits (int32, the low 32 bits, float32): the runtime refuses values
  /// that do not fit. Since version 6.
  bool narrowed = false;
};

/// One device code object: PTX text or a cubin (CUDA), or SPIR-V words
/// (Vulkan). A SPIR-V
/// module may hold several entry points; a PTX module several kernels.
struct Module {
  std::string name;
  std::vector<uint8_t> binary; ///< PTX text (NUL-terminated), cubin or SPIR-V
};

/// Bits of Launch::flags.
enum LaunchFlags : uint32_t {
  /// The kernel waits for the kernels launched before it to finish
  /// (griddepcontrol.wait) before it touches memory: the CUDA runtime may
  /// launch it as a programmatic dependent launch, before the previous
  /// kernel has finished.
  kLaunchWaitsForPrevious = 1,
};

/// One kernel launch. Arguments are device pointers to whole buffers, in
/// order; on Vulkan argument i is storage buffer binding i of descriptor set 0.
struct Launch {
  uint32_t module = 0;
  std::string entry;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  /// Dynamic workgroup (shared) memory per block, bytes. Since version 3.
  uint32_t sharedBytes = 0;
  /// LaunchFlags. Since version 4.
  uint32_t flags = 0;
  /// The names of the ONNX nodes the kernel computes, ", "-separated, for
  /// profiles ("" where unknown). Since version 5.
  std::string nodes;
  std::vector<uint32_t> args;
};

/// A graph input the compiler specialized to one value
/// (`onnx-tosa-compile --freeze-input`). It has no buffer: the runtime
/// accepts it by name and only with exactly these bytes, so the artifact is
/// never run on a value it was not compiled for.
struct FrozenInput {
  std::string name;
  DType dtype = DType::I64;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; ///< C-order element bytes, little-endian
};

/// Who made an artifact and how (since version 5; empty in older ones).
struct Provenance {
  std::string producer; ///< "onnx-tosa 0.1.0 (commit ...), LLVM/MLIR 22.1.8"
  std::string chip;     ///< the CUDA architecture, e.g. "sm_90a"; "" on Vulkan
  std::string options;  ///< the compiler's options, as on its command line
};

struct Artifact {
  Target target = Target::Cuda;
  std::string modelName;
  std::vector<Buffer> buffers;
  std::vector<TensorBinding> inputs;
  std::vector<TensorBinding> outputs;
  std::vector<Module> modules;
  std::vector<Launch> launches;
  std::vector<FrozenInput> frozenInputs; ///< since version 2
  /// The same model compiled for other input shapes (--dim N=1,4,8): each
  /// a whole program (buffers, bindings, modules, launches; its target and
  /// model name are the artifact's, it has no variants of its own). The
  /// runtime runs the one whose input shapes are the call's. On disk their
  /// constants equal to this program's are stored once. Since version 5.
  std::vector<Artifact> variants;
  Provenance provenance; ///< since version 5
};

/// Writes `a` to `path`. On failure returns false and sets `error`.
bool writeArtifact(const Artifact &a, const std::string &path,
                   std::string &error);
/// Reads `path`. A truncated, corrupt or foreign file returns false with a
/// message in `error`; it never crashes.
bool readArtifact(const std::string &path, Artifact &a, std::string &error);
/// Reads only the header of `path` for its target (no weights are read).
bool readArtifactTarget(const std::string &path, Target &target,
                        std::string &error);

/// A hash of what the artifact computes with (buffers, weights, kernels,
/// launches, bindings), not of its provenance: equal for the artifacts of
/// two compilers, or two command lines, that produce the same program.
uint64_t contentHash(const Artifact &a);

/// Why CUDA code for `chip` ("sm_90a"), as a cubin (else PTX), cannot run
/// on a GPU of `architecture` (as the runtime reports it: "sm_86", "sm_90a"
/// for 9.0 and later); "" if it can. A cubin runs on GPUs of its major
/// version and a minor one at least its own, PTX on any GPU at least its
/// chip (the driver compiles it), code for an architecture-specific chip
/// (sm_90a) only on GPUs of exactly that version.
std::string cudaCodeMismatch(const std::string &chip, bool cubin,
                             const std::string &architecture);

/// In-memory forms of the two calls above (same byte layout), for callers that
/// embed an artifact or hold it in memory.
std::vector<uint8_t> serializeArtifact(const Artifact &a);
bool parseArtifact(const uint8_t *data, size_t size, Artifact &a,
                   std::string &error);

} // namespace onnx_tosa

#endif // ONNX_TOSA_ARTIFACT_H
