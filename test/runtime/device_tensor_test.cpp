//===- device_tensor_test.cpp - IO binding on a Vulkan device -------------===//
//
// ot_session_run_tensors on the add_square kernels: device tensors of the
// caller's (copied on the device) and the session's own (used in place),
// on mapped memory and through the staging path a discrete GPU takes;
// every result bit against the host.
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

#include <cstdlib>
#include <cstring>

using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

struct TensorHandle {
  ot_tensor *ptr = nullptr;
  ~TensorHandle() { ot_tensor_release(ptr); }
};

class DeviceTensors : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    std::vector<uint8_t> spirv = loadTestKernel("add_square.spv");
    if (spirv.empty())
      GTEST_SKIP() << "test kernels were not assembled";
    if (GetParam())
      ::setenv("ONNX_TOSA_VULKAN_STAGING", "1", 1);
    StatusResult r = take(ot_device_open("vulkan", &device.ptr));
    ::unsetenv("ONNX_TOSA_VULKAN_STAGING");
    if (r.code == OT_STATUS_UNAVAILABLE)
      GTEST_SKIP() << "no Vulkan device: " << r.message;
    ASSERT_TRUE(r.ok()) << r.message;
    std::vector<uint8_t> bytes = serializeArtifact(
        makeAddSquareArtifact(Target::Vulkan, spirv, "add", "square"));
    r = take(ot_session_load_from_memory(device.ptr, bytes.data(),
                                         bytes.size(), &session.ptr));
    ASSERT_TRUE(r.ok()) << r.message;
  }

  void create(TensorHandle &t) {
    ASSERT_TRUE(take(ot_tensor_create(device.ptr, OT_DTYPE_FLOAT32, 1,
                                      shape.data(), &t.ptr))
                    .ok());
  }

  /// c = a + b and d = c * c for input `run`, computed on the host.
  void want(int run, std::vector<float> &c, std::vector<float> &d) {
    std::vector<float> a = addSquareInput(run), b = addSquareConstant();
    c.resize(kAddSquareN);
    d.resize(kAddSquareN);
    for (size_t i = 0; i < kAddSquareN; ++i) {
      c[i] = a[i] + b[i];
      d[i] = c[i] * c[i];
    }
  }

  std::vector<float> read(ot_tensor *t) {
    std::vector<float> v(kAddSquareN, -1.0f);
    StatusResult r = take(ot_tensor_read(t, v.data(), v.size() * 4));
    EXPECT_TRUE(r.ok()) << r.message;
    return v;
  }

  DeviceHandle device;
  SessionHandle session;
  const std::vector<int64_t> shape{static_cast<int64_t>(kAddSquareN)};
};

} // namespace

TEST_P(DeviceTensors, CallersTensorsAreCopiedOnTheDevice) {
  TensorHandle a, c, d;
  create(a);
  create(c);
  create(d);
  for (int run = 0; run < 2; ++run) {
    std::vector<float> x = addSquareInput(run), wantC, wantD;
    want(run, wantC, wantD);
    ASSERT_TRUE(take(ot_tensor_write(a.ptr, x.data(), x.size() * 4)).ok());
    ot_tensor_binding in{"a", 0, a.ptr};
    ot_tensor_binding outs[] = {{"d", 0, d.ptr}, {nullptr, 1, c.ptr}}; // c by index
    StatusResult r =
        take(ot_session_run_tensors(session.ptr, &in, 1, outs, 2));
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(std::memcmp(read(c.ptr).data(), wantC.data(), 4 * kAddSquareN),
              0);
    EXPECT_EQ(std::memcmp(read(d.ptr).data(), wantD.data(), 4 * kAddSquareN),
              0);
  }
}

