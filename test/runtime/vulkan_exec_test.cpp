//===- vulkan_exec_test.cpp - Real kernel execution on a Vulkan device ----===//
//
// Runs hand-written SPIR-V kernels (kernels/*.spvasm, assembled at build
// time) through the public C API and checks every result bit against the
// host. Skips only when the machine has no Vulkan device at all.
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

#include <cstdlib>
#include <cstring>

using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

class VulkanExec : public ::testing::Test {
protected:
  void SetUp() override {
    spirv = loadTestKernel("add_square.spv");
    if (spirv.empty())
      GTEST_SKIP() << "test kernels were not assembled (spirv-as missing at "
                      "configure time)";
    StatusResult r = take(ot_device_open("vulkan", &device.ptr));
    if (r.code == OT_STATUS_UNAVAILABLE)
      GTEST_SKIP() << "no Vulkan device: " << r.message;
    ASSERT_TRUE(r.ok()) << r.message;
    std::cout << "[ device   ] " << ot_device_id(device.ptr) << " ("
              << ot_device_name(device.ptr) << ")\n";
  }

  StatusResult load(const Artifact &a, SessionHandle &s) {
    std::vector<uint8_t> bytes = serializeArtifact(a);
    return take(ot_session_load_from_memory(device.ptr, bytes.data(),
                                            bytes.size(), &s.ptr));
  }

  Artifact addSquare() {
    return makeAddSquareArtifact(Target::Vulkan, spirv, "add", "square");
  }

  DeviceHandle device;
  std::vector<uint8_t> spirv;
  const std::vector<int64_t> shape{static_cast<int64_t>(kAddSquareN)};
};

/// Index of the first element whose bits differ, or -1.
long firstMismatch(const std::vector<float> &got,
                   const std::vector<float> &want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0)
      return static_cast<long>(i);
  return -1;
}

} // namespace

/// Two runs of the add_square session with different inputs, outputs
/// checked exactly against the host: the recorded commands and the constant
/// must be reused correctly.
void expectAddSquareRuns(ot_session *session) {
  const std::vector<int64_t> shape{static_cast<int64_t>(kAddSquareN)};
  std::vector<float> b = addSquareConstant();
  for (int run = 0; run < 2; ++run) {
    std::vector<float> a = addSquareInput(run);
    std::vector<float> c(kAddSquareN, -1.0f), d(kAddSquareN, -1.0f);
    std::vector<float> wantC(kAddSquareN), wantD(kAddSquareN);
    for (size_t i = 0; i < kAddSquareN; ++i) {
      wantC[i] = a[i] + b[i];
      wantD[i] = wantC[i] * wantC[i];
    }
    ot_host_tensor in = floatTensor("a", a, shape);
    ot_host_tensor outs[] = {floatTensor("d", d, shape),
                             floatTensor("c", c, shape)};
    StatusResult r = take(ot_session_run(session, &in, 1, outs, 2));
    ASSERT_TRUE(r.ok()) << r.message;
    long bad = firstMismatch(c, wantC);
    EXPECT_EQ(bad, -1) << "run " << run << ": c[" << bad << "] = " << c[bad]
                       << ", want " << wantC[bad];
    bad = firstMismatch(d, wantD);
    EXPECT_EQ(bad, -1) << "run " << run << ": d[" << bad << "] = " << d[bad]
                       << ", want " << wantD[bad];
  }
}

TEST_F(VulkanExec, AddThenSquareMatchesHostExactly) {
  // Load from a file this time, to cover ot_session_load.
  std::string path = makeTempDir() + "/add_square.otsa";
  std::string error;
  ASSERT_TRUE(writeArtifact(addSquare(), path, error)) << error;
  SessionHandle session;
  StatusResult r =
      take(ot_session_load(device.ptr, path.c_str(), &session.ptr));
  ASSERT_TRUE(r.ok()) << r.message;

  EXPECT_STREQ(ot_session_model_name(session.ptr), "add_square");
  ASSERT_EQ(ot_session_input_count(session.ptr), 1u);
  ASSERT_EQ(ot_session_output_count(session.ptr), 2u);
  ot_tensor_info info;
  ASSERT_TRUE(take(ot_session_input_info(session.ptr, 0, &info)).ok());
  EXPECT_STREQ(info.name, "a");
  EXPECT_EQ(info.dtype, OT_DTYPE_FLOAT32);
  ASSERT_EQ(info.rank, 1u);
  EXPECT_EQ(info.shape[0], 1000);
  EXPECT_EQ(info.byte_size, 4000u);
  ASSERT_TRUE(take(ot_session_output_info(session.ptr, 1, &info)).ok());
  EXPECT_STREQ(info.name, "c");
  EXPECT_EQ(take(ot_session_output_info(session.ptr, 2, &info)).code,
            OT_STATUS_INVALID_ARGUMENT);

  expectAddSquareRuns(session.ptr);
}

