//===- main.cpp - onnx-tosa-run: run a compiled model from the shell ------===//
//
// Loads an artifact, feeds it .npy inputs (or seeded random ones), runs it
// once and writes every output as a .npy file. Any failure prints one line,
// "onnx-tosa-run: error: ...", and exits with status 1.
//
//===----------------------------------------------------------------------===//

#include "host_tensors.h"
#include "input_values.h"

#include "onnx_tosa/artifact.h"
#include "onnx_tosa/npy.h"
#include "onnx_tosa/runtime.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;
using namespace onnx_tosa;
using namespace onnx_tosa::run;

namespace {

const char *kUsage =
    R"(usage: onnx-tosa-run ARTIFACT [options]

Runs a compiled onnx-tosa model once and writes its outputs as .npy files.

options:
  --device=NAME          auto (default: the best device of the backend the
                         artifact was compiled for), cuda, cuda:N, vulkan,
                         vulkan:N, vulkan:lavapipe
  --input NAME=FILE.npy  value of model input NAME (repeatable), or inline:
  --input NAME=2x8xf32=1 every element 1; 3xi64=1,2,3 one value per
                         element; f32=0.5 a scalar (types f16 f32 f64 i1
                         i8 i16 i32 i64 u8 u16 u32 u64)
  --inputs FILE.npz      every array of the archive (numpy.savez or
                         savez_compressed) is the input of its name
  --random-inputs[=SEED] fill inputs not given with --input: floats uniform
                         in [-1, 1), integers and bools 0 or 1 (default
                         seed 0); also written as DIR/input_<name>.npy
  --output-dir=DIR       where outputs go as DIR/<name>.npy (default: .)
  --quiet                print nothing on success
  --benchmark=N          after the run, time N more runs (each: inputs up,
                         kernels, outputs down) and print median and min:
                         the whole run and the kernels ("execute") by the
                         host's clock, and the kernels by the device's
                         timer ("device": CUDA events, Vulkan timestamps)
  --profile[=N]          after the run, time each kernel launch alone (N
                         times each, default 20; by the device's timer
                         where it has one) and list the slowest
  --profile-rows=N       launches --profile lists (default 25; 0: all)
  --inspect              print what the artifact holds (signature, target,
                         chip, kernels, weight bytes, producer and the
                         compile options) and exit; needs no device
  --version              print the runtime's version and commit
  --help                 show this help

A bfloat16 tensor is read from and written to float32 .npy files. A float8,
float4, int4/uint4 or int2/uint2 tensor is read from and written to uint8 .npy
files holding each element's bit pattern in the low bits (one element per
byte; int4 and int2 inputs may also be int8 values).

A sequence input or output NAME is one tensor per element, NAME.0, NAME.1,
... (written as NAME.0.npy, ...); a present optional is its value under NAME,
an absent one has no tensor (docs/sequences.md).
)";

/// The launches that take the most time, slowest first, with their share
/// of the sum over all launches.
void printProfile(std::vector<ot_launch_profile> launches, unsigned reps,
                  unsigned rows) {
  double total = 0;
  for (const ot_launch_profile &l : launches)
    total += l.median_ms;
  std::vector<size_t> order(launches.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return launches[a].median_ms > launches[b].median_ms;
  });
  std::printf("profile: %zu launches, each alone (median of %u), sum %.4f "
              "ms\n",
              launches.size(), reps, total);
  std::printf("  %6s %10s %6s  %-22s %-14s %-28s %s\n", "launch", "ms",
              "share", "grid", "block", "kernel", "onnx nodes");
  for (size_t k = 0; k < order.size() && (rows == 0 || k < rows); ++k) {
    const ot_launch_profile &l = launches[order[k]];
    auto dims = [](const uint32_t *d) {
      return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
             std::to_string(d[2]);
    };
    std::string kernel = std::string(l.module) + "::" + l.entry;
    std::printf("  %6zu %10.4f %5.1f%%  %-22s %-14s %-28s %s\n", order[k],
                l.median_ms, total > 0 ? 100 * l.median_ms / total : 0.0,
                dims(l.grid).c_str(), dims(l.block).c_str(), kernel.c_str(),
                l.nodes);
  }
}

/// Thrown for user-facing failures; main prints it as the one error line.
struct CliError {
  std::string message;
};

[[noreturn]] void fail(const std::string &message) { throw CliError{message}; }

