//===- tensor_test.cpp - Importer: initializer payloads and external data -===//
#include "import_test_util.h"

#include "llvm/ADT/APFloat.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <limits>

using namespace mlir;
using namespace onnx_tosa;
using namespace onnx_tosa::test;

namespace {

using TP = pb::TensorProto;

/// A model whose only content is initializer `t`, returned as the output.
pb::ModelProto initializerModel(const pb::TensorProto &t) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  *g.add_initializer() = t;
  auto *out = g.add_output();
  out->set_name(t.name());
  return m;
}

pb::TensorProto int32DataTensor(const std::string &name, int32_t type,
                                std::initializer_list<int64_t> dims,
                                std::initializer_list<int32_t> values) {
  pb::TensorProto t;
  t.set_name(name);
  t.set_data_type(type);
  for (int64_t d : dims)
    t.add_dims(d);
  for (int32_t v : values)
    t.add_int32_data(v);
  return t;
}

template <typename T> std::vector<T> valuesOf(DenseElementsAttr a) {
  auto range = a.getValues<T>();
  return std::vector<T>(range.begin(), range.end());
}

void setExternal(pb::TensorProto &t, const std::string &location,
                 const char *offset = nullptr, const char *length = nullptr) {
  t.set_data_location(TP::EXTERNAL);
  t.clear_raw_data();
  auto add = [&](const char *k, const std::string &v) {
    auto *e = t.add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  if (offset)
    add("offset", offset);
  if (length)
    add("length", length);
}

} // namespace

//===----------------------------------------------------------------------===//
// Payload encodings
//===----------------------------------------------------------------------===//

class TensorTest : public ImportTest {
protected:
  /// Imports initializerModel(t) and returns the constant's value.
  DenseElementsAttr importConstant(const pb::TensorProto &t) {
    module = import(initializerModel(t));
    if (!module)
      return {};
    DenseElementsAttr v = constantValue(*module, t.name());
    EXPECT_TRUE(v) << "no onnx.constant named " << t.name();
    // The constant is returned as is: the signature has its type.
    if (v)
      EXPECT_EQ(mainFunc(*module).getResultTypes()[0], v.getType());
    return v;
  }
  OwningOpRef<ModuleOp> module;
};

TEST_F(TensorTest, RawDataFloat) {
  std::vector<float> vals{1.0f, -2.5f, 3.25f, 0.0f, 1e-3f, 7.0f};
  auto v = importConstant(rawTensor("w", TP::FLOAT, {2, 3}, bytesOf(vals)));
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<2x3xf32>");
  EXPECT_EQ(valuesOf<float>(v), vals);
}

TEST_F(TensorTest, RawDataIntegersAndHalf) {
  auto i64 = importConstant(rawTensor(
      "i64", TP::INT64, {3},
      bytesOf<int64_t>({std::numeric_limits<int64_t>::min(), -1, 1234567890123})));
  ASSERT_TRUE(i64);
  EXPECT_EQ(str(i64.getType()), "tensor<3xi64>");
  EXPECT_EQ(valuesOf<int64_t>(i64),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), -1,
                                  1234567890123}));

  auto u8 = importConstant(
      rawTensor("u8", TP::UINT8, {4}, bytesOf<uint8_t>({0, 1, 128, 255})));
  ASSERT_TRUE(u8);
  EXPECT_EQ(str(u8.getType()), "tensor<4xui8>");
  EXPECT_EQ(valuesOf<uint8_t>(u8), (std::vector<uint8_t>{0, 1, 128, 255}));

  // float16 1.0 = 0x3C00, -2.0 = 0xC000.
  auto f16 = importConstant(
      rawTensor("h", TP::FLOAT16, {2}, bytesOf<uint16_t>({0x3C00, 0xC000})));
  ASSERT_TRUE(f16);
  EXPECT_EQ(str(f16.getType()), "tensor<2xf16>");
  auto hv = valuesOf<APFloat>(f16);
  ASSERT_EQ(hv.size(), 2u);
  EXPECT_EQ(hv[0].convertToDouble(), 1.0);
  EXPECT_EQ(hv[1].convertToDouble(), -2.0);
}

TEST_F(TensorTest, RawDataBoolOneBytePerElement) {
  auto v = importConstant(
      rawTensor("b", TP::BOOL, {2, 2}, std::string("\1\0\0\1", 4)));
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<2x2xi1>");
  EXPECT_EQ(valuesOf<bool>(v), (std::vector<bool>{true, false, false, true}));
}

