//===- device_test.cpp - Device naming and error reporting tests ----------===//

#include "test_util.h"

using namespace onnx_tosa::test;

TEST(Status, NullIsOk) {
  EXPECT_EQ(ot_status_get_code(nullptr), OT_STATUS_OK);
  EXPECT_STREQ(ot_status_get_message(nullptr), "OK");
  EXPECT_STREQ(ot_status_code_name(OT_STATUS_DATA_LOSS), "DATA_LOSS");
  ot_status_free(nullptr);
  EXPECT_EQ(ot_dtype_size(OT_DTYPE_BFLOAT16), 2u);
  EXPECT_STREQ(ot_dtype_name(OT_DTYPE_UINT32), "uint32");
}

TEST(Device, MalformedNamesAreInvalidArguments) {
  for (const char *name : {"gpu", "cuda:x", "cuda:-1", "cuda:", "vulkan:1a",
                           "vulkan:", "metal:0", "CUDA"}) {
    DeviceHandle d;
    StatusResult r = take(ot_device_open(name, &d.ptr));
    EXPECT_EQ(r.code, OT_STATUS_INVALID_ARGUMENT) << name << ": " << r.message;
    EXPECT_NE(r.message.find(name), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("vulkan:lavapipe"), std::string::npos)
        << "the message should list the valid names: " << r.message;
    EXPECT_EQ(d.ptr, nullptr);
  }
}

TEST(Device, NullOutPointerIsAnError) {
  StatusResult r = take(ot_device_open("auto", nullptr));
  EXPECT_EQ(r.code, OT_STATUS_INVALID_ARGUMENT);
}

// On a machine without an NVIDIA driver (such as CI), asking for CUDA must
// give a clear status, never a crash.
TEST(Device, CudaWithoutDriverIsAClearError) {
  DeviceHandle d;
  StatusResult r = take(ot_device_open("cuda:0", &d.ptr));
  if (r.ok())
    GTEST_SKIP() << "a CUDA device is present: " << ot_device_name(d.ptr);
  std::cout << "cuda:0 -> " << ot_status_code_name(r.code) << ": " << r.message
            << "\n";
  EXPECT_TRUE(r.code == OT_STATUS_UNAVAILABLE || r.code == OT_STATUS_NOT_FOUND)
      << r.message;
  EXPECT_NE(r.message.find("cuda:0"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("CUDA"), std::string::npos) << r.message;
  EXPECT_EQ(d.ptr, nullptr);
}

TEST(Device, CudaOrdinalOutOfRange) {
  DeviceHandle d;
  StatusResult r = take(ot_device_open("cuda:999", &d.ptr));
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.code == OT_STATUS_UNAVAILABLE || r.code == OT_STATUS_NOT_FOUND)
      << r.message;
}

TEST(Device, VulkanOrdinalOutOfRangeListsDevices) {
  DeviceHandle d;
  StatusResult r = take(ot_device_open("vulkan:999", &d.ptr));
  if (r.code == OT_STATUS_UNAVAILABLE)
    GTEST_SKIP() << "no Vulkan device: " << r.message;
  EXPECT_EQ(r.code, OT_STATUS_NOT_FOUND) << r.message;
  EXPECT_NE(r.message.find("999"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("0: "), std::string::npos) << r.message;
}

TEST(Device, AutoPicksSomething) {
  DeviceHandle d;
  StatusResult r = take(ot_device_open("auto", &d.ptr));
  if (!r.ok())
    GTEST_SKIP() << "no device at all: " << r.message;
  std::cout << "auto -> " << ot_device_id(d.ptr) << " ("
            << ot_device_name(d.ptr) << ")\n";
  std::string id = ot_device_id(d.ptr);
  EXPECT_TRUE(id.rfind("cuda:", 0) == 0 || id.rfind("vulkan:", 0) == 0) << id;
  EXPECT_EQ(ot_device_backend(d.ptr),
            id[0] == 'c' ? OT_BACKEND_CUDA : OT_BACKEND_VULKAN);
}

TEST(Device, Lavapipe) {
  DeviceHandle d;
  StatusResult r = take(ot_device_open("vulkan:lavapipe", &d.ptr));
  if (r.code == OT_STATUS_UNAVAILABLE || r.code == OT_STATUS_NOT_FOUND)
    GTEST_SKIP() << "lavapipe is not installed: " << r.message;
  ASSERT_TRUE(r.ok()) << r.message;
  std::string name = ot_device_name(d.ptr);
  EXPECT_NE(name.find("llvmpipe"), std::string::npos) << name;
  EXPECT_EQ(ot_device_backend(d.ptr), OT_BACKEND_VULKAN);
}
