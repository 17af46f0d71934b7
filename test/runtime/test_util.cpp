//===- test_util.cpp - Shared helpers for the runtime tests ---------------===//

#include "test_util.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace onnx_tosa::test {

StatusResult take(ot_status status) {
  StatusResult r{ot_status_get_code(status), ot_status_get_message(status)};
  ot_status_free(status);
  return r;
}

namespace {
/// Removes the tests' temporary directories when the process exits, unless
/// ONNX_TOSA_KEEP_TEST_FILES is set (to inspect them after a failure).
struct TempDirRegistry {
  std::vector<std::string> dirs;
  ~TempDirRegistry() {
    if (std::getenv("ONNX_TOSA_KEEP_TEST_FILES"))
      return;
    std::error_code ec;
    for (const std::string &d : dirs)
      std::filesystem::remove_all(d, ec);
  }
};
TempDirRegistry tempDirs;
} // namespace

std::string makeTempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") +
                     "/onnx-tosa-runtime-test-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    ADD_FAILURE() << "mkdtemp failed for " << tmpl;
  else
    tempDirs.dirs.push_back(buf.data());
  return buf.data();
}

std::vector<uint8_t> readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeFileBytes(const std::string &path, const std::vector<uint8_t> &b) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(b.data()), b.size());
}

std::vector<uint8_t> loadTestKernel(const std::string &name) {
  return readFileBytes(std::string(ONNX_TOSA_TEST_KERNEL_DIR) + "/" + name);
}

std::vector<float> addSquareInput(int run) {
  std::vector<float> a(kAddSquareN);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(i) * 0.5f - 100.0f + static_cast<float>(run);
  return a;
}

std::vector<float> addSquareConstant() {
  std::vector<float> b(kAddSquareN);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = 1.0f - static_cast<float>(i) * 0.25f;
  return b;
}

Artifact makeAddSquareArtifact(Target target, std::vector<uint8_t> module,
                               const std::string &addEntry,
                               const std::string &squareEntry) {
  const uint64_t bytes = kAddSquareN * sizeof(float);
  Artifact a;
  a.target = target;
  a.modelName = "add_square";
  a.buffers.resize(4);
  a.buffers[0] = {BufferKind::Input, bytes, {}};
  std::vector<float> b = addSquareConstant();
  a.buffers[1].kind = BufferKind::Constant;
  a.buffers[1].sizeBytes = bytes;
  a.buffers[1].data.resize(bytes);
  std::memcpy(a.buffers[1].data.data(), b.data(), bytes);
  a.buffers[2] = {BufferKind::Intermediate, bytes, {}};
  a.buffers[3] = {BufferKind::Intermediate, bytes, {}};
  const int64_t n = static_cast<int64_t>(kAddSquareN);
  a.inputs.push_back({"a", DType::F32, {n}, 0});
  a.outputs.push_back({"d", DType::F32, {n}, 3});
  a.outputs.push_back({"c", DType::F32, {n}, 2});
  a.modules.push_back({"kernels", std::move(module)});
  // 1000 elements in workgroups of 64: 16 groups, the last one partial.
  Launch add;
  add.entry = addEntry;
  add.grid[0] = 16;
  add.block[0] = 64;
  add.args = {0, 1, 2};
  Launch square = add;
  square.entry = squareEntry;
  square.args = {2, 3};
  a.launches = {add, square};
  return a;
}

ot_host_tensor floatTensor(const char *name, std::vector<float> &data,
                           const std::vector<int64_t> &shape) {
  return {name,         0,           OT_DTYPE_FLOAT32,           shape.size(),
          shape.data(), data.data(), data.size() * sizeof(float)};
}

} // namespace onnx_tosa::test
