//===- cli_test.cpp - End-to-end tests of the onnx-tosa-run tool ----------===//
//
// Drives the real executable on the Vulkan add/square artifact and checks its
// exit status, its one-line errors and the .npy files it writes.
//
//===----------------------------------------------------------------------===//

#include "test_util.h"

#include "onnx_tosa/npy.h"

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>

using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

struct ToolResult {
  int exitCode = -1;
  std::string out, err;
};

class Cli : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<uint8_t> spirv = loadTestKernel("add_square.spv");
    if (spirv.empty())
      GTEST_SKIP() << "test kernels were not assembled";
    DeviceHandle d;
    StatusResult r = take(ot_device_open("vulkan", &d.ptr));
    if (r.code == OT_STATUS_UNAVAILABLE)
      GTEST_SKIP() << "no Vulkan device: " << r.message;
    dir = makeTempDir();
    artifact = dir + "/add_square.otsa";
    std::string error;
    ASSERT_TRUE(writeArtifact(
        makeAddSquareArtifact(Target::Vulkan, spirv, "add", "square"), artifact,
        error))
        << error;
  }

  ToolResult runTool(const std::string &args) {
    std::string outFile = dir + "/stdout.txt", errFile = dir + "/stderr.txt";
    std::string cmd = std::string("'") + ONNX_TOSA_RUN_TOOL + "' " + args +
                      " >'" + outFile + "' 2>'" + errFile + "'";
    int status = std::system(cmd.c_str());
    ToolResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    auto text = [](const std::string &p) {
      std::vector<uint8_t> b = readFileBytes(p);
      return std::string(b.begin(), b.end());
    };
    r.out = text(outFile);
    r.err = text(errFile);
    return r;
  }

  std::vector<float> readFloats(const std::string &path) {
    NpyArray arr;
    std::string error;
    EXPECT_TRUE(readNpy(path, arr, error)) << error;
    EXPECT_EQ(arr.dtype, DType::F32);
    std::vector<float> v(arr.data.size() / 4);
    if (!v.empty())
      std::memcpy(v.data(), arr.data.data(), arr.data.size());
    return v;
  }

  std::string dir, artifact;
};

} // namespace

TEST_F(Cli, RandomInputsRunAndAreSaved) {
  std::string outDir = dir + "/out";
  ToolResult r = runTool("'" + artifact +
                         "' --device=vulkan --random-inputs=7 --output-dir='" +
                         outDir + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::cout << r.out;
  EXPECT_NE(r.out.find("device: vulkan:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output d: float32 [1000] = ["), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(outDir + "/d.npy"), std::string::npos) << r.out;

  // The saved random input reproduces the saved outputs.
  std::vector<float> a = readFloats(outDir + "/input_a.npy");
  std::vector<float> c = readFloats(outDir + "/c.npy");
  std::vector<float> d = readFloats(outDir + "/d.npy");
  std::vector<float> b = addSquareConstant();
  ASSERT_EQ(a.size(), kAddSquareN);
  ASSERT_EQ(d.size(), kAddSquareN);
  for (size_t i = 0; i < kAddSquareN; ++i) {
    ASSERT_GE(a[i], -1.0f);
    ASSERT_LT(a[i], 1.0f);
    ASSERT_EQ(c[i], a[i] + b[i]) << i;
    ASSERT_EQ(d[i], c[i] * c[i]) << i;
  }

  // Same seed, same inputs.
  ToolResult again =
      runTool("'" + artifact + "' --random-inputs=7 --quiet --output-dir='" +
              dir + "/again'");
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_TRUE(again.out.empty()) << again.out;
  EXPECT_EQ(readFileBytes(outDir + "/input_a.npy"),
            readFileBytes(dir + "/again/input_a.npy"));
}

TEST_F(Cli, InputFromNpy) {
  std::vector<float> a = addSquareInput(3);
  std::string error;
  ASSERT_TRUE(
      writeNpy(dir + "/a.npy", DType::F32, {1000}, a.data(), 4000, error));
  ToolResult r = runTool("'" + artifact + "' --input a='" + dir +
                         "/a.npy' --output-dir='" + dir + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::vector<float> d = readFloats(dir + "/d.npy");
  std::vector<float> b = addSquareConstant();
  ASSERT_EQ(d.size(), kAddSquareN);
  for (size_t i = 0; i < kAddSquareN; ++i) {
    float c = a[i] + b[i];
    ASSERT_EQ(d[i], c * c) << i;
  }
}

TEST_F(Cli, ErrorsAreOneLineAndExitOne) {
  auto expectError = [&](const std::string &args,
                         std::initializer_list<const char *> parts) {
    ToolResult r = runTool(args);
    EXPECT_EQ(r.exitCode, 1) << args;
    EXPECT_EQ(r.err.rfind("onnx-tosa-run: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    for (const char *p : parts)
      EXPECT_NE(r.err.find(p), std::string::npos)
          << "'" << p << "' not in: " << r.err;
  };
  std::vector<int32_t> wrongType(1000, 0);
  std::vector<float> wrongShape(3, 0.0f);
  std::string error;
  ASSERT_TRUE(writeNpy(dir + "/i32.npy", DType::I32, {1000}, wrongType.data(),
                       4000, error));
  ASSERT_TRUE(writeNpy(dir + "/short.npy", DType::F32, {3}, wrongShape.data(),
                       12, error));

  expectError("'" + artifact + "' --input zz='" + dir + "/short.npy'",
              {"unknown input 'zz'", "a (float32 [1000])"});
  expectError("'" + artifact + "' --input a='" + dir + "/i32.npy'",
              {"input 'a'", "expected dtype float32", "got int32"});
  expectError("'" + artifact + "' --input a='" + dir + "/short.npy'",
              {"input 'a'", "expected shape [1000]", "got [3]"});
  expectError("'" + artifact + "'",
              {"missing input a (float32 [1000])", "--random-inputs"});
  expectError("'" + dir + "/nope.otsa' --random-inputs", {"nope.otsa"});
  expectError("'" + artifact + "' --device=cuda:x", {"cuda:x"});
  expectError("'" + artifact + "' --bogus", {"unknown option '--bogus'"});
  expectError("", {"no artifact"});
}

TEST_F(Cli, Help) {
  ToolResult r = runTool("--help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("usage: onnx-tosa-run ARTIFACT"), std::string::npos);
}
