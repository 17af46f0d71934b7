//===- runtime.hpp - C++ RAII wrapper over the runtime C API ----*- C++ -*-===//
//
// Header-only. Owns C handles with unique_ptr and turns error statuses into
// `onnx_tosa::RuntimeError` exceptions carrying the status code and message.
//
//   auto device = onnx_tosa::Device::open("auto");
//   auto session = onnx_tosa::Session::load(device, "model.otsa");
//   std::vector<float> x(6);
//   auto outputs = session.run({onnx_tosa::TensorRef::of("x", x, {2, 3})});
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUNTIME_HPP
#define ONNX_TOSA_RUNTIME_HPP

#include "onnx_tosa/runtime.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace onnx_tosa {

class RuntimeError : public std::runtime_error {
public:
  RuntimeError(ot_status_code code, const std::string &message)
      : std::runtime_error(message), statusCode(code) {}
  ot_status_code code() const { return statusCode; }

private:
  ot_status_code statusCode;
};

namespace detail {
/// Frees `status`, throwing if it is an error.
inline void check(ot_status status) {
  if (!status)
    return;
  RuntimeError error(ot_status_get_code(status), ot_status_get_message(status));
  ot_status_free(status);
  throw error;
}
struct DeviceDeleter {
  void operator()(ot_device *d) const { ot_device_release(d); }
};
struct SessionDeleter {
  void operator()(ot_session *s) const { ot_session_release(s); }
};

template <typename T> constexpr ot_dtype dtypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return OT_DTYPE_FLOAT32;
  else if constexpr (std::is_same_v<T, double>)
    return OT_DTYPE_FLOAT64;
  else if constexpr (std::is_same_v<T, bool>)
    return OT_DTYPE_BOOL;
  else if constexpr (std::is_same_v<T, int8_t>)
    return OT_DTYPE_INT8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return OT_DTYPE_INT16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return OT_DTYPE_INT32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return OT_DTYPE_INT64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return OT_DTYPE_UINT8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return OT_DTYPE_UINT16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return OT_DTYPE_UINT32;
  else {
    static_assert(std::is_same_v<T, uint64_t>, "no ot_dtype for this type");
    return OT_DTYPE_UINT64;
  }
}
} // namespace detail

struct TensorInfo {
  std::string name;
  ot_dtype dtype = OT_DTYPE_FLOAT32;
  std::vector<int64_t> shape;
  size_t byteSize = 0;
};

/// A non-owning view of host memory naming a model input or output.
struct TensorRef {
  std::string name;
  ot_dtype dtype = OT_DTYPE_FLOAT32;
  std::vector<int64_t> shape;
  void *data = nullptr;
  size_t byteSize = 0;

  template <typename T>
  static TensorRef of(std::string name, std::vector<T> &values,
                      std::vector<int64_t> shape) {
    return {std::move(name), detail::dtypeOf<T>(), std::move(shape),
            values.data(), values.size() * sizeof(T)};
  }
};

/// An owned host tensor returned by Session::run.
struct Tensor {
  TensorInfo info;
  std::vector<uint8_t> data;
};

class Device {
public:
  static Device open(const std::string &name = "auto") {
    ot_device *d = nullptr;
    detail::check(ot_device_open(name.c_str(), &d));
    return Device(d);
  }
  std::string name() const { return ot_device_name(handle.get()); }
  std::string id() const { return ot_device_id(handle.get()); }
  ot_backend backend() const { return ot_device_backend(handle.get()); }
  ot_device *get() const { return handle.get(); }

private:
  explicit Device(ot_device *d) : handle(d) {}
  std::unique_ptr<ot_device, detail::DeviceDeleter> handle;
};

class Session {
public:
  static Session load(const Device &device, const std::string &path) {
    ot_session *s = nullptr;
    detail::check(ot_session_load(device.get(), path.c_str(), &s));
    return Session(s);
  }

  std::string modelName() const { return ot_session_model_name(get()); }
  std::vector<TensorInfo> inputs() const {
    return infos(ot_session_input_count(get()), ot_session_input_info);
  }
  std::vector<TensorInfo> outputs() const {
    return infos(ot_session_output_count(get()), ot_session_output_info);
  }

  /// Runs with caller-provided output memory (any subset of the outputs).
  void runInto(const std::vector<TensorRef> &in,
               const std::vector<TensorRef> &out) {
    std::vector<ot_host_tensor> cin = toC(in), cout = toC(out);
    detail::check(ot_session_run(get(), cin.data(), cin.size(), cout.data(),
                                 cout.size()));
  }

