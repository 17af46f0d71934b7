//===- artifact_test.cpp - Artifact serialization tests -------------------===//

#include "test_util.h"

#include "onnx_tosa/artifact.h"

#include <algorithm>

using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

Artifact sampleArtifact() {
  Artifact a;
  a.target = Target::Vulkan;
  a.modelName = "sample-model";
  a.buffers.push_back({BufferKind::Input, 24, {}});
  a.buffers.push_back({BufferKind::Constant, 8, {1, 2, 3, 4, 5, 6, 7, 8}});
  a.buffers.push_back({BufferKind::Intermediate, 1ull << 33, {}});
  a.inputs.push_back({"x", DType::F32, {2, 3}, 0});
  a.inputs.push_back({"scalar", DType::I64, {}, 1});
  a.inputs.back().narrowed = true; // computed as int32
  a.outputs.push_back({"y:0/out", DType::BF16, {1, 2, 3, 4}, 2});
  // A data-dependent size: dimension 1 at most 5, its count in buffer 2.
  a.outputs.push_back({"nz", DType::I64, {2, 5}, 2, 1, 2});
  a.modules.push_back({"m0", {0x03, 0x02, 0x23, 0x07, 0, 0, 0, 0}});
  a.modules.push_back({"ptx", {'.', 'v', '\0'}});
  Launch l;
  l.module = 1;
  l.entry = "kernel_a";
  l.grid[0] = 7;
  l.grid[1] = 8;
  l.grid[2] = 9;
  l.block[0] = 256;
  l.sharedBytes = 99328;
  l.flags = kLaunchWaitsForPrevious;
  l.nodes = "conv_1, relu_1";
  l.args = {0, 1, 2, 2};
  a.launches.push_back(l);
  a.launches.push_back(Launch{});
  a.frozenInputs.push_back({"axes", DType::I64, {2}, std::vector<uint8_t>(16, 7)});
  a.frozenInputs.push_back({"flag", DType::Bool, {}, {1}});
  a.provenance = {"onnx-tosa 0.1.0 (commit abc), LLVM/MLIR 22.1.8", "sm_90a",
                  "--precision=fp16"};
  return a;
}

void expectSame(const TensorBinding &x, const TensorBinding &y) {
  EXPECT_EQ(x.name, y.name);
  EXPECT_EQ(x.dtype, y.dtype);
  EXPECT_EQ(x.shape, y.shape);
  EXPECT_EQ(x.buffer, y.buffer);
  EXPECT_EQ(x.boundedDim, y.boundedDim);
  EXPECT_EQ(x.countBuffer, y.countBuffer);
  EXPECT_EQ(x.narrowed, y.narrowed);
}

void expectSame(const Artifact &x, const Artifact &y) {
  EXPECT_EQ(x.target, y.target);
  EXPECT_EQ(x.modelName, y.modelName);
  ASSERT_EQ(x.buffers.size(), y.buffers.size());
  for (size_t i = 0; i < x.buffers.size(); ++i) {
    EXPECT_EQ(x.buffers[i].kind, y.buffers[i].kind);
    EXPECT_EQ(x.buffers[i].sizeBytes, y.buffers[i].sizeBytes);
    EXPECT_EQ(x.buffers[i].data, y.buffers[i].data);
  }
  ASSERT_EQ(x.inputs.size(), y.inputs.size());
  for (size_t i = 0; i < x.inputs.size(); ++i)
    expectSame(x.inputs[i], y.inputs[i]);
  ASSERT_EQ(x.outputs.size(), y.outputs.size());
  for (size_t i = 0; i < x.outputs.size(); ++i)
    expectSame(x.outputs[i], y.outputs[i]);
  ASSERT_EQ(x.modules.size(), y.modules.size());
  for (size_t i = 0; i < x.modules.size(); ++i) {
    EXPECT_EQ(x.modules[i].name, y.modules[i].name);
    EXPECT_EQ(x.modules[i].binary, y.modules[i].binary);
  }
  ASSERT_EQ(x.launches.size(), y.launches.size());
  for (size_t i = 0; i < x.launches.size(); ++i) {
    const Launch &a = x.launches[i], &b = y.launches[i];
    EXPECT_EQ(a.module, b.module);
    EXPECT_EQ(a.entry, b.entry);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(a.grid[d], b.grid[d]);
      EXPECT_EQ(a.block[d], b.block[d]);
    }
    EXPECT_EQ(a.sharedBytes, b.sharedBytes);
    EXPECT_EQ(a.flags, b.flags);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.args, b.args);
  }
  ASSERT_EQ(x.frozenInputs.size(), y.frozenInputs.size());
  for (size_t i = 0; i < x.frozenInputs.size(); ++i) {
    EXPECT_EQ(x.frozenInputs[i].name, y.frozenInputs[i].name);
    EXPECT_EQ(x.frozenInputs[i].dtype, y.frozenInputs[i].dtype);
    EXPECT_EQ(x.frozenInputs[i].shape, y.frozenInputs[i].shape);
    EXPECT_EQ(x.frozenInputs[i].data, y.frozenInputs[i].data);
  }
  EXPECT_EQ(x.provenance.producer, y.provenance.producer);
  EXPECT_EQ(x.provenance.chip, y.provenance.chip);
  EXPECT_EQ(x.provenance.options, y.provenance.options);
}

} // namespace

