//===- session.cpp - Loading and running a model: the ot_session_* API ----===//
//
// Everything here is backend-agnostic. Loading checks the artifact's internal
// references once, so the backends can trust every index they are given, and
// running checks the caller's tensors, so a mismatch is reported by name
// instead of corrupting device memory.
//
//===----------------------------------------------------------------------===//

#include "tensor.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>

namespace onnx_tosa::rt {
namespace {

/// ONNX allows no more dimensions than this; a caller's larger rank is not
/// believed (its shape array may be shorter) and is not printed dim by dim.
constexpr size_t kMaxRank = 64;

std::string shapeString(const int64_t *dims, size_t rank) {
  if (rank > kMaxRank)
    return "rank " + std::to_string(rank);
  std::string s = "[";
  for (size_t i = 0; i < rank; ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

/// "float32", or "unknown dtype 999".
std::string dtypeText(uint32_t dtype) {
  std::string name = dtypeName(static_cast<DType>(dtype));
  return name != "?" ? name : "unknown dtype " + std::to_string(dtype);
}

/// product(shape) * elemSize, or false on a negative dim or overflow.
bool byteSizeOf(const std::vector<int64_t> &shape, size_t elemSize,
                uint64_t &out) {
  uint64_t n = elemSize;
  for (int64_t d : shape) {
    if (d < 0)
      return false;
    if (d != 0 && n > UINT64_MAX / static_cast<uint64_t>(d))
      return false;
    n *= static_cast<uint64_t>(d);
  }
  out = n;
  return true;
}

/// A model input or output as the session exposes it.
struct TensorSlot {
  TensorBinding binding;
  uint64_t byteSize = 0;
  /// The shape and size the last run produced: the binding's, except where
  /// the size depends on the data (TensorBinding::boundedDim).
  std::vector<int64_t> lastShape;
  uint64_t lastByteSize = 0;

  std::string describe() const {
    return binding.name + " (" + dtypeName(binding.dtype) + " " +
           shapeString(binding.shape.data(), binding.shape.size()) + ")";
  }
};

std::string listSlots(const std::vector<TensorSlot> &slots) {
  std::string s;
  for (const TensorSlot &t : slots)
    s += (s.empty() ? "" : ", ") + t.describe();
  return s.empty() ? "(none)" : s;
}

} // namespace
} // namespace onnx_tosa::rt

using namespace onnx_tosa;
using namespace onnx_tosa::rt;

struct ot_session {
  // Declaration order is destruction order reversed: the launch sequence
  // goes first, the device last.
  std::shared_ptr<Device> device;
  std::string modelName;
  // Shared with the tensors ot_session_input_tensor/output_tensor return.
  std::vector<std::shared_ptr<DeviceBuffer>> buffers;
  std::vector<std::unique_ptr<DeviceModule>> modules;
  std::unique_ptr<LaunchSequence> sequence;
  std::vector<TensorSlot> inputs, outputs;
  std::vector<FrozenInput> frozenInputs;
  ot_run_timing lastTiming{};
  ot_session_memory_info memory{};
  // What ot_session_profile needs: each launch as a sequence of its own
  // (made on the first profile), and the names its results point to.
  std::vector<LaunchSpec> specs;
  std::vector<std::string> launchModuleNames; // per launch
  std::vector<std::string> launchNodes;       // per launch
  std::vector<std::unique_ptr<LaunchSequence>> singleLaunches;
  std::vector<ot_launch_profile> profile;

  /// The artifact's other shape variants (Artifact::variants), each a
  /// session of its own on the same device (their equal weights are the
  /// device's shared constants), and the one the last run used.
  std::vector<std::unique_ptr<ot_session>> variants;
  ot_session *lastRun = this;