TEST_F(VulkanExec, StagedCopiesMatchHostExactly) {
  // The discrete-GPU path: buffers the host does not map, weights and
  // inputs copied in and outputs copied out through the staging buffer.
  ::setenv("ONNX_TOSA_VULKAN_STAGING", "1", 1);
  DeviceHandle staged;
  StatusResult r = take(ot_device_open("vulkan", &staged.ptr));
  ::unsetenv("ONNX_TOSA_VULKAN_STAGING");
  ASSERT_TRUE(r.ok()) << r.message;
  std::vector<uint8_t> bytes = serializeArtifact(addSquare());
  SessionHandle session;
  r = take(ot_session_load_from_memory(staged.ptr, bytes.data(), bytes.size(),
                                       &session.ptr));
  ASSERT_TRUE(r.ok()) << r.message;
  expectAddSquareRuns(session.ptr);
}

TEST_F(VulkanExec, OutputByIndexAndSubset) {
  SessionHandle session;
  StatusResult r = load(addSquare(), session);
  ASSERT_TRUE(r.ok()) << r.message;
  std::vector<float> a = addSquareInput(5), b = addSquareConstant();
  std::vector<float> d(kAddSquareN);
  ot_host_tensor in = floatTensor(nullptr, a, shape); // input 0 by index
  ot_host_tensor out = floatTensor(nullptr, d, shape);
  out.index = 0; // "d"
  r = take(ot_session_run(session.ptr, &in, 1, &out, 1));
  ASSERT_TRUE(r.ok()) << r.message;
  for (size_t i = 0; i < kAddSquareN; ++i) {
    float c = a[i] + b[i];
    ASSERT_EQ(d[i], c * c) << i;
  }
  // Zero outputs is allowed: the model still runs.
  r = take(ot_session_run(session.ptr, &in, 1, nullptr, 0));
  EXPECT_TRUE(r.ok()) << r.message;
}

TEST_F(VulkanExec, BadInputsNameTheTensorAndBothSides) {
  SessionHandle session;
  StatusResult r = load(addSquare(), session);
  ASSERT_TRUE(r.ok()) << r.message;
  std::vector<float> a(kAddSquareN), d(kAddSquareN);
  ot_host_tensor out = floatTensor("d", d, shape);

  auto runWith = [&](ot_host_tensor in) {
    return take(ot_session_run(session.ptr, &in, 1, &out, 1));
  };
  auto expectMessage = [](const StatusResult &r,
                          std::initializer_list<const char *> parts) {
    EXPECT_EQ(r.code, OT_STATUS_INVALID_ARGUMENT) << r.message;
    for (const char *p : parts)
      EXPECT_NE(r.message.find(p), std::string::npos)
          << "'" << p << "' not in: " << r.message;
  };

  expectMessage(runWith(floatTensor("x", a, shape)),
                {"unknown input 'x'", "a (float32 [1000])"});

  ot_host_tensor wrongType = floatTensor("a", a, shape);
  wrongType.dtype = OT_DTYPE_INT32;
  expectMessage(runWith(wrongType),
                {"input 'a'", "expected dtype float32", "got int32"});

  std::vector<int64_t> badShape{10, 100};
  expectMessage(runWith(floatTensor("a", a, badShape)),
                {"input 'a'", "expected shape [1000]", "got [10, 100]"});

  ot_host_tensor shortData = floatTensor("a", a, shape);
  shortData.byte_size -= 4;
  expectMessage(runWith(shortData), {"input 'a'", "4000 bytes", "3996"});

  ot_host_tensor twice[] = {floatTensor("a", a, shape),
                            floatTensor("a", a, shape)};
  expectMessage(take(ot_session_run(session.ptr, twice, 2, &out, 1)),
                {"input 'a'", "more than once"});

  expectMessage(take(ot_session_run(session.ptr, nullptr, 0, &out, 1)),
                {"missing input a (float32 [1000])"});

  ot_host_tensor in = floatTensor("a", a, shape);
  std::vector<int64_t> outShape{999};
  ot_host_tensor badOut = floatTensor("d", d, outShape);
  expectMessage(take(ot_session_run(session.ptr, &in, 1, &badOut, 1)),
                {"output 'd'", "expected shape [1000]", "got [999]"});

  // What a C caller can pass that C++ would not: a dtype the enum does not
  // list, and a rank far larger than the shape array it points to (read
  // no further than the rank the model has).
  ot_host_tensor oddType = floatTensor("a", a, shape);
  int unknown = 999;
  std::memcpy(&oddType.dtype, &unknown, sizeof(unknown));
  expectMessage(runWith(oddType),
                {"input 'a'", "expected dtype float32", "got unknown dtype 999"});
  EXPECT_EQ(ot_dtype_size(oddType.dtype), 0u);
  EXPECT_STREQ(ot_dtype_name(oddType.dtype), "?");
  ot_host_tensor hugeRank = floatTensor("a", a, shape);
  hugeRank.rank = size_t(1) << 30;
  expectMessage(runWith(hugeRank),
                {"input 'a'", "expected shape [1000]", "got rank 1073741824"});
}