TEST(Artifact, DTypeTable) {
  EXPECT_EQ(dtypeSize(DType::F32), 4u);
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeSize(DType::U64), 8u);
  EXPECT_EQ(dtypeSize(static_cast<DType>(99)), 0u);
  EXPECT_STREQ(dtypeName(DType::F16), "float16");
  EXPECT_STREQ(dtypeName(DType::I64), "int64");
  EXPECT_STREQ(dtypeName(static_cast<DType>(99)), "?");
}

TEST(Artifact, LayoutStartsWithMagicAndVersion) {
  std::vector<uint8_t> bytes = serializeArtifact(Artifact{});
  ASSERT_GE(bytes.size(), 12u);
  EXPECT_EQ(std::string(reinterpret_cast<char *>(bytes.data()), 8),
            std::string("OTSAART\0", 8));
  EXPECT_EQ(bytes[8], kArtifactVersion);
  EXPECT_EQ(bytes[9] | bytes[10] | bytes[11], 0);
  EXPECT_EQ(bytes[12], static_cast<uint8_t>(Target::Cuda)); // little-endian
}

TEST(Artifact, RoundTripInMemory) {
  Artifact a = sampleArtifact(), b;
  std::vector<uint8_t> bytes = serializeArtifact(a);
  std::string error;
  ASSERT_TRUE(parseArtifact(bytes.data(), bytes.size(), b, error)) << error;
  expectSame(a, b);
}

TEST(Artifact, RoundTripThroughFile) {
  std::string path = makeTempDir() + "/model.otsa";
  Artifact a = sampleArtifact(), b;
  std::string error;
  ASSERT_TRUE(writeArtifact(a, path, error)) << error;
  ASSERT_TRUE(readArtifact(path, b, error)) << error;
  expectSame(a, b);
}

TEST(Artifact, EveryTruncationIsRejected) {
  std::vector<uint8_t> bytes = serializeArtifact(sampleArtifact());
  for (size_t len = 0; len < bytes.size(); ++len) {
    Artifact out;
    std::string error;
    EXPECT_FALSE(parseArtifact(bytes.data(), len, out, error)) << len;
    EXPECT_FALSE(error.empty()) << len;
  }
}

TEST(Artifact, CorruptBytesNeverCrash) {
  std::vector<uint8_t> good = serializeArtifact(sampleArtifact());
  for (size_t i = 0; i < good.size(); ++i)
    for (uint8_t v : {0x00, 0x7f, 0xff}) {
      std::vector<uint8_t> bad = good;
      bad[i] = v;
      Artifact out;
      std::string error;
      // Either outcome is fine; a failure must explain itself.
      if (!parseArtifact(bad.data(), bad.size(), out, error)) {
        EXPECT_FALSE(error.empty());
      }
    }
}

TEST(Artifact, AbsurdCountIsRejectedWithoutAllocating) {
  std::vector<uint8_t> bytes = serializeArtifact(Artifact{});
  // Patch the buffer count (after magic, version, target, empty name).
  size_t countAt = 8 + 4 + 4 + 8;
  for (int i = 0; i < 8; ++i)
    bytes[countAt + i] = 0xff;
  Artifact out;
  std::string error;
  EXPECT_FALSE(parseArtifact(bytes.data(), bytes.size(), out, error));
  EXPECT_NE(error.find("buffer list"), std::string::npos) << error;
  EXPECT_NE(error.find("exceeds"), std::string::npos) << error;
}