  /// Loads the artifact's programs. A program with shape variants shares
  /// its scratch between them (sharedScratch); a variant is given it.
  Status load(const Artifact &a,
              const std::vector<std::shared_ptr<DeviceBuffer>> *scratch =
                  nullptr);
  /// The program (this session or a variant) whose inputs have the shapes
  /// of `in`; an error naming the shapes when none has.
  Status select(const ot_host_tensor *in, size_t numIn, ot_session *&chosen);
  /// This session, then its variants.
  ot_session *program(size_t i) {
    return i == 0 ? this : variants[i - 1].get();
  }
  Status profileLaunches(uint32_t repetitions);
  Status run(const ot_host_tensor *in, size_t numIn, const ot_host_tensor *out,
             size_t numOut);
  Status runTensors(const ot_tensor_binding *in, size_t numIn,
                    const ot_tensor_binding *out, size_t numOut);
  /// The session's own buffer of an input or output as a tensor.
  Status slotTensor(bool input, size_t index, ot_tensor **out);
  /// What run() and runTensors() share: `copyIn(s)` for every input slot,
  /// the kernels, `copyOut(s)` for every output slot (it may do nothing)
  /// and `afterOut()`, each step timed into lastTiming.
  Status execute(const std::function<Status(size_t)> &copyIn,
                 const std::function<Status(size_t)> &copyOut,
                 const std::function<Status()> &afterOut);
  /// Sets each output's lastShape from its count where its size depends on
  /// the data (after the kernels ran).
  Status readCounts();

private:
  /// Matches the given inputs and outputs to the model's (by name or
  /// index, checking dtype and shape) and checks every input is there.
  /// `live` holds the inputs left after the frozen ones.
  Status bind(const ot_host_tensor *in, size_t numIn,
              const ot_host_tensor *out, size_t numOut,
              std::vector<const ot_host_tensor *> &inBySlot,
              std::vector<const ot_host_tensor *> &outBySlot,
              std::vector<ot_host_tensor> &live);
  Status validate(const Artifact &a);
  /// The scratch buffers the programs of `a` (its own and its variants')
  /// take turns in: a session runs one program at a time, so the i-th
  /// largest shareable buffer of every program (scratchOrder) is one buffer
  /// of the largest of their sizes.
  Status sharedScratch(const Artifact &a,
                       std::vector<std::shared_ptr<DeviceBuffer>> &scratch);
  Status takeFrozenInputs(const ot_host_tensor *given, size_t count,
                          std::vector<ot_host_tensor> &rest);
  Status matchTensors(const char *role, const std::vector<TensorSlot> &slots,
                      const ot_host_tensor *given, size_t count,
                      std::vector<const ot_host_tensor *> &bySlot);
};

Status ot_session::validate(const Artifact &a) {
  Target want = device->target();
  if (a.target != want)
    return failedPrecondition(
        std::string("the artifact was compiled for ") +
        (a.target == Target::Cuda ? "CUDA" : "Vulkan") + " but device " +
        device->id() + " (" + device->name() + ") is a " +
        (want == Target::Cuda ? "CUDA" : "Vulkan") + " device");
  if (want == Target::Cuda) {
    // A cubin starts with ELF's magic number; PTX is text.
    bool cubin = !a.modules.empty() && a.modules[0].binary.size() >= 4 &&
                 std::memcmp(a.modules[0].binary.data(), "\x7f" "ELF", 4) == 0;
    std::string why =
        cudaCodeMismatch(a.provenance.chip, cubin, device->architecture());
    if (!why.empty())
      return failedPrecondition("device " + device->id() + " (" +
                                device->name() + "): " + why);
  }
  size_t nbuf = a.buffers.size();
  for (size_t i = 0; i < nbuf; ++i) {
    const Buffer &b = a.buffers[i];
    if (b.kind == BufferKind::Constant && b.data.size() > b.sizeBytes)
      return dataLoss("constant buffer " + std::to_string(i) + " holds " +
                      std::to_string(b.data.size()) +
                      " bytes but declares a size of " +
                      std::to_string(b.sizeBytes));
  }
  for (const auto *list : {&a.inputs, &a.outputs}) {
    const char *role = list == &a.inputs ? "input" : "output";
    std::vector<TensorSlot> &slots = list == &a.inputs ? inputs : outputs;
    for (const TensorBinding &b : *list) {
      std::string what = std::string(role) + " '" + b.name + "'";
      for (const TensorSlot &prev : slots)
        if (prev.binding.name == b.name)
          return dataLoss("the model has two " + std::string(role) +
                          "s named '" + b.name + "'");
      if (b.buffer >= nbuf)
        return dataLoss(what + " refers to buffer " + std::to_string(b.buffer) +
                        " but the artifact has " + std::to_string(nbuf) +
                        " buffers");
      TensorSlot slot{b, 0, b.shape, 0};
      if (!byteSizeOf(b.shape, dtypeSize(b.dtype), slot.byteSize))
        return dataLoss(what + " has an invalid or dynamic shape " +
                        shapeString(b.shape.data(), b.shape.size()));
      if (slot.byteSize > a.buffers[b.buffer].sizeBytes)
        return dataLoss(what + " needs " + std::to_string(slot.byteSize) +
                        " bytes but its buffer " + std::to_string(b.buffer) +
                        " has " +
                        std::to_string(a.buffers[b.buffer].sizeBytes));
      if (list == &a.inputs && a.buffers[b.buffer].kind != BufferKind::Input)
        return dataLoss(what + " is bound to buffer " +
                        std::to_string(b.buffer) +
                        ", which is not an input buffer");
      if (b.boundedDim >= 0 &&
          (list == &a.inputs ||
           b.boundedDim >= static_cast<int64_t>(b.shape.size()) ||
           b.shape[b.boundedDim] <= 0 ||
           b.countBuffer >= nbuf ||
           a.buffers[b.countBuffer].kind == BufferKind::Input ||
           a.buffers[b.countBuffer].sizeBytes < 4))
        return dataLoss(what + " has an invalid data-dependent dimension");
      slot.lastByteSize = slot.byteSize;
      slots.push_back(std::move(slot));
    }
  }
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const Launch &l = a.launches[i];
    std::string what = "launch " + std::to_string(i) + " ('" + l.entry + "')";
    if (l.module >= a.modules.size())
      return dataLoss(what + " refers to module " + std::to_string(l.module) +
                      " but the artifact has " +
                      std::to_string(a.modules.size()) + " modules");
    for (uint32_t arg : l.args)
      if (arg >= nbuf)
        return dataLoss(what + " passes buffer " + std::to_string(arg) +
                        " but the artifact has " + std::to_string(nbuf) +
                        " buffers");
    for (int d = 0; d < 3; ++d)
      if (l.grid[d] == 0 || l.block[d] == 0)
        return dataLoss(what + " has a zero grid or block dimension");
  }
  return okStatus();
}

namespace {

/// The intermediate buffers of program `a` that its shape variants can
/// share, the largest first: all of them, except, in the main program, the
/// buffers of its outputs and their counts, which ot_session_output_tensor
/// hands out (a variant's are read only by the run that wrote them).
std::vector<size_t> scratchOrder(const Artifact &a, bool main) {
  std::vector<bool> seen(a.buffers.size());
  if (main)
    for (const TensorBinding &b : a.outputs)
      for (uint32_t i : {b.buffer, b.boundedDim >= 0 ? b.countBuffer : b.buffer})
        if (i < seen.size())
          seen[i] = true;
  std::vector<size_t> order;
  for (size_t i = 0; i < a.buffers.size(); ++i)
    if (a.buffers[i].kind == BufferKind::Intermediate && !seen[i])
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return a.buffers[x].sizeBytes > a.buffers[y].sizeBytes;
  });
  return order;
}

} // namespace