TEST_P(DeviceTensors, SessionsOwnTensorsAreUsedInPlace) {
  TensorHandle a, d;
  ASSERT_TRUE(take(ot_session_input_tensor(session.ptr, 0, &a.ptr)).ok());
  ASSERT_TRUE(take(ot_session_output_tensor(session.ptr, 1, &d.ptr)).ok());
  ot_tensor_info info;
  ASSERT_TRUE(take(ot_tensor_get_info(d.ptr, &info)).ok());
  EXPECT_EQ(info.byte_size, 4 * kAddSquareN);
  std::vector<float> x = addSquareInput(1), wantC, wantD;
  want(1, wantC, wantD);
  ASSERT_TRUE(take(ot_tensor_write(a.ptr, x.data(), x.size() * 4)).ok());
  ot_tensor_binding in{nullptr, 0, a.ptr};
  ot_tensor_binding out{"d", 0, d.ptr};
  StatusResult r = take(ot_session_run_tensors(session.ptr, &in, 1, &out, 1));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(std::memcmp(read(d.ptr).data(), wantD.data(), 4 * kAddSquareN), 0);
  // The session's tensors keep its buffers alive past the session.
  ot_session_release(session.ptr);
  session.ptr = nullptr;
  EXPECT_EQ(std::memcmp(read(d.ptr).data(), wantD.data(), 4 * kAddSquareN), 0);
}

TEST_P(DeviceTensors, MismatchesNameTheTensor) {
  TensorHandle small, a;
  const int64_t two = 2;
  ASSERT_TRUE(take(ot_tensor_create(device.ptr, OT_DTYPE_FLOAT32, 1, &two,
                                    &small.ptr))
                  .ok());
  create(a);
  ot_tensor_binding in{"a", 0, small.ptr};
  StatusResult r =
      take(ot_session_run_tensors(session.ptr, &in, 1, nullptr, 0));
  EXPECT_EQ(r.code, OT_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(r.message.find("input 'a': expected shape [1000], got [2]"),
            std::string::npos)
      << r.message;
  ot_tensor_binding wrong{"zz", 0, a.ptr};
  r = take(ot_session_run_tensors(session.ptr, &wrong, 1, nullptr, 0));
  EXPECT_NE(r.message.find("unknown input 'zz'"), std::string::npos)
      << r.message;
  ot_tensor_binding none{"a", 0, nullptr};
  r = take(ot_session_run_tensors(session.ptr, &none, 1, nullptr, 0));
  EXPECT_NE(r.message.find("input 'a': tensor is NULL"), std::string::npos)
      << r.message;
  r = take(ot_tensor_write(a.ptr, nullptr, 3));
  EXPECT_NE(r.message.find("has 4000 bytes, got 3"), std::string::npos)
      << r.message;
  // On Vulkan memory has no address to share.
  EXPECT_EQ(ot_tensor_device_address(a.ptr), 0u);
  TensorHandle wrapped;
  r = take(ot_tensor_wrap_device_address(device.ptr, 4096, OT_DTYPE_FLOAT32,
                                         1, &two, &wrapped.ptr));
  EXPECT_EQ(r.code, OT_STATUS_FAILED_PRECONDITION) << r.message;
}

TEST_P(DeviceTensors, TensorOfAnotherDeviceIsRefused) {
  DeviceHandle other;
  ASSERT_TRUE(take(ot_device_open("vulkan", &other.ptr)).ok());
  TensorHandle a;
  ASSERT_TRUE(take(ot_tensor_create(other.ptr, OT_DTYPE_FLOAT32, 1,
                                    shape.data(), &a.ptr))
                  .ok());
  ot_tensor_binding in{"a", 0, a.ptr};
  StatusResult r =
      take(ot_session_run_tensors(session.ptr, &in, 1, nullptr, 0));
  EXPECT_EQ(r.code, OT_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(r.message.find("the tensor is on device"), std::string::npos)
      << r.message;
}

INSTANTIATE_TEST_SUITE_P(Memory, DeviceTensors, ::testing::Values(false, true),
                         [](const auto &info) {
                           return info.param ? "Staged" : "Mapped";
                         });