TEST(Artifact, RejectsForeignFilesAndVersions) {
  Artifact out;
  std::string error;
  std::string text = "PK\x03\x04 this is a zip file, not an artifact";
  EXPECT_FALSE(parseArtifact(reinterpret_cast<const uint8_t *>(text.data()),
                             text.size(), out, error));
  EXPECT_NE(error.find("not an onnx-tosa artifact"), std::string::npos)
      << error;

  std::vector<uint8_t> bytes = serializeArtifact(Artifact{});
  bytes[8] = 42;
  EXPECT_FALSE(parseArtifact(bytes.data(), bytes.size(), out, error));
  EXPECT_NE(error.find("version 42"), std::string::npos) << error;
}

// Version 2 launches had no dynamic shared memory, version 3 ones no flags,
// and artifacts before version 5 no provenance and no checksum: such
// artifacts still load, with those 0 or empty.
TEST(Artifact, ReadsVersions2To4) {
  Artifact a;
  Launch l;
  l.entry = "k";
  l.block[0] = 0x11223344;
  l.block[1] = 0x55667788;
  l.block[2] = 0x01020304;
  l.sharedBytes = 0xdeadbeef;
  l.flags = 0x0badf00d;
  a.modules.push_back({"m", {'.', '\0'}});
  a.launches.push_back(l);
  const uint8_t pattern[] = {0x04, 0x03, 0x02, 0x01, 0xef, 0xbe,
                             0xad, 0xde, 0x0d, 0xf0, 0xad, 0x0b};
  for (uint8_t version : {2, 3, 4}) {
    std::vector<uint8_t> bytes = serializeArtifact(a);
    // No bounded outputs and no narrowed inputs (version 6), no variants,
    // the provenance (three empty strings) and the checksum at the end.
    ASSERT_GT(bytes.size(), 56u);
    bytes.resize(bytes.size() - 8);
    ASSERT_TRUE(std::all_of(bytes.end() - 48, bytes.end(),
                            [](uint8_t b) { return b == 0; }));
    bytes.resize(bytes.size() - 48);
    auto at = std::search(bytes.begin(), bytes.end(), std::begin(pattern),
                          std::end(pattern));
    ASSERT_NE(at, bytes.end());
    // The launch's nodes (an empty string), the flags before version 4,
    // and the shared bytes before version 3.
    bytes.erase(at + 12, at + 20);
    if (version < 4)
      bytes.erase(at + (version == 2 ? 4 : 8), at + 12);
    bytes[8] = version;
    Artifact out;
    std::string error;
    ASSERT_TRUE(parseArtifact(bytes.data(), bytes.size(), out, error))
        << error;
    ASSERT_EQ(out.launches.size(), 1u);
    EXPECT_EQ(out.launches[0].block[2], 0x01020304u);
    EXPECT_EQ(out.launches[0].sharedBytes, version == 2 ? 0u : 0xdeadbeefu);
    EXPECT_EQ(out.launches[0].flags, version == 4 ? 0x0badf00du : 0u);
    EXPECT_TRUE(out.provenance.producer.empty());
  }
}

TEST(Artifact, ShapeVariantsRoundTripWithTheirWeightsStoredOnce) {
  Artifact a = sampleArtifact();
  a.buffers[1].data.assign(4096, 7); // a weight worth storing once
  a.buffers[1].sizeBytes = 4096;
  Artifact v = sampleArtifact();
  v.buffers[1] = a.buffers[1];       // the same weight
  v.buffers.push_back({BufferKind::Constant, 4, {9, 9, 9, 9}}); // its own
  v.inputs[0].shape = {5, 3};
  v.launches[0].grid[0] = 35;
  v.provenance = {};
  a.variants.push_back(v);
  std::vector<uint8_t> one = serializeArtifact(sampleArtifact());
  std::vector<uint8_t> bytes = serializeArtifact(a);
  Artifact out;
  std::string error;
  ASSERT_TRUE(parseArtifact(bytes.data(), bytes.size(), out, error)) << error;
  ASSERT_EQ(out.variants.size(), 1u);
  const Artifact &w = out.variants[0];
  EXPECT_EQ(w.target, a.target);
  EXPECT_EQ(w.inputs[0].shape, (std::vector<int64_t>{5, 3}));
  EXPECT_EQ(w.launches[0].grid[0], 35u);
  ASSERT_EQ(w.buffers.size(), 4u);
  EXPECT_EQ(w.buffers[1].kind, BufferKind::Constant);
  EXPECT_EQ(w.buffers[1].data, a.buffers[1].data);
  EXPECT_EQ(w.buffers[3].data, (std::vector<uint8_t>{9, 9, 9, 9}));
  EXPECT_TRUE(w.variants.empty());
  // The 4 KiB weight is in the file once.
  auto count = [&](const std::vector<uint8_t> &hay) {
    size_t n = 0;
    for (auto it = hay.begin();
         (it = std::search(it, hay.end(), a.buffers[1].data.begin(),
                           a.buffers[1].data.end())) != hay.end();
         it += a.buffers[1].data.size())
      ++n;
    return n;
  };
  EXPECT_EQ(count(bytes), 1u);
  EXPECT_LT(bytes.size(), 2 * one.size() + 4096);
}