struct Options {
  std::string artifact;
  std::string device = "auto";
  /// name, and a .npy file or an inline value ("2x8xf32=1")
  std::vector<std::pair<std::string, std::string>> inputs;
  std::vector<std::string> archives; ///< .npz files of inputs
  bool randomInputs = false;
  uint64_t seed = 0;
  std::string outputDir = ".";
  bool quiet = false;
  unsigned benchmark = 0;
  unsigned profile = 0;
  unsigned profileRows = 25;
  bool inspect = false;
};

/// Matches "--flag=value" or "--flag value"; advances `i` past a separate
/// value. Returns false if argv[i] is not this flag.
bool flagValue(int argc, char **argv, int &i, const std::string &flag,
               std::string &value) {
  std::string arg = argv[i];
  if (arg.compare(0, flag.size() + 1, flag + "=") == 0) {
    value = arg.substr(flag.size() + 1);
    return true;
  }
  if (arg != flag)
    return false;
  if (i + 1 >= argc)
    fail(flag + " needs a value");
  value = argv[++i];
  return true;
}

uint64_t parseSeed(const std::string &s) {
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || s[0] == '-')
    fail("--random-inputs: seed '" + s + "' is not a non-negative integer");
  return v;
}

/// `value` as a count in lo..hi; else fails with `usage` and the value.
unsigned parseCount(const std::string &value, unsigned long lo,
                    unsigned long hi, const std::string &usage) {
  char *end = nullptr;
  unsigned long n = std::strtoul(value.c_str(), &end, 10);
  if (value.empty() || *end || value[0] == '-' || n < lo || n > hi)
    fail(usage + ", got '" + value + "'");
  return static_cast<unsigned>(n);
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--version") {
      std::printf("onnx-tosa-run: %s\n", ot_version());
      std::exit(0);
    } else if (flagValue(argc, argv, i, "--device", value)) {
      o.device = value;
    } else if (flagValue(argc, argv, i, "--input", value)) {
      size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
        fail("--input expects NAME=FILE.npy or NAME=DIMx...xTYPE=VALUES, "
             "got '" + value + "'");
      o.inputs.emplace_back(value.substr(0, eq), value.substr(eq + 1));
    } else if (flagValue(argc, argv, i, "--inputs", value)) {
      if (value.empty())
        fail("--inputs expects an .npz file");
      o.archives.push_back(value);
    } else if (arg == "--random-inputs") {
      o.randomInputs = true;
    } else if (arg.rfind("--random-inputs=", 0) == 0) {
      o.randomInputs = true;
      o.seed = parseSeed(arg.substr(16));
    } else if (flagValue(argc, argv, i, "--output-dir", value)) {
      if (value.empty())
        fail("--output-dir needs a directory");
      o.outputDir = value;
    } else if (flagValue(argc, argv, i, "--benchmark", value)) {
      o.benchmark = parseCount(value, 1, 1000000,
                               "--benchmark expects a run count in 1..1000000");
    } else if (arg == "--profile") {
      o.profile = 20;
    } else if (arg.rfind("--profile=", 0) == 0) {
      o.profile =
          parseCount(arg.substr(10), 1, 10000,
                     "--profile expects a repetition count in 1..10000");
    } else if (flagValue(argc, argv, i, "--profile-rows", value)) {
      o.profileRows =
          parseCount(value, 0, 1000000,
                     "--profile-rows expects a count in 0..1000000 (0: all)");
    } else if (arg == "--inspect") {
      o.inspect = true;
    } else if (arg == "--quiet" || arg == "-q") {
      o.quiet = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      fail("unknown option '" + arg + "' (see --help)");
    } else if (o.artifact.empty()) {
      o.artifact = arg;
    } else {
      fail("more than one artifact given ('" + o.artifact + "' and '" + arg +
           "')");
    }
  }
  if (o.artifact.empty())
    fail("no artifact given (usage: onnx-tosa-run ARTIFACT [options]; see "
         "--help)");
  return o;
}

std::string describe(const TensorInfo &t) {
  return t.name + " (" + ot_dtype_name(t.dtype) + " " + shapeString(t.shape) +
         ")";
}