TEST_F(VulkanExec, Int64Kernel) {
  std::vector<uint8_t> module = loadTestKernel("add_i64.spv");
  ASSERT_FALSE(module.empty());
  const int64_t n = 100;
  Artifact a;
  a.target = Target::Vulkan;
  a.buffers = {{BufferKind::Input, n * 8, {}},
               {BufferKind::Input, n * 8, {}},
               {BufferKind::Intermediate, n * 8, {}}};
  a.inputs = {{"x", DType::I64, {n}, 0}, {"y", DType::I64, {n}, 1}};
  a.outputs = {{"z", DType::I64, {n}, 2}};
  a.modules = {{"i64", module}};
  Launch l;
  l.entry = "add_i64";
  l.grid[0] = 4;
  l.block[0] = 32;
  l.args = {0, 1, 2};
  a.launches = {l};
  SessionHandle session;
  StatusResult r = load(a, session);
  ASSERT_TRUE(r.ok()) << r.message;

  std::vector<int64_t> x(n), y(n), z(n, 0), shape{n};
  for (int64_t i = 0; i < n; ++i) {
    x[i] = (int64_t(1) << 40) * i - 7; // needs more than 32 bits
    y[i] = -(int64_t(3) << 33) + i * 1001;
  }
  ot_host_tensor in[] = {
      {"x", 0, OT_DTYPE_INT64, 1, shape.data(), x.data(), size_t(n) * 8},
      {"y", 0, OT_DTYPE_INT64, 1, shape.data(), y.data(), size_t(n) * 8}};
  ot_host_tensor out = {"z",          0,        OT_DTYPE_INT64, 1,
                        shape.data(), z.data(), size_t(n) * 8};
  r = take(ot_session_run(session.ptr, in, 2, &out, 1));
  ASSERT_TRUE(r.ok()) << r.message;
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(z[i], x[i] + y[i]) << i;
}