Status ot_session::sharedScratch(
    const Artifact &a, std::vector<std::shared_ptr<DeviceBuffer>> &scratch) {
  std::vector<const Artifact *> programs = {&a};
  for (const Artifact &v : a.variants)
    programs.push_back(&v);
  std::vector<uint64_t> sizes;
  for (const Artifact *p : programs) {
    std::vector<size_t> order = scratchOrder(*p, p == &a);
    if (sizes.size() < order.size())
      sizes.resize(order.size());
    for (size_t j = 0; j < order.size(); ++j)
      sizes[j] = std::max(sizes[j], p->buffers[order[j]].sizeBytes);
  }
  for (size_t j = 0; j < sizes.size(); ++j) {
    std::unique_ptr<DeviceBuffer> buffer;
    OT_RETURN_IF_ERROR(device->allocate(sizes[j], buffer)
                           .withContext("scratch buffer " + std::to_string(j) +
                                        " of the shape variants"));
    scratch.push_back(std::move(buffer));
    memory.intermediate_bytes += sizes[j];
  }
  return okStatus();
}

Status ot_session::load(
    const Artifact &a,
    const std::vector<std::shared_ptr<DeviceBuffer>> *scratch) {
  modelName = a.modelName;
  frozenInputs = a.frozenInputs;
  OT_RETURN_IF_ERROR(validate(a));

  std::vector<std::shared_ptr<DeviceBuffer>> ownScratch;
  if (!scratch && !a.variants.empty()) {
    OT_RETURN_IF_ERROR(sharedScratch(a, ownScratch));
    scratch = &ownScratch;
  }
  buffers.resize(a.buffers.size());
  if (scratch) {
    std::vector<size_t> order = scratchOrder(a, !a.variants.empty());
    for (size_t j = 0; j < order.size(); ++j)
      buffers[order[j]] = (*scratch)[j];
  }
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    const Buffer &b = a.buffers[i];
    if (buffers[i])
      continue; // shared scratch
    std::string what = "buffer " + std::to_string(i);
    Device::ConstantKey key;
    if (b.kind == BufferKind::Constant) {
      key = Device::constantKey(b.data, b.sizeBytes);
      if ((buffers[i] = device->sharedConstant(key))) {
        memory.shared_weight_bytes += b.sizeBytes;
        continue;
      }
    }
    std::unique_ptr<DeviceBuffer> buffer;
    OT_RETURN_IF_ERROR(device->allocate(b.sizeBytes, buffer).withContext(what));
    buffers[i] = std::move(buffer);
    if (b.kind != BufferKind::Constant) {
      (b.kind == BufferKind::Input ? memory.input_bytes
                                   : memory.intermediate_bytes) += b.sizeBytes;
      continue;
    }
    // Constants are uploaded once; a declared size larger than the data is
    // zero-filled so kernels never read uninitialized memory.
    const std::vector<uint8_t> *bytes = &b.data;
    std::vector<uint8_t> padded;
    if (b.data.size() < b.sizeBytes) {
      padded = b.data;
      padded.resize(b.sizeBytes, 0);
      bytes = &padded;
    }
    OT_RETURN_IF_ERROR(device->upload(*buffers[i], bytes->data(), bytes->size())
                           .withContext("uploading constant " + what));
    device->shareConstant(key, buffers[i]);
    memory.weight_bytes += b.sizeBytes;
  }

  modules.resize(a.modules.size());
  for (size_t i = 0; i < a.modules.size(); ++i)
    OT_RETURN_IF_ERROR(device->loadModule(a.modules[i], modules[i])
                           .withContext("module " + std::to_string(i)));

  specs.resize(a.launches.size());
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const Launch &l = a.launches[i];
    LaunchSpec &s = specs[i];
    s.label = "launch " + std::to_string(i) + " (entry '" + l.entry +
              "' of module '" + a.modules[l.module].name + "')";
    s.module = modules[l.module].get();
    launchModuleNames.push_back(a.modules[l.module].name);
    launchNodes.push_back(l.nodes);
    s.entry = l.entry;
    for (int d = 0; d < 3; ++d) {
      s.grid[d] = l.grid[d];
      s.block[d] = l.block[d];
    }
    s.sharedBytes = l.sharedBytes;
    s.waitsForPrevious = (l.flags & kLaunchWaitsForPrevious) != 0;
    for (uint32_t arg : l.args)
      s.args.push_back(buffers[arg].get());
  }
  OT_RETURN_IF_ERROR(device->prepare(specs, sequence));
  for (const Artifact &v : a.variants) {
    auto variant = std::make_unique<ot_session>();
    variant->device = device;
    OT_RETURN_IF_ERROR(variant->load(v, scratch).withContext(
        "shape variant " + std::to_string(variants.size() + 1)));
    const ot_session_memory_info &m = variant->memory;
    memory.weight_bytes += m.weight_bytes;
    memory.input_bytes += m.input_bytes;
    memory.intermediate_bytes += m.intermediate_bytes;
    variants.push_back(std::move(variant));
  }
  return okStatus();
}