/// Checks an input's .npy array (read from `file`) against the model,
/// converting float32 data for a bfloat16 input.
std::vector<uint8_t> loadInput(const TensorInfo &info, const std::string &file,
                               NpyArray arr) {
  std::string what = "input '" + info.name + "' (from " + file + ")";
  DType want = static_cast<DType>(info.dtype);
  bool bf16FromF32 = want == DType::BF16 && arr.dtype == DType::F32;
  // Narrow types come as their bit patterns in uint8 (INT4/INT2 also as
  // int8 values: the model reads only the low bits).
  bool narrowBits =
      isNarrowDType(want) &&
      (arr.dtype == DType::U8 ||
       (arr.dtype == DType::I8 && (want == DType::I4 || want == DType::I2)));
  if (arr.dtype != want && !bf16FromF32 && !narrowBits)
    fail(what + ": expected dtype " + dtypeName(want) + ", got " +
         dtypeName(arr.dtype));
  if (arr.shape != info.shape)
    fail(what + ": expected shape " + shapeString(info.shape) + ", got " +
         shapeString(arr.shape));
  return bf16FromF32 ? f32BytesToBf16(arr.data) : std::move(arr.data);
}

/// Writes `bytes` of tensor `info` as .npy (bfloat16 as float32).
void saveTensor(const TensorInfo &info, const std::vector<uint8_t> &bytes,
                const fs::path &path) {
  std::string error;
  bool bf16 = info.dtype == OT_DTYPE_BFLOAT16;
  std::vector<uint8_t> converted;
  if (bf16)
    converted = bf16BytesToF32(bytes);
  const std::vector<uint8_t> &data = bf16 ? converted : bytes;
  DType dtype = bf16 ? DType::F32 : static_cast<DType>(info.dtype);
  if (isNarrowDType(dtype))
    dtype = DType::U8; // the bit patterns
  if (!writeNpy(path.string(), dtype, info.shape, data.data(), data.size(),
                error))
    fail(error);
}

/// File names for the outputs: sanitized, and made unique when two names
/// sanitize to the same string.
std::vector<std::string> outputFileNames(const std::vector<TensorInfo> &outs) {
  std::vector<std::string> names;
  std::set<std::string> used;
  for (size_t i = 0; i < outs.size(); ++i) {
    std::string base = sanitizeFileName(outs[i].name), name = base;
    for (int n = 1; used.count(name); ++n)
      name = base + "_" + std::to_string(n);
    used.insert(name);
    names.push_back(name);
  }
  return names;
}

/// The shape variant (--dim) of the artifact whose inputs have the shapes
/// of the given arrays; 0 for an artifact without variants or for random
/// inputs. Shapes no variant has are an error listing those it has.
size_t chooseVariant(const Session &session,
                     const std::vector<std::pair<std::string, std::string>>
                         &given,
                     const std::vector<NpyArray> &arrays) {
  if (session.variantCount() <= 1 || given.empty())
    return 0;
  std::vector<TensorRef> shapes;
  for (size_t k = 0; k < given.size(); ++k)
    shapes.push_back({given[k].first, static_cast<ot_dtype>(arrays[k].dtype),
                      arrays[k].shape, nullptr, 0});
  return session.selectVariant(shapes);
}