// 4- and 2-bit values are packed in ONNX (first element in the low bits)
// and unpacked to one element per byte; float8 takes one byte each.
TEST_F(TensorTest, RawDataNarrowTypes) {
  // INT4 1, -1, 7, -8, 3: bytes 0xF1, 0x87, 0x03 (last half byte unused).
  auto i4 = importConstant(
      rawTensor("i4", 22, {5}, bytesOf<uint8_t>({0xF1, 0x87, 0x03})));
  ASSERT_TRUE(i4);
  EXPECT_EQ(str(i4.getType()), "tensor<5xi4>");
  std::vector<int64_t> ints;
  for (const APInt &v : i4.getValues<APInt>())
    ints.push_back(v.getSExtValue());
  EXPECT_EQ(ints, (std::vector<int64_t>{1, -1, 7, -8, 3}));

  // UINT2 3, 0, 1, 2, 2: 0b10'01'00'11, 0b10.
  auto u2 =
      importConstant(rawTensor("u2", 25, {5}, bytesOf<uint8_t>({0x93, 0x02})));
  ASSERT_TRUE(u2);
  EXPECT_EQ(str(u2.getType()), "tensor<5xui2>");
  ints.clear();
  for (const APInt &v : u2.getValues<APInt>())
    ints.push_back(v.getZExtValue());
  EXPECT_EQ(ints, (std::vector<int64_t>{3, 0, 1, 2, 2}));

  // FLOAT4E2M1 0.5, -6 in int32_data: one byte (two elements) per entry.
  auto f4 = importConstant(int32DataTensor("f4", 23, {2}, {0xF1}));
  ASSERT_TRUE(f4);
  EXPECT_EQ(str(f4.getType()), "tensor<2xf4E2M1FN>");
  auto fv = valuesOf<APFloat>(f4);
  ASSERT_EQ(fv.size(), 2u);
  EXPECT_EQ(fv[0].convertToDouble(), 0.5);
  EXPECT_EQ(fv[1].convertToDouble(), -6.0);

  // FLOAT8E4M3FN 1.0 = 0x38, -448 = 0xFE, NaN = 0x7F.
  auto f8 = importConstant(
      rawTensor("f8", 17, {3}, bytesOf<uint8_t>({0x38, 0xFE, 0x7F})));
  ASSERT_TRUE(f8);
  EXPECT_EQ(str(f8.getType()), "tensor<3xf8E4M3FN>");
  auto ev = valuesOf<APFloat>(f8);
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].convertToDouble(), 1.0);
  EXPECT_EQ(ev[1].convertToDouble(), -448.0);
  EXPECT_TRUE(ev[2].isNaN());

  // A packed payload of the wrong size names the tensor.
  EXPECT_EQ(importError(initializerModel(
                rawTensor("short", 22, {5}, bytesOf<uint8_t>({0x11})))),
            "tensor 'short': holds 1 bytes but its shape and type need 3");
}

TEST_F(TensorTest, FloatData) {
  auto v = importConstant(floatTensor("f", {3}, {-1.0f, 0.5f, 100.0f}));
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<3xf32>");
  EXPECT_EQ(valuesOf<float>(v), (std::vector<float>{-1.0f, 0.5f, 100.0f}));
}

TEST_F(TensorTest, Int32DataInt8) {
  auto v = importConstant(
      int32DataTensor("i8", TP::INT8, {5}, {-128, -1, 0, 1, 127}));
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<5xi8>");
  EXPECT_EQ(valuesOf<int8_t>(v), (std::vector<int8_t>{-128, -1, 0, 1, 127}));
}

TEST_F(TensorTest, Int32DataUint8) {
  auto v = importConstant(
      int32DataTensor("u8", TP::UINT8, {2, 2}, {0, 7, 200, 255}));
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<2x2xui8>");
  EXPECT_EQ(valuesOf<uint8_t>(v), (std::vector<uint8_t>{0, 7, 200, 255}));
}

TEST_F(TensorTest, Int32DataBool) {
  auto v = importConstant(int32DataTensor("b", TP::BOOL, {3}, {0, 1, 1}));
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<3xi1>");
  EXPECT_EQ(valuesOf<bool>(v), (std::vector<bool>{false, true, true}));
}

TEST_F(TensorTest, Int32DataInt32) {
  auto v = importConstant(int32DataTensor(
      "i32", TP::INT32, {4},
      {std::numeric_limits<int32_t>::min(), -7, 0,
       std::numeric_limits<int32_t>::max()}));
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<4xi32>");
  EXPECT_EQ(valuesOf<int32_t>(v),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -7, 0,
                                  std::numeric_limits<int32_t>::max()}));
}