Status ot_session::select(const ot_host_tensor *in, size_t numIn,
                          ot_session *&chosen) {
  chosen = this;
  if (variants.empty() || (numIn && !in))
    return okStatus();
  // The slot a given tensor names in program `p`; null for names it does
  // not list (frozen or unknown: the program's run reports those).
  auto slotOf = [](ot_session *p,
                   const ot_host_tensor &t) -> const TensorSlot * {
    for (const TensorSlot &slot : p->inputs)
      if (t.name && slot.binding.name == t.name)
        return &slot;
    return !t.name && t.index < p->inputs.size() ? &p->inputs[t.index]
                                                 : nullptr;
  };
  for (size_t i = 0; i <= variants.size(); ++i) {
    ot_session *p = program(i);
    bool all = true;
    for (size_t g = 0; g < numIn && all; ++g) {
      const TensorSlot *slot = slotOf(p, in[g]);
      all = !slot || (in[g].rank == slot->binding.shape.size() &&
                      (in[g].rank == 0 ||
                       (in[g].shape &&
                        std::memcmp(in[g].shape, slot->binding.shape.data(),
                                    in[g].rank * sizeof(int64_t)) == 0)));
    }
    if (all) {
      chosen = p;
      return okStatus();
    }
  }
  std::string given, compiled;
  for (size_t g = 0; g < numIn; ++g)
    if (const TensorSlot *slot = slotOf(this, in[g]))
      given += (given.empty() ? "" : ", ") + slot->binding.name + " " +
               shapeString(in[g].shape, in[g].rank);
  for (size_t i = 0; i <= variants.size(); ++i)
    compiled += std::string(i ? "; " : "") + listSlots(program(i)->inputs);
  return invalidArgument("the input shapes (" + given +
                         ") are none of those the artifact was compiled for "
                         "(--dim): " +
                         compiled);
}

Status ot_session::matchTensors(const char *role,
                                const std::vector<TensorSlot> &slots,
                                const ot_host_tensor *given, size_t count,
                                std::vector<const ot_host_tensor *> &bySlot) {
  bySlot.assign(slots.size(), nullptr);
  if (count && !given)
    return invalidArgument(std::string(role) + " array is NULL");
  for (size_t g = 0; g < count; ++g) {
    const ot_host_tensor &t = given[g];
    size_t idx = slots.size();
    if (t.name) {
      for (size_t s = 0; s < slots.size(); ++s)
        if (slots[s].binding.name == t.name)
          idx = s;
      if (idx == slots.size())
        return invalidArgument("unknown " + std::string(role) + " '" + t.name +
                               "'; the model's " + role +
                               "s are: " + listSlots(slots));
    } else if (t.index < slots.size()) {
      idx = t.index;
    } else {
      return invalidArgument(std::string(role) + " index " +
                             std::to_string(t.index) +
                             " is out of range; the model has " +
                             std::to_string(slots.size()) + " " + role + "s");
    }
    const TensorSlot &slot = slots[idx];
    const TensorBinding &b = slot.binding;
    std::string what = std::string(role) + " '" + b.name + "'";
    if (bySlot[idx])
      return invalidArgument(what + " is given more than once");
    uint32_t dtype = dtypeBits(t.dtype);
    if (dtype != static_cast<uint32_t>(b.dtype))
      return invalidArgument(what + ": expected dtype " + dtypeName(b.dtype) +
                             ", got " + dtypeText(dtype));
    if (t.rank && !t.shape)
      return invalidArgument(what + ": shape is NULL but rank is " +
                             std::to_string(t.rank));
    bool sameShape =
        t.rank == b.shape.size() &&
        (t.rank == 0 ||
         std::memcmp(t.shape, b.shape.data(), t.rank * sizeof(int64_t)) == 0);
    if (!sameShape)
      return invalidArgument(what + ": expected shape " +
                             shapeString(b.shape.data(), b.shape.size()) +
                             ", got " + shapeString(t.shape, t.rank));
    if (t.byte_size != slot.byteSize)
      return invalidArgument(
          what + ": expected " + std::to_string(slot.byteSize) + " bytes (" +
          slot.describe() + "), got " + std::to_string(t.byte_size));
    if (!t.data && t.byte_size)
      return invalidArgument(what + ": data is NULL");
    bySlot[idx] = &t;
  }
  return okStatus();
}

/// Inputs the model was specialized to at compile time may still be given
/// (callers feed every graph input), but only with the frozen value: any
/// other value is an error, never a silently wrong result. The others are
/// left in `rest`.
Status ot_session::takeFrozenInputs(const ot_host_tensor *given, size_t count,
                                    std::vector<ot_host_tensor> &rest) {
  rest.clear();
  if (count && !given)
    return invalidArgument("input array is NULL");
  for (size_t g = 0; g < count; ++g) {
    const ot_host_tensor &t = given[g];
    const FrozenInput *frozen = nullptr;
    for (const FrozenInput &f : frozenInputs)
      if (t.name && f.name == t.name)
        frozen = &f;
    if (!frozen) {
      rest.push_back(t);
      continue;
    }
    std::string what = "input '" + frozen->name +
                       "' was frozen when the model was compiled "
                       "(--freeze-input) and ";
    bool sameShape =
        t.rank == frozen->shape.size() &&
        (t.rank == 0 || (t.shape && std::memcmp(t.shape, frozen->shape.data(),
                                                t.rank * sizeof(int64_t)) ==
                                        0));
    bool same = dtypeBits(t.dtype) ==
                    static_cast<uint32_t>(frozen->dtype) &&
                sameShape && t.byte_size == frozen->data.size() &&
                (t.byte_size == 0 ||
                 (t.data &&
                  std::memcmp(t.data, frozen->data.data(), t.byte_size) == 0));
    if (!same)
      return invalidArgument(
          what + "accepts only that value (" + dtypeName(frozen->dtype) +
          " " + shapeString(frozen->shape.data(), frozen->shape.size()) +
          "); recompile to run it with another");
  }
  return okStatus();
}