TEST_F(VulkanExec, LoadErrorsAreClear) {
  SessionHandle s;
  Artifact cudaArtifact = addSquare();
  cudaArtifact.target = Target::Cuda;
  StatusResult r = load(cudaArtifact, s);
  EXPECT_EQ(r.code, OT_STATUS_FAILED_PRECONDITION) << r.message;
  EXPECT_NE(r.message.find("compiled for CUDA"), std::string::npos)
      << r.message;

  Artifact noEntry = addSquare();
  noEntry.launches[1].entry = "cube";
  r = load(noEntry, s);
  EXPECT_EQ(r.code, OT_STATUS_NOT_FOUND) << r.message;
  EXPECT_NE(r.message.find("launch 1"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("'cube'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("add, square"), std::string::npos) << r.message;

  Artifact notSpirv = addSquare();
  notSpirv.modules[0].binary = {'h', 'e', 'l', 'l', 'o', '!', '!', '!'};
  r = load(notSpirv, s);
  EXPECT_EQ(r.code, OT_STATUS_INVALID_ARGUMENT) << r.message;
  EXPECT_NE(r.message.find("not a SPIR-V module"), std::string::npos)
      << r.message;

  Artifact badIndex = addSquare();
  badIndex.launches[0].args[2] = 17;
  r = load(badIndex, s);
  EXPECT_EQ(r.code, OT_STATUS_DATA_LOSS) << r.message;
  EXPECT_NE(r.message.find("buffer 17"), std::string::npos) << r.message;

  Artifact tooSmall = addSquare();
  tooSmall.buffers[3].sizeBytes = 100;
  r = load(tooSmall, s);
  EXPECT_EQ(r.code, OT_STATUS_DATA_LOSS) << r.message;
  EXPECT_NE(r.message.find("output 'd'"), std::string::npos) << r.message;

  std::vector<uint8_t> bytes = serializeArtifact(addSquare());
  bytes.resize(bytes.size() / 2);
  r = take(ot_session_load_from_memory(device.ptr, bytes.data(), bytes.size(),
                                       &s.ptr));
  EXPECT_EQ(r.code, OT_STATUS_DATA_LOSS) << r.message;
  EXPECT_NE(r.message.find("truncated"), std::string::npos) << r.message;

  r = take(ot_session_load(device.ptr, "/nonexistent/model.otsa", &s.ptr));
  EXPECT_EQ(r.code, OT_STATUS_NOT_FOUND) << r.message;
  EXPECT_NE(r.message.find("/nonexistent/model.otsa"), std::string::npos)
      << r.message;
  EXPECT_EQ(s.ptr, nullptr);
}

TEST_F(VulkanExec, HugeBufferIsResourceExhaustedNotACrash) {
  Artifact huge = addSquare();
  huge.buffers[2].sizeBytes = uint64_t(1) << 52;
  SessionHandle s;
  StatusResult r = load(huge, s);
  EXPECT_EQ(r.code, OT_STATUS_RESOURCE_EXHAUSTED) << r.message;
  EXPECT_NE(r.message.find("buffer 2"), std::string::npos) << r.message;
  EXPECT_EQ(s.ptr, nullptr);
}

TEST_F(VulkanExec, SessionOutlivesReleasedDevice) {
  SessionHandle session;
  StatusResult r = load(addSquare(), session);
  ASSERT_TRUE(r.ok()) << r.message;
  ot_device_release(device.ptr);
  device.ptr = nullptr;
  std::vector<float> a = addSquareInput(1), d(kAddSquareN);
  ot_host_tensor in = floatTensor("a", a, shape);
  ot_host_tensor out = floatTensor("d", d, shape);
  r = take(ot_session_run(session.ptr, &in, 1, &out, 1));
  EXPECT_TRUE(r.ok()) << r.message;
}

TEST_F(VulkanExec, SessionsOnOneDeviceShareTheirWeights) {
  SessionHandle first, second, third;
  ASSERT_TRUE(load(addSquare(), first).ok());
  ASSERT_TRUE(load(addSquare(), second).ok());
  ot_session_memory_info a, b;
  ASSERT_TRUE(take(ot_session_memory(first.ptr, &a)).ok());
  ASSERT_TRUE(take(ot_session_memory(second.ptr, &b)).ok());
  EXPECT_EQ(a.weight_bytes, 4 * kAddSquareN);
  EXPECT_EQ(a.shared_weight_bytes, 0u);
  EXPECT_EQ(b.weight_bytes, 0u);
  EXPECT_EQ(b.shared_weight_bytes, 4 * kAddSquareN);
  EXPECT_EQ(b.input_bytes, 4 * kAddSquareN);
  // The shared buffer outlives the session that uploaded it, and both
  // compute with it.
  ot_session_release(first.ptr);
  first.ptr = nullptr;
  expectAddSquareRuns(second.ptr);
  ASSERT_TRUE(load(addSquare(), third).ok());
  ASSERT_TRUE(take(ot_session_memory(third.ptr, &b)).ok());
  EXPECT_EQ(b.shared_weight_bytes, 4 * kAddSquareN);
  expectAddSquareRuns(third.ptr);

  // Other weights are not shared; nor is anything across devices.
  Artifact other = addSquare();
  other.buffers[1].data[0] ^= 1;
  SessionHandle different;
  ASSERT_EQ(other.buffers[1].kind, BufferKind::Constant);
  ASSERT_TRUE(load(other, different).ok());
  ASSERT_TRUE(take(ot_session_memory(different.ptr, &b)).ok());
  EXPECT_EQ(b.weight_bytes, 4 * kAddSquareN);
  DeviceHandle device2;
  ASSERT_TRUE(take(ot_device_open("vulkan", &device2.ptr)).ok());
  std::vector<uint8_t> bytes = serializeArtifact(addSquare());
  SessionHandle elsewhere;
  ASSERT_TRUE(take(ot_session_load_from_memory(device2.ptr, bytes.data(),
                                               bytes.size(), &elsewhere.ptr))
                  .ok());
  ASSERT_TRUE(take(ot_session_memory(elsewhere.ptr, &b)).ok());
  EXPECT_EQ(b.weight_bytes, 4 * kAddSquareN);
}
