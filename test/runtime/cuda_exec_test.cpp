//===- cuda_exec_test.cpp - Real kernel execution on a CUDA device --------===//
//
// Runs hand-written PTX through the public C API. Skips where no CUDA device
// exists; on a GPU machine it checks results bit for bit against the host.
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

#include <cstring>

using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

// vadd: c[i] = a[i] + b[i]; vsquare: d[i] = c[i] * c[i]; for i < 1000.
// Every parameter is a u64 pointer to the start of a whole buffer.
const char *kPtx = R"PTX(
.version 8.0
.target sm_90
.address_size 64

// c[i] = a[i] + b[i] for i < 1000
.visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<11>;

  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  setp.ge.u32 %p, %r4, 1000;
  @%p bra DONE;
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd2;
  cvta.to.global.u64 %rd6, %rd3;
  mul.wide.u32 %rd7, %r4, 4;
  add.s64 %rd8, %rd4, %rd7;
  add.s64 %rd9, %rd5, %rd7;
  add.s64 %rd10, %rd6, %rd7;
  ld.global.f32 %f1, [%rd8];
  ld.global.f32 %f2, [%rd9];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd10], %f3;
DONE:
  ret;
}

// d[i] = c[i] * c[i] for i < 1000
.visible .entry vsquare(.param .u64 pc, .param .u64 pd)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<8>;

  ld.param.u64 %rd1, [pc];
  ld.param.u64 %rd2, [pd];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  setp.ge.u32 %p, %r4, 1000;
  @%p bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd6, %rd3, %rd5;
  add.s64 %rd7, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  mul.rn.f32 %f2, %f1, %f1;
  st.global.f32 [%rd7], %f2;
DONE:
  ret;
}
)PTX";

class CudaExec : public ::testing::Test {
protected:
  void SetUp() override {
    StatusResult r = take(ot_device_open("cuda", &device.ptr));
    if (!r.ok())
      GTEST_SKIP() << "no CUDA device: " << r.message;
    std::cout << "[ device   ] " << ot_device_id(device.ptr) << " ("
              << ot_device_name(device.ptr) << ")\n";
  }

  StatusResult load(const Artifact &a, SessionHandle &s) {
    std::vector<uint8_t> bytes = serializeArtifact(a);
    return take(ot_session_load_from_memory(device.ptr, bytes.data(),
                                            bytes.size(), &s.ptr));
  }

  static std::vector<uint8_t> ptxBytes(const char *text) {
    return std::vector<uint8_t>(text, text + std::strlen(text) + 1);
  }

  DeviceHandle device;
  const std::vector<int64_t> shape{static_cast<int64_t>(kAddSquareN)};
};

} // namespace

TEST_F(CudaExec, AddThenSquareMatchesHostExactly) {
  SessionHandle session;
  StatusResult r = load(
      makeAddSquareArtifact(Target::Cuda, ptxBytes(kPtx), "vadd", "vsquare"),
      session);
  ASSERT_TRUE(r.ok()) << r.message;
  std::vector<float> b = addSquareConstant();
  for (int run = 0; run < 2; ++run) {
    std::vector<float> a = addSquareInput(run);
    std::vector<float> c(kAddSquareN), d(kAddSquareN);
    ot_host_tensor in = floatTensor("a", a, shape);
    ot_host_tensor outs[] = {floatTensor("d", d, shape),
                             floatTensor("c", c, shape)};
    r = take(ot_session_run(session.ptr, &in, 1, outs, 2));
    ASSERT_TRUE(r.ok()) << r.message;
    for (size_t i = 0; i < kAddSquareN; ++i) {
      float wantC = a[i] + b[i];
      ASSERT_EQ(c[i], wantC) << "run " << run << " c[" << i << "]";
      ASSERT_EQ(d[i], wantC * wantC) << "run " << run << " d[" << i << "]";
    }
  }
}

TEST_F(CudaExec, BadPtxReportsTheJitLog) {
  SessionHandle session;
  const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry broken() { this is not ptx; }\n";
  Artifact a =
      makeAddSquareArtifact(Target::Cuda, ptxBytes(bad), "vadd", "vsquare");
  StatusResult r = load(a, session);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message.find("cuModuleLoadDataEx"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("JIT log"), std::string::npos) << r.message;
}

TEST_F(CudaExec, MissingKernelIsNamed) {
  SessionHandle session;
  Artifact a =
      makeAddSquareArtifact(Target::Cuda, ptxBytes(kPtx), "vadd", "vcube");
  StatusResult r = load(a, session);
  EXPECT_EQ(r.code, OT_STATUS_NOT_FOUND) << r.message;
  EXPECT_NE(r.message.find("'vcube'"), std::string::npos) << r.message;
}