TEST_F(TensorTest, Int32DataInt16AndFloat16Bits) {
  auto i16 = importConstant(
      int32DataTensor("i16", TP::INT16, {3}, {-32768, -2, 32767}));
  ASSERT_TRUE(i16);
  EXPECT_EQ(str(i16.getType()), "tensor<3xi16>");
  EXPECT_EQ(valuesOf<int16_t>(i16), (std::vector<int16_t>{-32768, -2, 32767}));

  // ONNX stores float16 in int32_data as the 16-bit pattern.
  auto f16 = importConstant(
      int32DataTensor("h", TP::FLOAT16, {2}, {0x3C00, 0x4200}));
  ASSERT_TRUE(f16);
  auto hv = valuesOf<APFloat>(f16);
  ASSERT_EQ(hv.size(), 2u);
  EXPECT_EQ(hv[0].convertToDouble(), 1.0);
  EXPECT_EQ(hv[1].convertToDouble(), 3.0);
}

TEST_F(TensorTest, Int64Data) {
  pb::TensorProto t;
  t.set_name("shape");
  t.set_data_type(TP::INT64);
  t.add_dims(3);
  for (int64_t x : {int64_t(1) << 50, int64_t(-1), int64_t(0)})
    t.add_int64_data(x);
  auto v = importConstant(t);
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<3xi64>");
  EXPECT_EQ(valuesOf<int64_t>(v),
            (std::vector<int64_t>{int64_t(1) << 50, -1, 0}));
}

TEST_F(TensorTest, DoubleData) {
  pb::TensorProto t;
  t.set_name("d");
  t.set_data_type(TP::DOUBLE);
  t.add_dims(2);
  t.add_double_data(3.141592653589793);
  t.add_double_data(-1e300);
  auto v = importConstant(t);
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<2xf64>");
  EXPECT_EQ(valuesOf<double>(v),
            (std::vector<double>{3.141592653589793, -1e300}));
}

TEST_F(TensorTest, Uint64DataForUint64AndUint32) {
  pb::TensorProto t;
  t.set_name("u64");
  t.set_data_type(TP::UINT64);
  t.add_dims(2);
  t.add_uint64_data(std::numeric_limits<uint64_t>::max());
  t.add_uint64_data(5);
  auto v = importConstant(t);
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<2xui64>");
  EXPECT_EQ(valuesOf<uint64_t>(v),
            (std::vector<uint64_t>{std::numeric_limits<uint64_t>::max(), 5}));

  pb::TensorProto u;
  u.set_name("u32");
  u.set_data_type(TP::UINT32);
  u.add_dims(2);
  u.add_uint64_data(4000000000u);
  u.add_uint64_data(1);
  auto w = importConstant(u);
  ASSERT_TRUE(w);
  EXPECT_EQ(str(w.getType()), "tensor<2xui32>");
  EXPECT_EQ(valuesOf<uint32_t>(w), (std::vector<uint32_t>{4000000000u, 1}));
}

TEST_F(TensorTest, ScalarAndEmptyTensors) {
  auto s = importConstant(floatTensor("s", {}, {42.0f}));
  ASSERT_TRUE(s);
  EXPECT_EQ(str(s.getType()), "tensor<f32>");
  EXPECT_EQ(valuesOf<float>(s), (std::vector<float>{42.0f}));

  auto e = importConstant(floatTensor("e", {0, 3}, {}));
  ASSERT_TRUE(e);
  EXPECT_EQ(str(e.getType()), "tensor<0x3xf32>");
  EXPECT_EQ(e.getNumElements(), 0);

  auto er = importConstant(rawTensor("er", TP::INT32, {0}, ""));
  ASSERT_TRUE(er);
  EXPECT_EQ(str(er.getType()), "tensor<0xi32>");
}

TEST_F(TensorTest, RawDataSizeMismatchNamesTensor) {
  std::string err = importError(initializerModel(
      rawTensor("weights", TP::FLOAT, {3}, bytesOf<float>({1.0f, 2.0f}))));
  EXPECT_EQ(err, "tensor 'weights': holds 8 bytes but its shape and type "
                 "need 12");
}