Status ot_session::bind(const ot_host_tensor *in, size_t numIn,
                        const ot_host_tensor *out, size_t numOut,
                        std::vector<const ot_host_tensor *> &inBySlot,
                        std::vector<const ot_host_tensor *> &outBySlot,
                        std::vector<ot_host_tensor> &live) {
  // Only an artifact with frozen inputs pays for sorting them out.
  if (!frozenInputs.empty()) {
    OT_RETURN_IF_ERROR(takeFrozenInputs(in, numIn, live));
    in = live.data();
    numIn = live.size();
  }
  OT_RETURN_IF_ERROR(matchTensors("input", inputs, in, numIn, inBySlot));
  OT_RETURN_IF_ERROR(matchTensors("output", outputs, out, numOut, outBySlot));
  std::string missing;
  for (size_t s = 0; s < inputs.size(); ++s)
    if (!inBySlot[s])
      missing += (missing.empty() ? "" : ", ") + inputs[s].describe();
  if (!missing.empty())
    return invalidArgument("missing input " + missing +
                           "; every model input must be given");
  return okStatus();
}

/// An int64, uint64 or float64 input the program computes in 32 bits
/// (TensorBinding::narrowed): every value must survive that, or the run is
/// refused, naming the input, the value and where it is (docs/types.md).
Status checkNarrowedInput(const TensorSlot &slot, const void *data) {
  const TensorBinding &b = slot.binding;
  size_t n = slot.byteSize / 8;
  auto where = [&](size_t flat) {
    std::vector<int64_t> index(b.shape.size());
    for (size_t d = b.shape.size(); d-- > 0;) {
      index[d] = static_cast<int64_t>(flat % b.shape[d]);
      flat /= b.shape[d];
    }
    return shapeString(index.data(), index.size());
  };
  for (size_t i = 0; i < n; ++i) {
    std::string bad, range;
    if (b.dtype == DType::I64) {
      int64_t v;
      std::memcpy(&v, static_cast<const uint8_t *>(data) + 8 * i, 8);
      if (v < INT32_MIN || v > INT32_MAX) {
        bad = std::to_string(v);
        range = "int64 data is computed as int32: values must lie in "
                "[-2147483648, 2147483647]";
      }
    } else if (b.dtype == DType::U64) {
      uint64_t v;
      std::memcpy(&v, static_cast<const uint8_t *>(data) + 8 * i, 8);
      if (v > UINT32_MAX) {
        bad = std::to_string(v);
        range = "uint64 data is computed in 32 bits: values must be below "
                "4294967296";
      }
    } else if (b.dtype == DType::F64) {
      double v;
      std::memcpy(&v, static_cast<const uint8_t *>(data) + 8 * i, 8);
      if (std::isfinite(v) && std::fabs(v) > FLT_MAX) {
        char text[32];
        std::snprintf(text, sizeof(text), "%.9g", v);
        bad = text;
        range = "float64 data is computed as float32: finite values must "
                "lie within +-3.4028235e+38";
      }
    }
    if (!bad.empty())
      return invalidArgument("input '" + b.name + "' holds " + bad + " at " +
                             where(i) + ", which this model cannot compute "
                             "with: " + range + " (docs/types.md)");
  }
  return okStatus();
}

Status ot_session::run(const ot_host_tensor *in, size_t numIn,
                       const ot_host_tensor *out, size_t numOut) {
  ot_session *chosen;
  OT_RETURN_IF_ERROR(select(in, numIn, chosen));
  lastRun = chosen;
  if (chosen != this) {
    Status s = chosen->run(in, numIn, out, numOut);
    lastTiming = chosen->lastTiming;
    return s;
  }
  std::vector<const ot_host_tensor *> inBySlot, outBySlot;
  std::vector<ot_host_tensor> live;
  OT_RETURN_IF_ERROR(bind(in, numIn, out, numOut, inBySlot, outBySlot, live));

  return execute(
      [&](size_t s) {
        if (inputs[s].binding.narrowed)
          OT_RETURN_IF_ERROR(checkNarrowedInput(inputs[s], inBySlot[s]->data));
        return device
            ->upload(*buffers[inputs[s].binding.buffer], inBySlot[s]->data,
                     inputs[s].byteSize)
            .withContext("uploading input '" + inputs[s].binding.name + "'");
      },
      [&](size_t s) {
        if (!outBySlot[s])
          return okStatus();
        return device
            ->download(*buffers[outputs[s].binding.buffer],
                       outBySlot[s]->data, outputs[s].lastByteSize)
            .withContext("downloading output '" + outputs[s].binding.name +
                         "'");
      },
      [] { return okStatus(); });
}

Status ot_session::execute(const std::function<Status(size_t)> &copyIn,
                           const std::function<Status(size_t)> &copyOut,
                           const std::function<Status()> &afterOut) {
  using Clock = std::chrono::steady_clock;
  auto msSince = [](Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start)
        .count();
  };
  ot_run_timing timing{};
  Clock::time_point start = Clock::now();
  for (size_t s = 0; s < inputs.size(); ++s)
    OT_RETURN_IF_ERROR(copyIn(s));
  timing.upload_ms = msSince(start);
  start = Clock::now();
  OT_RETURN_IF_ERROR(device->submit(*sequence));
  OT_RETURN_IF_ERROR(device->wait(*sequence));
  timing.execute_ms = msSince(start);
  timing.device_ms = device->deviceMs(*sequence);
  start = Clock::now();
  OT_RETURN_IF_ERROR(readCounts());
  for (size_t s = 0; s < outputs.size(); ++s)
    OT_RETURN_IF_ERROR(copyOut(s));
  OT_RETURN_IF_ERROR(afterOut());
  timing.download_ms = msSince(start);
  lastTiming = timing;
  return okStatus();
}