TEST(Artifact, ChecksumFindsDamageTheStructureDoesNot) {
  std::vector<uint8_t> bytes = serializeArtifact(sampleArtifact());
  Artifact out;
  std::string error;
  ASSERT_TRUE(parseArtifact(bytes.data(), bytes.size(), out, error)) << error;
  // One bit of a weight: still a well-formed artifact, but not this one.
  const std::vector<uint8_t> weights = sampleArtifact().buffers[1].data;
  ASSERT_FALSE(weights.empty());
  auto at = std::search(bytes.begin(), bytes.end(), weights.begin(),
                        weights.end());
  ASSERT_NE(at, bytes.end());
  *at ^= 1;
  EXPECT_FALSE(parseArtifact(bytes.data(), bytes.size(), out, error));
  EXPECT_NE(error.find("checksum does not match"), std::string::npos) << error;
}

TEST(Artifact, RejectsTrailingBytesAndBadEnums) {
  std::vector<uint8_t> bytes = serializeArtifact(sampleArtifact());
  bytes.push_back(0);
  Artifact out;
  std::string error;
  EXPECT_FALSE(parseArtifact(bytes.data(), bytes.size(), out, error));
  EXPECT_NE(error.find("trailing"), std::string::npos) << error;

  bytes = serializeArtifact(Artifact{});
  bytes[12] = 7; // target
  EXPECT_FALSE(parseArtifact(bytes.data(), bytes.size(), out, error));
  EXPECT_NE(error.find("unknown target 7"), std::string::npos) << error;
}

TEST(Artifact, BoundedDimensionOutsideTheShapeIsRejected) {
  Artifact a = sampleArtifact(), out;
  a.outputs[1].boundedDim = 2; // the shape has two dimensions
  std::vector<uint8_t> bytes = serializeArtifact(a);
  std::string error;
  EXPECT_FALSE(parseArtifact(bytes.data(), bytes.size(), out, error));
  EXPECT_NE(error.find("bounded output"), std::string::npos) << error;
}

TEST(Artifact, MissingFileNamesThePath) {
  Artifact out;
  std::string error;
  EXPECT_FALSE(readArtifact("/nonexistent/dir/model.otsa", out, error));
  EXPECT_NE(error.find("/nonexistent/dir/model.otsa"), std::string::npos)
      << error;
}

// NVIDIA's compatibility rules (CUDA C++ Programming Guide, "Binary
// Compatibility" and "PTX Compatibility"): a cubin runs on its major
// version at an equal or later minor one, PTX on any later GPU, and
// architecture-specific code (sm_90a) on that version only.
TEST(Artifact, CudaCodeRunsWhereNvidiaSaysItDoes) {
  // Runs.
  EXPECT_EQ(cudaCodeMismatch("sm_90a", true, "sm_90a"), "");
  EXPECT_EQ(cudaCodeMismatch("sm_80", true, "sm_86"), "");
  EXPECT_EQ(cudaCodeMismatch("sm_80", false, "sm_90a"), "");
  EXPECT_EQ(cudaCodeMismatch("sm_90", false, "sm_120a"), "");
  // Not recorded (an older artifact): left to the driver.
  EXPECT_EQ(cudaCodeMismatch("", true, "sm_80"), "");
  // Does not run, and says what to do instead.
  std::string newer = cudaCodeMismatch("sm_90a", true, "sm_80");
  EXPECT_NE(newer.find("this GPU is sm_80"), std::string::npos) << newer;
  EXPECT_NE(newer.find("--target=cuda:sm_80"), std::string::npos) << newer;
  std::string specific = cudaCodeMismatch("sm_90a", false, "sm_100a");
  EXPECT_NE(specific.find("architecture-specific"), std::string::npos)
      << specific;
  std::string major = cudaCodeMismatch("sm_80", true, "sm_90a");
  EXPECT_NE(major.find("same major version"), std::string::npos) << major;
  EXPECT_NE(major.find("--cuda-format=ptx"), std::string::npos) << major;
  EXPECT_NE(cudaCodeMismatch("sm_86", true, "sm_80"), "");
  EXPECT_NE(cudaCodeMismatch("sm_86", false, "sm_80"), "");
}