  /// Shape variants (--dim): the programs the artifact holds, one per set
  /// of input shapes; inputs() and outputs() describe variant 0.
  size_t variantCount() const { return ot_session_variant_count(get()); }
  std::vector<TensorInfo> inputs(size_t variant) const {
    return variantInfos(variant, ot_session_input_count(get()),
                        ot_session_variant_input_info);
  }
  std::vector<TensorInfo> outputs(size_t variant) const {
    return variantInfos(variant, ot_session_output_count(get()),
                        ot_session_variant_output_info);
  }
  /// The variant a run on `in` would run (ot_session_select_variant);
  /// throws, listing the shapes there are, when none has theirs.
  size_t selectVariant(const std::vector<TensorRef> &in) const {
    std::vector<ot_host_tensor> c = toC(in);
    size_t variant = 0;
    detail::check(
        ot_session_select_variant(get(), c.data(), c.size(), &variant));
    return variant;
  }

  /// Runs and returns every model output (of the variant the inputs'
  /// shapes select).
  std::vector<Tensor> run(const std::vector<TensorRef> &in) {
    std::vector<TensorInfo> infos = outputs(selectVariant(in));
    std::vector<Tensor> results;
    std::vector<TensorRef> refs;
    results.reserve(infos.size());
    for (TensorInfo &info : infos) {
      results.push_back({info, std::vector<uint8_t>(info.byteSize)});
      Tensor &t = results.back();
      refs.push_back({t.info.name, t.info.dtype, t.info.shape, t.data.data(),
                      t.data.size()});
    }
    runInto(in, refs);
    // Outputs whose size depends on the data: their real shape.
    for (size_t i = 0; i < results.size(); ++i) {
      ot_tensor_info info;
      detail::check(ot_session_last_output_info(get(), i, &info));
      if (info.byte_size == results[i].data.size())
        continue;
      results[i].info.shape.assign(info.shape, info.shape + info.rank);
      results[i].info.byteSize = info.byte_size;
      results[i].data.resize(info.byte_size);
    }
    return results;
  }

  /// The dimension of output `index` whose size depends on the data (its
  /// info holds the largest), or -1 (ot_session_output_bounded_dim).
  int64_t outputBoundedDim(size_t index) const {
    return ot_session_output_bounded_dim(get(), index);
  }

  /// Where the last run spent its time (upload, kernels, download).
  ot_run_timing lastRunTiming() const {
    ot_run_timing t{};
    detail::check(ot_session_last_run_timing(get(), &t));
    return t;
  }

  /// ot_session_profile: each launch timed alone, in launch order.
  std::vector<ot_launch_profile> profile(uint32_t repetitions) {
    const ot_launch_profile *launches = nullptr;
    size_t count = 0;
    detail::check(ot_session_profile(get(), repetitions, &launches, &count));
    return std::vector<ot_launch_profile>(launches, launches + count);
  }

  ot_session *get() const { return handle.get(); }

private:
  explicit Session(ot_session *s) : handle(s) {}

  using VariantInfoFn = ot_status (*)(const ot_session *, size_t, size_t,
                                      ot_tensor_info *);
  std::vector<TensorInfo> variantInfos(size_t variant, size_t count,
                                       VariantInfoFn fn) const {
    std::vector<TensorInfo> result;
    for (size_t i = 0; i < count; ++i) {
      ot_tensor_info info;
      detail::check(fn(get(), variant, i, &info));
      result.push_back(
          {info.name, info.dtype,
           std::vector<int64_t>(info.shape, info.shape + info.rank),
           info.byte_size});
    }
    return result;
  }

  using InfoFn = ot_status (*)(const ot_session *, size_t, ot_tensor_info *);
  std::vector<TensorInfo> infos(size_t count, InfoFn fn) const {
    std::vector<TensorInfo> result;
    for (size_t i = 0; i < count; ++i) {
      ot_tensor_info info;
      detail::check(fn(get(), i, &info));
      result.push_back(
          {info.name, info.dtype,
           std::vector<int64_t>(info.shape, info.shape + info.rank),
           info.byte_size});
    }
    return result;
  }

  // The returned structs point into `refs`, which must outlive them.
  static std::vector<ot_host_tensor> toC(const std::vector<TensorRef> &refs) {
    std::vector<ot_host_tensor> c;
    for (const TensorRef &r : refs)
      c.push_back({r.name.c_str(), 0, r.dtype, r.shape.size(), r.shape.data(),
                   r.data, r.byteSize});
    return c;
  }

  std::unique_ptr<ot_session, detail::SessionDeleter> handle;
};

} // namespace onnx_tosa

#endif // ONNX_TOSA_RUNTIME_HPP