Status ot_session::readCounts() {
  for (TensorSlot &slot : outputs) {
    const TensorBinding &b = slot.binding;
    if (b.boundedDim < 0)
      continue;
    int32_t count = 0;
    OT_RETURN_IF_ERROR(
        device->download(*buffers[b.countBuffer], &count, sizeof(count))
            .withContext("reading the size of output '" + b.name + "'"));
    int64_t bound = b.shape[b.boundedDim];
    // One past the bound: a Loop ran more iterations than were unrolled
    // for this scan output (the legalization counts it so).
    if (count == bound + 1)
      return invalidArgument(
          "output '" + b.name + "' would have more than the " +
          std::to_string(bound) + " entries along dimension " +
          std::to_string(b.boundedDim) +
          " it was compiled for: the Loop that computes it runs more "
          "iterations than it was unrolled for (its scan output's declared "
          "length); declare a longer one or recompile with a constant trip "
          "count");
    if (count < 0 || count > bound)
      return internalError("output '" + b.name + "': the kernels computed " +
                           std::to_string(count) + " entries along dimension " +
                           std::to_string(b.boundedDim) +
                           ", outside its bound " + std::to_string(bound));
    slot.lastShape = b.shape;
    slot.lastShape[b.boundedDim] = count;
    slot.lastByteSize = slot.byteSize / bound * count;
  }
  return okStatus();
}

Status ot_session::runTensors(const ot_tensor_binding *in, size_t numIn,
                              const ot_tensor_binding *out, size_t numOut) {
  // The bindings as host-tensor views, so that they are matched and
  // checked exactly as ot_session_run's are; `data` points at the tensor,
  // except for frozen inputs, whose value is compared on the host.
  std::vector<std::vector<uint8_t>> frozenValues;
  auto views = [&](const char *role, const ot_tensor_binding *given,
                   size_t count, std::vector<ot_host_tensor> &to) -> Status {
    if (count && !given)
      return invalidArgument(std::string(role) + " array is NULL");
    for (size_t i = 0; i < count; ++i) {
      const ot_tensor_binding &b = given[i];
      std::string what = std::string(role) + " " +
                         (b.name ? "'" + std::string(b.name) + "'"
                                 : std::to_string(b.index));
      if (!b.tensor)
        return invalidArgument(what + ": tensor is NULL");
      const ot_tensor &t = *b.tensor;
      if (t.device != device)
        return invalidArgument(what + ": the tensor is on device " +
                               t.device->id() + ", the session on " +
                               device->id());
      void *data = const_cast<ot_tensor *>(&t);
      bool frozen = false;
      for (const FrozenInput &f : frozenInputs)
        frozen |= b.name && f.name == b.name && role[0] == 'i';
      if (frozen) {
        frozenValues.emplace_back(t.byteSize);
        OT_RETURN_IF_ERROR(
            device->download(*t.buffer, frozenValues.back().data(),
                             t.byteSize));
        data = frozenValues.back().data();
      }
      to.push_back({b.name, b.index, static_cast<ot_dtype>(t.dtype),
                    t.shape.size(), t.shape.data(), data, t.byteSize});
    }
    return okStatus();
  };
  std::vector<ot_host_tensor> inViews, outViews, live;
  frozenValues.reserve(numIn);
  OT_RETURN_IF_ERROR(views("input", in, numIn, inViews));
  OT_RETURN_IF_ERROR(views("output", out, numOut, outViews));
  ot_session *chosen;
  OT_RETURN_IF_ERROR(select(inViews.data(), inViews.size(), chosen));
  lastRun = chosen;
  if (chosen != this) {
    Status s = chosen->runTensors(in, numIn, out, numOut);
    lastTiming = chosen->lastTiming;
    return s;
  }
  std::vector<const ot_host_tensor *> inBySlot, outBySlot;
  OT_RETURN_IF_ERROR(bind(inViews.data(), inViews.size(), outViews.data(),
                          outViews.size(), inBySlot, outBySlot, live));
  auto tensorOf = [](const ot_host_tensor *view) {
    return static_cast<ot_tensor *>(view->data);
  };

  bool copied = false;
  return execute(
      [&](size_t s) {
        return device
            ->copy(*buffers[inputs[s].binding.buffer],
                   *tensorOf(inBySlot[s])->buffer, inputs[s].byteSize)
            .withContext("copying input '" + inputs[s].binding.name + "'");
      },
      [&](size_t s) {
        if (!outBySlot[s])
          return okStatus();
        DeviceBuffer &from = *buffers[outputs[s].binding.buffer];
        DeviceBuffer &to = *tensorOf(outBySlot[s])->buffer;
        copied |= &from != &to;
        return device->copy(to, from, outputs[s].lastByteSize)
            .withContext("copying output '" + outputs[s].binding.name + "'");
      },
      // The copies are ordered on the device; the caller may look at the
      // outputs by other means (another library's kernels, the host) once
      // the device has done them.
      [&] { return copied ? device->wait(*sequence) : okStatus(); });
}

