//===- npy_test.cpp - .npy reader/writer tests ----------------------------===//

#include "test_util.h"

#include "onnx_tosa/npy.h"

#include <cstring>

using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

/// A .npy file as numpy writes it: magic, version, padded dict, data.
std::vector<uint8_t> npyBytes(const std::string &dict,
                              const std::vector<uint8_t> &data, int major = 1) {
  std::string header = dict;
  size_t preamble = major == 1 ? 10 : 12;
  while ((preamble + header.size() + 1) % 64)
    header.push_back(' ');
  header.push_back('\n');
  std::vector<uint8_t> out = {
      0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  for (size_t i = 0; i < preamble - 8; ++i)
    out.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::string parseError(const std::vector<uint8_t> &bytes) {
  NpyArray arr;
  std::string error;
  EXPECT_FALSE(parseNpy(bytes.data(), bytes.size(), arr, error));
  return error;
}

} // namespace

TEST(Npy, RoundTripEveryDType) {
  const DType all[] = {DType::F32, DType::F64, DType::F16, DType::I8,
                       DType::I16, DType::I32, DType::I64, DType::U8,
                       DType::U16, DType::U32, DType::U64, DType::Bool};
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {5}, {2, 3}, {0, 4}, {1, 2, 1, 3}};
  for (DType t : all)
    for (const auto &shape : shapes) {
      size_t count = 1;
      for (int64_t d : shape)
        count *= static_cast<size_t>(d);
      std::vector<uint8_t> data(count * dtypeSize(t));
      for (size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<uint8_t>(t == DType::Bool ? i % 2 : i * 7 + 1);
      std::vector<uint8_t> bytes;
      std::string error;
      ASSERT_TRUE(
          serializeNpy(t, shape, data.data(), data.size(), bytes, error))
          << error;
      EXPECT_EQ((bytes.size() - data.size()) % 64, 0u)
          << "data should start 64-byte aligned";
      NpyArray back;
      ASSERT_TRUE(parseNpy(bytes.data(), bytes.size(), back, error))
          << dtypeName(t) << ": " << error;
      EXPECT_EQ(back.dtype, t);
      EXPECT_EQ(back.shape, shape);
      EXPECT_EQ(back.data, data);
    }
}

TEST(Npy, RoundTripThroughFile) {
  std::string path = makeTempDir() + "/x.npy";
  std::vector<float> v = {1.5f, -2.0f, 3.25f};
  std::string error;
  ASSERT_TRUE(writeNpy(path, DType::F32, {3}, v.data(), 12, error)) << error;
  NpyArray arr;
  ASSERT_TRUE(readNpy(path, arr, error)) << error;
  ASSERT_EQ(arr.data.size(), 12u);
  EXPECT_EQ(std::memcmp(arr.data.data(), v.data(), 12), 0);
  // The header is exactly numpy's spelling, so numpy can read the file.
  std::vector<uint8_t> raw = readFileBytes(path);
  std::string header(raw.begin() + 10, raw.begin() + 10 + 60);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (3,), }",
                         0),
            0u)
      << header;
}

TEST(Npy, ReadsNumpyStyleHeaders) {
  std::vector<uint8_t> data(2 * 3 * 8, 0);
  NpyArray arr;
  std::string error;
  auto v1 = npyBytes(
      "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", data);
  ASSERT_TRUE(parseNpy(v1.data(), v1.size(), arr, error)) << error;
  EXPECT_EQ(arr.dtype, DType::I64);
  EXPECT_EQ(arr.shape, (std::vector<int64_t>{2, 3}));

  // Version 2.0, different key order, double quotes, Python 2 long dims.
  auto v2 = npyBytes(
      "{\"shape\": (2L, 3L), \"fortran_order\": False, \"descr\": \"<f8\"}",
      data, 2);
  ASSERT_TRUE(parseNpy(v2.data(), v2.size(), arr, error)) << error;
  EXPECT_EQ(arr.dtype, DType::F64);

  auto boolScalar =
      npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", {1});
  ASSERT_TRUE(parseNpy(boolScalar.data(), boolScalar.size(), arr, error))
      << error;
  EXPECT_EQ(arr.dtype, DType::Bool);
  EXPECT_TRUE(arr.shape.empty());
}

TEST(Npy, RejectsBadFilesWithClearMessages) {
  const std::vector<uint8_t> four(4, 0);
  EXPECT_NE(parseError({'n', 'o', 'p', 'e'}).find("bad magic"),
            std::string::npos);
  EXPECT_NE(parseError(npyBytes("{'descr': '<f4', 'fortran_order': True, "
                                "'shape': (1,), }",
                                four))
                .find("Fortran"),
            std::string::npos);
  EXPECT_NE(parseError(npyBytes("{'descr': '>f4', 'fortran_order': False, "
                                "'shape': (1,), }",
                                four))
                .find("big-endian"),
            std::string::npos);
  std::string e = parseError(npyBytes(
      "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", {}));
  EXPECT_NE(e.find("unsupported dtype '<c8'"), std::string::npos) << e;
  e = parseError(npyBytes(
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
      four));
  EXPECT_NE(e.find("structured"), std::string::npos) << e;
  e = parseError(npyBytes(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", four));
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  e = parseError(npyBytes("{'descr': '<f4', 'shape': (1,), }", four));
  EXPECT_NE(e.find("lacks"), std::string::npos) << e;
  e = parseError(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (-1,), }",
                          four));
  EXPECT_NE(e.find("bad shape"), std::string::npos) << e;
  std::vector<uint8_t> v9 = npyBytes(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", four);
  v9[6] = 9;
  EXPECT_NE(parseError(v9).find("version 9"), std::string::npos);
}

TEST(Npy, EveryTruncationIsRejected) {
  std::vector<float> v(10, 1.0f);
  std::vector<uint8_t> bytes;
  std::string error;
  ASSERT_TRUE(serializeNpy(DType::F32, {10}, v.data(), 40, bytes, error));
  for (size_t len = 0; len < bytes.size(); ++len) {
    NpyArray arr;
    EXPECT_FALSE(parseNpy(bytes.data(), len, arr, error)) << len;
  }
}

TEST(Npy, WriteRejectsBFloat16AndSizeMismatch) {
  uint16_t x = 0;
  std::vector<uint8_t> out;
  std::string error;
  EXPECT_FALSE(serializeNpy(DType::BF16, {1}, &x, 2, out, error));
  EXPECT_NE(error.find("bfloat16"), std::string::npos) << error;
  EXPECT_FALSE(serializeNpy(DType::F32, {2}, &x, 2, out, error));
  EXPECT_NE(error.find("do not match"), std::string::npos) << error;
  EXPECT_FALSE(
      writeNpy("/nonexistent/dir/x.npy", DType::U16, {1}, &x, 2, error));
  EXPECT_NE(error.find("/nonexistent/dir/x.npy"), std::string::npos) << error;
}