TEST_F(TensorTest, TypedDataCountMismatchNamesTensor) {
  EXPECT_EQ(importError(initializerModel(floatTensor("fw", {2, 2}, {1, 2, 3}))),
            "tensor 'fw': holds the wrong number of values for its shape");
  EXPECT_EQ(importError(initializerModel(
                int32DataTensor("iw", TP::INT8, {2}, {1, 2, 3}))),
            "tensor 'iw': holds the wrong number of values for its shape");
  // No data at all for a non-empty tensor.
  pb::TensorProto t;
  t.set_name("nothing");
  t.set_data_type(TP::INT64);
  t.add_dims(1);
  EXPECT_EQ(importError(initializerModel(t)),
            "tensor 'nothing': holds the wrong number of values for its "
            "shape");
}

TEST_F(TensorTest, UnsupportedElementTypeAndBadDims) {
  pb::TensorProto s;
  s.set_name("names");
  s.set_data_type(TP::STRING);
  s.add_dims(1);
  s.add_string_data("a");
  EXPECT_EQ(importError(initializerModel(s)),
            "tensor 'names': unsupported ONNX element type 8");

  EXPECT_EQ(importError(initializerModel(
                rawTensor("neg", TP::FLOAT, {-2}, ""))),
            "tensor 'neg': invalid dimensions");
  EXPECT_EQ(importError(initializerModel(rawTensor(
                "huge", TP::FLOAT, {int64_t(1) << 30, int64_t(1) << 30}, ""))),
            "tensor 'huge': invalid dimensions");
}

TEST_F(ImportTest, UnsupportedInputElementTypeNamesValue) {
  pb::ModelProto m = makeModel();
  auto &g = *m.mutable_graph();
  addInput(g, "c", TP::COMPLEX64, {2});
  addOutput(g, "c", TP::COMPLEX64, {2});
  EXPECT_EQ(importError(m), "value 'c': unsupported ONNX element type 14");
}

//===----------------------------------------------------------------------===//
// External data
//===----------------------------------------------------------------------===//

TEST_F(TensorTest, ExternalDataWithOffsetAndLength) {
  std::vector<float> vals{1.0f, 2.0f, 3.0f};
  std::string file = std::string(16, 'x') + bytesOf(vals) + "trailer";
  writeFile("weights.bin", file);
  pb::TensorProto t = rawTensor("w", TP::FLOAT, {3}, "");
  setExternal(t, "weights.bin", "16", "12");
  auto v = importConstant(t);
  ASSERT_TRUE(v);
  EXPECT_EQ(str(v.getType()), "tensor<3xf32>");
  EXPECT_EQ(valuesOf<float>(v), vals);
}

TEST_F(TensorTest, ExternalDataWithoutLengthReadsToTheEnd) {
  std::vector<int64_t> vals{10, -20};
  writeFile("data/w.bin", "pad!" + bytesOf(vals));
  pb::TensorProto t = rawTensor("w", TP::INT64, {2}, "");
  setExternal(t, "data/w.bin", "4");
  auto v = importConstant(t);
  ASSERT_TRUE(v);
  EXPECT_EQ(valuesOf<int64_t>(v), vals);

  // No offset either: the whole file.
  writeFile("whole.bin", bytesOf(vals));
  pb::TensorProto u = rawTensor("u", TP::INT64, {2}, "");
  setExternal(u, "whole.bin");
  auto w = importConstant(u);
  ASSERT_TRUE(w);
  EXPECT_EQ(valuesOf<int64_t>(w), vals);
}

TEST_F(TensorTest, ExternalDataIsReadNextToTheModel) {
  // The model lives in a subdirectory; its weights beside it, not in the
  // current directory or the temporary directory's root.
  std::vector<float> vals{5.0f};
  writeFile("sub/w.bin", bytesOf(vals));
  writeFile("w.bin", bytesOf<float>({-5.0f}));
  pb::TensorProto t = rawTensor("w", TP::FLOAT, {1}, "");
  setExternal(t, "w.bin");
  auto module = importFile(writeModel(initializerModel(t), "sub/model.onnx"));
  ASSERT_TRUE(module);
  auto v = constantValue(*module, "w");
  ASSERT_TRUE(v);
  EXPECT_EQ(valuesOf<float>(v), vals);
}

TEST_F(TensorTest, ExternalDataMissingFile) {
  pb::TensorProto t = rawTensor("w", TP::FLOAT, {1}, "");
  setExternal(t, "missing.bin");
  std::string err = importError(initializerModel(t));
  EXPECT_EQ(err.rfind("tensor 'w': cannot read external data file '", 0), 0u)
      << err;
  EXPECT_NE(err.find("missing.bin"), std::string::npos) << err;
}