Status ot_session::slotTensor(bool input, size_t index, ot_tensor **out) {
  if (!out)
    return invalidArgument("out_tensor is NULL");
  *out = nullptr;
  const std::vector<TensorSlot> &slots = input ? inputs : outputs;
  const char *role = input ? "input" : "output";
  if (index >= slots.size())
    return invalidArgument(std::string(role) + " index " +
                           std::to_string(index) +
                           " is out of range; the model has " +
                           std::to_string(slots.size()) + " " + role + "s");
  const TensorSlot &slot = slots[index];
  auto t = std::make_unique<ot_tensor>();
  t->device = device;
  t->buffer = buffers[slot.binding.buffer];
  t->dtype = slot.binding.dtype;
  t->shape = slot.binding.shape;
  t->byteSize = slot.byteSize;
  *out = t.release();
  return okStatus();
}

Status ot_session::profileLaunches(uint32_t repetitions) {
  if (singleLaunches.empty()) {
    singleLaunches.resize(specs.size());
    for (size_t i = 0; i < specs.size(); ++i)
      OT_RETURN_IF_ERROR(device->prepare({specs[i]}, singleLaunches[i])
                             .withContext("profiling " + specs[i].label));
  }
  using Clock = std::chrono::steady_clock;
  profile.assign(specs.size(), ot_launch_profile{});
  std::vector<double> ms(repetitions);
  for (size_t i = 0; i < specs.size(); ++i) {
    for (double &t : ms) {
      Clock::time_point start = Clock::now();
      OT_RETURN_IF_ERROR(device->submit(*singleLaunches[i]));
      OT_RETURN_IF_ERROR(device->wait(*singleLaunches[i]));
      t = std::chrono::duration<double, std::milli>(Clock::now() - start)
              .count();
      // The device's own timer where it has one: the kernel without the
      // host's launch and wait.
      if (double onDevice = device->deviceMs(*singleLaunches[i]);
          onDevice >= 0)
        t = onDevice;
    }
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    ot_launch_profile &p = profile[i];
    const LaunchSpec &spec = specs[i];
    p.module = launchModuleNames[i].c_str();
    p.nodes = launchNodes[i].c_str();
    p.entry = spec.entry.c_str();
    for (int d = 0; d < 3; ++d) {
      p.grid[d] = spec.grid[d];
      p.block[d] = spec.block[d];
    }
    p.median_ms = ms[ms.size() / 2];
  }
  return okStatus();
}

namespace {

Status loadSession(ot_device *device, const Artifact &a, ot_session **out) {
  auto session = std::make_unique<ot_session>();
  session->device = device->impl;
  OT_RETURN_IF_ERROR(session->load(a));
  *out = session.release();
  return okStatus();
}

Status checkLoadArgs(ot_device *device, ot_session **out) {
  if (!out)
    return invalidArgument("ot_session_load: out_session is NULL");
  *out = nullptr;
  if (!device)
    return invalidArgument("ot_session_load: device is NULL");
  return okStatus();
}

void fillInfo(const TensorSlot &slot, ot_tensor_info *info) {
  info->name = slot.binding.name.c_str();
  info->dtype = static_cast<ot_dtype>(slot.binding.dtype);
  info->rank = slot.binding.shape.size();
  info->shape = slot.binding.shape.data();
  info->byte_size = slot.byteSize;
}

} // namespace

extern "C" {

ot_status ot_session_load(ot_device *device, const char *artifact_path,
                          ot_session **out_session) {
  return guardedCall([&]() -> Status {
    OT_RETURN_IF_ERROR(checkLoadArgs(device, out_session));
    if (!artifact_path)
      return invalidArgument("ot_session_load: artifact_path is NULL");
    std::string path = artifact_path;
    struct stat st;
    if (stat(artifact_path, &st) != 0)
      return notFound("cannot open artifact '" + path +
                      "': " + std::strerror(errno));
    Artifact a;
    std::string error;
    if (!readArtifact(path, a, error))
      return dataLoss(error);
    return loadSession(device, a, out_session)
        .withContext("loading '" + path + "'");
  });
}

ot_status ot_session_load_from_memory(ot_device *device, const void *data,
                                      size_t size, ot_session **out_session) {
  return guardedCall([&]() -> Status {
    OT_RETURN_IF_ERROR(checkLoadArgs(device, out_session));
    if (!data && size)
      return invalidArgument("ot_session_load_from_memory: data is NULL");
    Artifact a;
    std::string error;
    if (!parseArtifact(static_cast<const uint8_t *>(data), size, a, error))
      return dataLoss(error);
    return loadSession(device, a, out_session);
  });
}

void ot_session_release(ot_session *session) { delete session; }

const char *ot_session_model_name(const ot_session *session) {
  return session ? session->modelName.c_str() : "";
}

size_t ot_session_input_count(const ot_session *session) {
  return session ? session->inputs.size() : 0;
}

size_t ot_session_output_count(const ot_session *session) {
  return session ? session->outputs.size() : 0;
}

ot_status ot_session_input_info(const ot_session *session, size_t index,
                                ot_tensor_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!session || !out_info)
      return invalidArgument("ot_session_input_info: NULL argument");
    if (index >= session->inputs.size())
      return invalidArgument("input index " + std::to_string(index) +
                             " is out of range; the model has " +
                             std::to_string(session->inputs.size()) +
                             " inputs");
    fillInfo(session->inputs[index], out_info);
    return okStatus();
  });
}

ot_status ot_session_output_info(const ot_session *session, size_t index,
                                 ot_tensor_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!session || !out_info)
      return invalidArgument("ot_session_output_info: NULL argument");
    if (index >= session->outputs.size())
      return invalidArgument("output index " + std::to_string(index) +
                             " is out of range; the model has " +
                             std::to_string(session->outputs.size()) +
                             " outputs");
    fillInfo(session->outputs[index], out_info);
    return okStatus();
  });
}