int runTool(const Options &o) {
  // "auto" means a device that can run this artifact: a CUDA artifact on the
  // best CUDA device, a Vulkan one on the best Vulkan device (only the header
  // is read here). An unreadable artifact keeps "auto" and is reported by
  // Session::load.
  std::string deviceName = o.device;
  onnx_tosa::Target target;
  std::string ignored;
  if (deviceName == "auto" &&
      onnx_tosa::readArtifactTarget(o.artifact, target, ignored))
    deviceName = target == onnx_tosa::Target::Cuda ? "cuda" : "vulkan";
  Device device = Device::open(deviceName);
  Session session = Session::load(device, o.artifact);
  // Every input is read once, here: (name, where it came from) and its
  // array.
  std::vector<std::pair<std::string, std::string>> sources;
  std::vector<NpyArray> arrays;
  for (const auto &[name, source] : o.inputs) {
    std::string error;
    NpyArray array;
    if (isInlineValue(source) ? !parseInlineValue(source, array, error)
                              : !readNpy(source, array, error))
      fail("input '" + name + "': " + error);
    sources.emplace_back(name, source);
    arrays.push_back(std::move(array));
  }
  for (const std::string &archive : o.archives) {
    std::vector<std::pair<std::string, NpyArray>> entries;
    std::string error;
    if (!readNpz(archive, entries, error))
      fail("--inputs: " + error);
    for (auto &[name, array] : entries) {
      sources.emplace_back(name, archive);
      arrays.push_back(std::move(array));
    }
  }
  size_t variant = chooseVariant(session, sources, arrays);
  std::vector<TensorInfo> inputs = session.inputs(variant);
  std::vector<TensorInfo> outputs = session.outputs(variant);

  std::map<std::string, size_t> inputIndex;
  for (size_t i = 0; i < inputs.size(); ++i)
    inputIndex[inputs[i].name] = i;

  std::vector<std::vector<uint8_t>> inputData(inputs.size());
  std::vector<bool> given(inputs.size(), false);
  // Names the session does not list go to the runtime as they are: an input
  // frozen at compile time is accepted there only with its frozen value, and
  // any other name is reported as unknown.
  std::vector<TensorInfo> extraInfo;
  std::vector<std::vector<uint8_t>> extraData;
  for (size_t k = 0; k < sources.size(); ++k) {
    const auto &[name, file] = sources[k];
    NpyArray &arr = arrays[k];
    auto it = inputIndex.find(name);
    if (it == inputIndex.end()) {
      extraInfo.push_back({name, static_cast<ot_dtype>(arr.dtype), arr.shape,
                           arr.data.size()});
      extraData.push_back(std::move(arr.data));
      continue;
    }
    if (given[it->second])
      fail("input '" + name + "' is given more than once");
    inputData[it->second] = loadInput(inputs[it->second], file, std::move(arr));
    given[it->second] = true;
  }

  std::string missing;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!given[i])
      missing += (missing.empty() ? "" : ", ") + describe(inputs[i]);
  // A name the model does not list cannot stand in for one it does: with an
  // input missing, it is a misspelling, not a frozen input.
  if (!missing.empty() && !extraInfo.empty()) {
    std::string listed;
    for (const TensorInfo &t : inputs)
      listed += (listed.empty() ? "" : ", ") + describe(t);
    fail("unknown input '" + extraInfo.front().name +
         "'; the model's inputs are: " + listed);
  }
  if (!missing.empty() && !o.randomInputs)
    fail("missing input " + missing +
         "; give each with --input NAME=FILE.npy (or NAME=DIMx...xTYPE="
         "VALUES), --inputs FILE.npz, or use --random-inputs");

  fs::path dir(o.outputDir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    fail("cannot create output directory '" + o.outputDir +
         "': " + ec.message());

  if (!o.quiet) {
    std::printf("device: %s (%s)\n", device.id().c_str(),
                device.name().c_str());
    if (!session.modelName().empty())
      std::printf("model: %s\n", session.modelName().c_str());
  }

  for (size_t i = 0; i < inputs.size(); ++i) {
    if (given[i])
      continue;
    inputData[i].resize(inputs[i].byteSize);
    fillRandom(inputs[i].dtype, o.seed, i, inputData[i]);
    fs::path file =
        dir / ("input_" + sanitizeFileName(inputs[i].name) + ".npy");
    saveTensor(inputs[i], inputData[i], file);
    if (!o.quiet)
      std::printf(
          "random input %s: %s %s seed %llu -> %s\n", inputs[i].name.c_str(),
          ot_dtype_name(inputs[i].dtype), shapeString(inputs[i].shape).c_str(),
          static_cast<unsigned long long>(o.seed), file.string().c_str());
  }

  std::vector<TensorRef> refs;
  for (size_t i = 0; i < inputs.size(); ++i)
    refs.push_back({inputs[i].name, inputs[i].dtype, inputs[i].shape,
                    inputData[i].data(), inputData[i].size()});
  for (size_t i = 0; i < extraInfo.size(); ++i)
    refs.push_back({extraInfo[i].name, extraInfo[i].dtype, extraInfo[i].shape,
                    extraData[i].data(), extraData[i].size()});
  std::vector<Tensor> results = session.run(refs);
  if (o.benchmark) {
    // The first run above was the warm-up (module load, graph capture).
    std::vector<double> ms, kernelMs, deviceMs;
    for (unsigned i = 0; i < o.benchmark; ++i) {
      auto start = std::chrono::steady_clock::now();
      (void)session.run(refs);
      ms.push_back(std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count());
      ot_run_timing timing = session.lastRunTiming();
      kernelMs.push_back(timing.execute_ms);
      if (timing.device_ms >= 0)
        deviceMs.push_back(timing.device_ms);
    }
    std::sort(ms.begin(), ms.end());
    std::sort(kernelMs.begin(), kernelMs.end());
    // "execute" leaves out the host<->device copies of inputs and outputs.
    std::printf("benchmark: %u runs, median %.4f ms, min %.4f ms; execute "
                "median %.4f ms, min %.4f ms",
                o.benchmark, ms[ms.size() / 2], ms.front(),
                kernelMs[kernelMs.size() / 2], kernelMs.front());
    // The kernels by the device's own timer, where it has one.
    if (deviceMs.size() == ms.size()) {
      std::sort(deviceMs.begin(), deviceMs.end());
      std::printf("; device median %.4f ms, min %.4f ms",
                  deviceMs[deviceMs.size() / 2], deviceMs.front());
    }
    std::printf("\n");
  }

  if (o.profile)
    printProfile(session.profile(o.profile), o.profile, o.profileRows);

  std::vector<std::string> fileNames = outputFileNames(outputs);
  for (size_t i = 0; i < results.size(); ++i) {
    const Tensor &t = results[i];
    fs::path file = dir / (fileNames[i] + ".npy");
    saveTensor(t.info, t.data, file);
    if (!o.quiet)
      std::printf(
          "output %s: %s %s = %s -> %s\n", t.info.name.c_str(),
          ot_dtype_name(t.info.dtype), shapeString(t.info.shape).c_str(),
          formatValues(t.info.dtype, t.data, 8).c_str(), file.string().c_str());
  }
  return 0;
}