TEST_F(TensorTest, ExternalDataRangeOutsideFile) {
  writeFile("w.bin", std::string(8, '\0'));
  pb::TensorProto t = rawTensor("w", TP::FLOAT, {4}, "");
  setExternal(t, "w.bin", "0", "16");
  std::string err = importError(initializerModel(t));
  EXPECT_EQ(err.rfind("tensor 'w': external data range [0, +16) is outside '",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("(8 bytes)"), std::string::npos) << err;

  // An offset past the end.
  pb::TensorProto u = rawTensor("u", TP::FLOAT, {1}, "");
  setExternal(u, "w.bin", "12");
  err = importError(initializerModel(u));
  EXPECT_NE(err.find("tensor 'u': external data range [12, +0) is outside"),
            std::string::npos)
      << err;

  // A range that fits, but not the tensor's size.
  pb::TensorProto v = rawTensor("v", TP::FLOAT, {4}, "");
  setExternal(v, "w.bin", "0", "8");
  EXPECT_EQ(importError(initializerModel(v)),
            "tensor 'v': holds 8 bytes but its shape and type need 16");
}

TEST_F(TensorTest, ExternalDataLocationMustStayNextToTheModel) {
  writeFile("w.bin", std::string(4, '\0'));
  for (const char *loc : {"../w.bin", "sub/../../w.bin", "/w.bin", ""}) {
    pb::TensorProto t = rawTensor("w", TP::FLOAT, {1}, "");
    setExternal(t, loc);
    std::string err = importError(initializerModel(t));
    EXPECT_EQ(err, std::string("tensor 'w': external data location '") + loc +
                       "' must be a relative path next to the model")
        << loc;
  }
}

TEST_F(TensorTest, HugeShapeWithoutDataFailsCleanly) {
  // A few bytes of model that claim a 2 TiB tensor: the importer must report
  // the missing values, not try to allocate the tensor first.
  pb::TensorProto t;
  t.set_name("giant");
  t.set_data_type(TP::FLOAT);
  t.add_dims(int64_t(1) << 39);
  t.add_float_data(1.0f);
  EXPECT_EQ(importError(initializerModel(t)),
            "tensor 'giant': holds the wrong number of values for its shape");
}

TEST_F(TensorTest, ExternalDataThroughASymlinkMustStayInTheFolder) {
  // A link inside the model's folder pointing outside it is refused (it
  // could carry any readable file into the artifact); one pointing to a
  // file inside the folder is followed.
  writeFile("secret.bin", bytesOf<float>({42.0f}));
  writeFile("sub/real.bin", bytesOf<float>({7.0f}));
  ASSERT_EQ(::symlink((dir + "/secret.bin").c_str(),
                      (dir + "/sub/w.bin").c_str()),
            0);
  ASSERT_EQ(::symlink("real.bin", (dir + "/sub/inside.bin").c_str()), 0);
  pb::TensorProto t = rawTensor("w", TP::FLOAT, {1}, "");
  setExternal(t, "w.bin");
  std::string err = importFileError(
      writeModel(initializerModel(t), "sub/model.onnx"));
  EXPECT_EQ(err.rfind("tensor 'w': external data file '", 0), 0u) << err;
  EXPECT_NE(err.find("outside the model's folder"), std::string::npos) << err;

  pb::TensorProto u = rawTensor("u", TP::FLOAT, {1}, "");
  setExternal(u, "inside.bin");
  auto module = importFile(writeModel(initializerModel(u), "sub/model2.onnx"));
  ASSERT_TRUE(module);
  EXPECT_EQ(valuesOf<float>(constantValue(*module, "u")),
            std::vector<float>{7.0f});
}

TEST_F(TensorTest, ExternalDataMustBeARegularFile) {
  // A FIFO would block the read forever, /dev/zero never end.
  ASSERT_EQ(::mkfifo((dir + "/fifo.bin").c_str(), 0600), 0);
  pb::TensorProto t = rawTensor("w", TP::FLOAT, {1}, "");
  setExternal(t, "fifo.bin");
  std::string err = importError(initializerModel(t));
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  EXPECT_EQ(err.rfind("tensor 'w': cannot read external data file '", 0), 0u)
      << err;
}

TEST_F(TensorTest, ExternalDataOffsetMustBeANumber) {
  writeFile("w.bin", std::string(8, '\0'));
  for (const char *offset : {"abc", "-4", "4x"}) {
    pb::TensorProto t = rawTensor("w", TP::FLOAT, {1}, "");
    setExternal(t, "w.bin", offset);
    EXPECT_EQ(importError(initializerModel(t)),
              std::string("tensor 'w': external data offset '") + offset +
                  "' is not a byte count");
  }
}