size_t ot_session_variant_count(const ot_session *session) {
  return session ? 1 + session->variants.size() : 0;
}

ot_status ot_session_variant_input_info(const ot_session *session,
                                        size_t variant, size_t index,
                                        ot_tensor_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!session || variant > session->variants.size())
      return invalidArgument("ot_session_variant_input_info: no variant " +
                             std::to_string(variant));
    const ot_session *p =
        variant ? session->variants[variant - 1].get() : session;
    return Status::adopt(ot_session_input_info(p, index, out_info));
  });
}

int64_t ot_session_output_bounded_dim(const ot_session *session,
                                      size_t index) {
  if (!session || index >= session->outputs.size())
    return -1;
  return session->outputs[index].binding.boundedDim;
}

ot_status ot_session_last_output_info(const ot_session *session, size_t index,
                                      ot_tensor_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!session || !out_info)
      return invalidArgument("ot_session_last_output_info: NULL argument");
    const ot_session *ran = session->lastRun;
    if (index >= ran->outputs.size())
      return invalidArgument("output index " + std::to_string(index) +
                             " is out of range; the model has " +
                             std::to_string(ran->outputs.size()) +
                             " outputs");
    const TensorSlot &slot = ran->outputs[index];
    fillInfo(slot, out_info);
    out_info->shape = slot.lastShape.data();
    out_info->byte_size = slot.lastByteSize;
    return okStatus();
  });
}

ot_status ot_session_variant_output_info(const ot_session *session,
                                         size_t variant, size_t index,
                                         ot_tensor_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!session || variant > session->variants.size())
      return invalidArgument("ot_session_variant_output_info: no variant " +
                             std::to_string(variant));
    const ot_session *p =
        variant ? session->variants[variant - 1].get() : session;
    return Status::adopt(ot_session_output_info(p, index, out_info));
  });
}

ot_status ot_session_select_variant(const ot_session *session,
                                    const ot_host_tensor *inputs,
                                    size_t num_inputs, size_t *out_variant) {
  return guardedCall([&]() -> Status {
    if (!session || !out_variant)
      return invalidArgument("ot_session_select_variant: NULL argument");
    ot_session *chosen;
    // select() only reads; it is not const because run() uses its result.
    ot_session *s = const_cast<ot_session *>(session);
    OT_RETURN_IF_ERROR(s->select(inputs, num_inputs, chosen));
    *out_variant = 0;
    for (size_t i = 0; i < s->variants.size(); ++i)
      if (s->variants[i].get() == chosen)
        *out_variant = i + 1;
    return okStatus();
  });
}

ot_status ot_session_memory(const ot_session *session,
                            ot_session_memory_info *out_info) {
  return guardedCall([&]() -> Status {
    if (!session || !out_info)
      return invalidArgument("ot_session_memory: NULL argument");
    *out_info = session->memory;
    return okStatus();
  });
}

ot_status ot_session_last_run_timing(const ot_session *session,
                                     ot_run_timing *out_timing) {
  return guardedCall([&]() -> Status {
    if (!session || !out_timing)
      return invalidArgument("ot_session_last_run_timing: NULL argument");
    *out_timing = session->lastTiming;
    return okStatus();
  });
}

ot_status ot_session_profile(ot_session *session, uint32_t repetitions,
                             const ot_launch_profile **out_launches,
                             size_t *out_count) {
  return guardedCall([&]() -> Status {
    if (!session || !out_launches || !out_count)
      return invalidArgument("ot_session_profile: NULL argument");
    if (repetitions < 1 || repetitions > 10000)
      return invalidArgument("ot_session_profile: repetitions must be in "
                             "1..10000, got " +
                             std::to_string(repetitions));
    // The program the last run used (a shape variant's, if it chose one).
    ot_session *profiled = session->lastRun;
    OT_RETURN_IF_ERROR(profiled->profileLaunches(repetitions));
    *out_launches = profiled->profile.data();
    *out_count = profiled->profile.size();
    return okStatus();
  });
}

ot_status ot_session_run(ot_session *session, const ot_host_tensor *inputs,
                         size_t num_inputs, const ot_host_tensor *outputs,
                         size_t num_outputs) {
  return guardedCall([&]() -> Status {
    if (!session)
      return invalidArgument("ot_session_run: session is NULL");
    return session->run(inputs, num_inputs, outputs, num_outputs);
  });
}

ot_status ot_session_run_tensors(ot_session *session,
                                 const ot_tensor_binding *inputs,
                                 size_t num_inputs,
                                 const ot_tensor_binding *outputs,
                                 size_t num_outputs) {
  return guardedCall([&]() -> Status {
    if (!session)
      return invalidArgument("ot_session_run_tensors: session is NULL");
    return session->runTensors(inputs, num_inputs, outputs, num_outputs);
  });
}

ot_status ot_session_input_tensor(ot_session *session, size_t index,
                                  ot_tensor **out_tensor) {
  return guardedCall([&]() -> Status {
    if (!session)
      return invalidArgument("ot_session_input_tensor: session is NULL");
    return session->slotTensor(true, index, out_tensor);
  });
}

ot_status ot_session_output_tensor(ot_session *session, size_t index,
                                   ot_tensor **out_tensor) {
  return guardedCall([&]() -> Status {
    if (!session)
      return invalidArgument("ot_session_output_tensor: session is NULL");
    return session->slotTensor(false, index, out_tensor);
  });
}

} // extern "C"