/// Keeps the error on one line even when a driver log spans several.
std::string oneLine(std::string s) {
  for (char &c : s)
    if (c == '\n' || c == '\r')
      c = ' ';
  return s;
}

} // namespace

/// --inspect: the artifact's contents, read without a device.
int inspect(const std::string &path) {
  Artifact a;
  std::string error;
  if (!readArtifact(path, a, error))
    fail(error);
  uint64_t weights = 0, scratch = 0;
  for (const Buffer &b : a.buffers)
    (b.kind == BufferKind::Constant ? weights : scratch) +=
        b.kind == BufferKind::Input ? 0 : b.sizeBytes;
  auto orUnknown = [](const std::string &s) {
    return s.empty() ? std::string("(not recorded)") : s;
  };
  std::printf("model:     %s\n", a.modelName.c_str());
  std::printf("target:    %s\n", a.target == Target::Cuda ? "cuda" : "vulkan");
  if (a.target == Target::Cuda)
    std::printf("chip:      %s\n", orUnknown(a.provenance.chip).c_str());
  std::printf("producer:  %s\n", orUnknown(a.provenance.producer).c_str());
  std::printf("options:   %s\n", a.provenance.options.c_str());
  std::printf("kernels:   %zu modules, %zu launches\n", a.modules.size(),
              a.launches.size());
  std::printf("memory:    %llu bytes of weights, %llu bytes of intermediates\n",
              static_cast<unsigned long long>(weights),
              static_cast<unsigned long long>(scratch));
  std::printf("content:   %016llx (of the program: the same for any "
              "producer and options that give it)\n",
              static_cast<unsigned long long>(contentHash(a)));
  for (const auto *list : {&a.inputs, &a.outputs})
    for (const TensorBinding &t : *list)
      std::printf("%-10s %s %s %s%s\n",
                  list == &a.inputs ? "input:" : "output:", t.name.c_str(),
                  dtypeName(t.dtype), shapeString(t.shape).c_str(),
                  t.narrowed ? " (computed in 32 bits)"
                  : t.boundedDim < 0
                      ? ""
                      : (" (dimension " + std::to_string(t.boundedDim) +
                         " depends on the data: at most " +
                         std::to_string(t.shape[t.boundedDim]) + ")")
                            .c_str());
  for (const FrozenInput &f : a.frozenInputs)
    std::printf("frozen:    %s %s %s (compiled for one value)\n",
                f.name.c_str(), dtypeName(f.dtype),
                shapeString(f.shape).c_str());
  // The programs for other input shapes (--dim), whose weights are the
  // first one's.
  for (size_t v = 0; v < a.variants.size(); ++v) {
    std::string shapes;
    for (const TensorBinding &t : a.variants[v].inputs)
      shapes += (shapes.empty() ? "" : ", ") + t.name + " " +
                shapeString(t.shape);
    std::printf("variant:   %zu: %s (%zu launches)\n", v + 1, shapes.c_str(),
                a.variants[v].launches.size());
  }
  return 0;
}

int main(int argc, char **argv) {
  // Progress lines appear as they are printed, also through a pipe.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  try {
    Options options = parseArgs(argc, argv);
    if (options.inspect)
      return inspect(options.artifact);
    return runTool(options);
  } catch (const CliError &e) {
    std::fprintf(stderr, "onnx-tosa-run: error: %s\n",
                 oneLine(e.message).c_str());
  } catch (const RuntimeError &e) {
    std::fprintf(stderr, "onnx-tosa-run: error: %s\n",
                 oneLine(e.what()).c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "onnx-tosa-run: error: %s\n",
                 oneLine(e.what()).c_str());
  }
  return 1;
}
