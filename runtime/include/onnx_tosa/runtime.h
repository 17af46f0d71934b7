/*===- runtime.h - onnx-tosa runtime C API --------------------------------===*
 *
 * Runs compiled models (artifacts, see artifact.h) on a CUDA or Vulkan device.
 *
 * Conventions:
 *  - Every call that can fail returns an `ot_status`. NULL means success; a
 *    non-NULL status carries a code and a message and must be freed with
 *    ot_status_free. No call aborts the process.
 *  - Objects are opaque and released with their *_release function. A session
 *    keeps its device alive, so the device may be released first.
 *  - Strings returned by getters are owned by the object they came from and
 *    live as long as it does.
 *  - A session must not be used by two threads at the same time; different
 *    sessions (even on one device) may run concurrently.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNX_TOSA_RUNTIME_H
#define ONNX_TOSA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Version
 *===----------------------------------------------------------------------===*/

/* The runtime's version and the commit it was built from, e.g.
 * "onnx-tosa 0.1.0 (commit 1a2b3c4d5e6f)". Static storage. */
const char *ot_version(void);

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

typedef enum ot_status_code {
  OT_STATUS_OK = 0,
  /* The caller passed something wrong: unknown input name, wrong dtype or
   * shape, a malformed device name, a null pointer. */
  OT_STATUS_INVALID_ARGUMENT = 1,
  /* A file, device ordinal or kernel entry point does not exist. */
  OT_STATUS_NOT_FOUND = 2,
  /* A driver or device is missing or cannot be initialized. */
  OT_STATUS_UNAVAILABLE = 3,
  /* Out of host or device memory. */
  OT_STATUS_RESOURCE_EXHAUSTED = 4,
  /* The artifact is truncated, corrupt or not an artifact at all. */
  OT_STATUS_DATA_LOSS = 5,
  /* The request cannot run here, e.g. a CUDA artifact on a Vulkan device. */
  OT_STATUS_FAILED_PRECONDITION = 6,
  /* A driver call failed (kernel compile error, launch failure, ...). */
  OT_STATUS_INTERNAL = 7,
} ot_status_code;

typedef struct ot_status_s *ot_status;

/* OT_STATUS_OK for NULL. */
ot_status_code ot_status_get_code(ot_status status);
/* "OK" for NULL. Owned by the status. */
const char *ot_status_get_message(ot_status status);
/* "OK", "INVALID_ARGUMENT", ... */
const char *ot_status_code_name(ot_status_code code);
/* Accepts NULL. */
void ot_status_free(ot_status status);

/*===----------------------------------------------------------------------===*
 * Element types (numbered as ONNX TensorProto.DataType)
 *===----------------------------------------------------------------------===*/

typedef enum ot_dtype {
  OT_DTYPE_FLOAT32 = 1,
  OT_DTYPE_UINT8 = 2,
  OT_DTYPE_INT8 = 3,
  OT_DTYPE_UINT16 = 4,
  OT_DTYPE_INT16 = 5,
  OT_DTYPE_INT32 = 6,
  OT_DTYPE_INT64 = 7,
  OT_DTYPE_BOOL = 9,
  OT_DTYPE_FLOAT16 = 10,
  OT_DTYPE_FLOAT64 = 11,
  OT_DTYPE_UINT32 = 12,
  OT_DTYPE_UINT64 = 13,
  OT_DTYPE_BFLOAT16 = 16,
  /* Narrow types: one element per byte, the bit pattern in the low bits
     (ONNX packs 4- and 2-bit values; these buffers do not). */
  OT_DTYPE_FLOAT8E4M3FN = 17,
  OT_DTYPE_FLOAT8E4M3FNUZ = 18,
  OT_DTYPE_FLOAT8E5M2 = 19,
  OT_DTYPE_FLOAT8E5M2FNUZ = 20,
  OT_DTYPE_UINT4 = 21,
  OT_DTYPE_INT4 = 22,
  OT_DTYPE_FLOAT4E2M1 = 23,
  OT_DTYPE_FLOAT8E8M0 = 24,
  OT_DTYPE_UINT2 = 25,
  OT_DTYPE_INT2 = 26,
} ot_dtype;

/* Bytes per element; 0 for an unknown value. */
size_t ot_dtype_size(ot_dtype dtype);
/* numpy spelling ("float32", "int64", ...); "?" for an unknown value. */
const char *ot_dtype_name(ot_dtype dtype);

/*===----------------------------------------------------------------------===*
 * Devices
 *===----------------------------------------------------------------------===*/

typedef enum ot_backend {
  OT_BACKEND_CUDA = 1,
  OT_BACKEND_VULKAN = 2,
} ot_backend;

typedef struct ot_device ot_device;

/* Opens a device by name:
 *   "auto"            a CUDA GPU if the CUDA driver and a device exist, else
 *                     the first Vulkan GPU, else any Vulkan device (e.g. a
 *                     CPU implementation such as lavapipe)
 *   "cuda", "cuda:N"  CUDA device 0 / N
 *   "vulkan"          the first Vulkan device, GPUs before CPU ones
 *   "vulkan:N"        Vulkan physical device N in enumeration order
 *   "vulkan:lavapipe" Mesa's CPU implementation
 * NULL or "" means "auto". */
ot_status ot_device_open(const char *name, ot_device **out_device);
/* Accepts NULL. */
void ot_device_release(ot_device *device);
/* The driver's name for the device, e.g. "NVIDIA H200". */
const char *ot_device_name(const ot_device *device);
/* The canonical id, e.g. "cuda:0" or "vulkan:1". */
const char *ot_device_id(const ot_device *device);
ot_backend ot_device_backend(const ot_device *device);
/* The most specific CUDA architecture the device runs, e.g. "sm_86", or
 * "sm_90a" for compute capability 9.0 and later (with their
 * architecture-specific instructions); "" for a Vulkan device. What
 * onnx-tosa-compile --target=cuda:<it> compiles for. */
const char *ot_device_architecture(const ot_device *device);

/* CUDA device `ordinal`'s architecture (as ot_device_architecture) and
 * multiprocessor count, without opening it (no context is created): what
 * onnx-tosa-compile --target=auto asks. OT_STATUS_UNAVAILABLE without a
 * CUDA driver or device. */
typedef struct ot_cuda_device_info {
  char name[256];
  char architecture[16];
  int multiprocessors;
} ot_cuda_device_info;
ot_status ot_cuda_device_query(int ordinal, ot_cuda_device_info *out_info);

/*===----------------------------------------------------------------------===*
 * Sessions: one loaded model on one device
 *===----------------------------------------------------------------------===*/

typedef struct ot_session ot_session;

/* Reads the artifact, checks it against the device (target, buffer indices,
 * sizes), uploads its constants once and builds its kernels. Sessions loaded
 * on one ot_device share their weights: a constant with the same bytes as
 * one a live session on that device holds is not uploaded again (loading
 * one artifact N times costs its weights once). */
ot_status ot_session_load(ot_device *device, const char *artifact_path,
                          ot_session **out_session);
/* Same, from an artifact already in memory; `data` is not retained. */
ot_status ot_session_load_from_memory(ot_device *device, const void *data,
                                      size_t size, ot_session **out_session);
/* Accepts NULL. */
void ot_session_release(ot_session *session);
const char *ot_session_model_name(const ot_session *session);

/* A session's device memory, in bytes (all its shape variants). */
typedef struct ot_session_memory_info {
  uint64_t weight_bytes;        /* constants this session uploaded */
  uint64_t shared_weight_bytes; /* constants it shares with other sessions */
  uint64_t input_bytes;         /* its input buffers */
  uint64_t intermediate_bytes;  /* intermediates and outputs */
} ot_session_memory_info;

ot_status ot_session_memory(const ot_session *session,
                            ot_session_memory_info *out_info);

/* Describes one model input or output. Pointers are owned by the session. */
typedef struct ot_tensor_info {
  const char *name;
  ot_dtype dtype;
  size_t rank;
  const int64_t *shape; /* `rank` dims */
  size_t byte_size;     /* product(shape) * ot_dtype_size(dtype) */
} ot_tensor_info;

size_t ot_session_input_count(const ot_session *session);
size_t ot_session_output_count(const ot_session *session);
ot_status ot_session_input_info(const ot_session *session, size_t index,
                                ot_tensor_info *out_info);
ot_status ot_session_output_info(const ot_session *session, size_t index,
                                 ot_tensor_info *out_info);

/* Outputs whose size depends on the input values (NonZero, Unique,
 * NonMaxSuppression): ot_session_output_info gives the largest shape, and
 * this the dimension of it that varies; -1 for an output of fixed shape.
 * A run takes such an output with that largest shape and writes the real
 * array's elements (C order) at the start of its memory. */
int64_t ot_session_output_bounded_dim(const ot_session *session, size_t index);
/* Output `index` as the last run produced it: the real shape and byte size
 * where they depend on the data, else those of ot_session_output_info (also
 * before any run). The shape pointer stays valid until the next run. */
ot_status ot_session_last_output_info(const ot_session *session, size_t index,
                                      ot_tensor_info *out_info);
/* Shape variants: an artifact compiled with --dim N=1,4,8 holds one program
 * per combination of values. ot_session_run (and ot_session_run_tensors)
 * runs the one whose input shapes are those given, and refuses shapes none
 * has, naming them. The plain info calls describe variant 0; these describe
 * each (an artifact without variants has one). */
size_t ot_session_variant_count(const ot_session *session);
ot_status ot_session_variant_input_info(const ot_session *session,
                                        size_t variant, size_t index,
                                        ot_tensor_info *out_info);
ot_status ot_session_variant_output_info(const ot_session *session,
                                         size_t variant, size_t index,
                                         ot_tensor_info *out_info);


/* A host tensor given to ot_session_run. It names a model input or output by
 * `name`, or by `index` when `name` is NULL. `dtype`, `rank`/`shape` and
 * `byte_size` must match the model exactly. For inputs `data` is read; for
 * outputs it receives the result. */
typedef struct ot_host_tensor {
  const char *name;
  size_t index;
  ot_dtype dtype;
  size_t rank;
  const int64_t *shape;
  void *data;
  size_t byte_size;
} ot_host_tensor;

/* Runs the model once and waits for it. Every model input must be given
 * exactly once. `outputs` may list any subset of the model outputs (zero is
 * allowed: run for side effects/timing). On a mismatch the message names the
 * tensor and shows the expected and the given dtype or shape. */
ot_status ot_session_run(ot_session *session, const ot_host_tensor *inputs,
                         size_t num_inputs, const ot_host_tensor *outputs,
                         size_t num_outputs);

/* The variant ot_session_run would run for these inputs (only their names
 * or indices, ranks and shapes are read; `data` may be NULL): an
 * INVALID_ARGUMENT status listing the shapes there are when none has
 * theirs. Callers that allocate outputs use it to learn their shapes. */
ot_status ot_session_select_variant(const ot_session *session,
                                    const ot_host_tensor *inputs,
                                    size_t num_inputs, size_t *out_variant);

/*===----------------------------------------------------------------------===*
 * Device tensors (IO binding): inputs and outputs that stay on the device
 *===----------------------------------------------------------------------===*/

/* A tensor in a device's memory. Given to ot_session_run_tensors, it is read
 * or written on the device: nothing goes through the host unless
 * ot_tensor_write / ot_tensor_read ask for it. */
typedef struct ot_tensor ot_tensor;

/* Allocates an uninitialized tensor on `device`. */
ot_status ot_tensor_create(ot_device *device, ot_dtype dtype, size_t rank,
                           const int64_t *shape, ot_tensor **out_tensor);
/* Uses memory another library allocated on a CUDA device (e.g. a PyTorch or
 * CuPy tensor received through DLPack) as a tensor, without a copy. The
 * memory must hold product(shape) * ot_dtype_size(dtype) bytes and outlive
 * the tensor; it is not freed by it. FAILED_PRECONDITION on Vulkan. */
ot_status ot_tensor_wrap_device_address(ot_device *device, uint64_t address,
                                        ot_dtype dtype, size_t rank,
                                        const int64_t *shape,
                                        ot_tensor **out_tensor);
/* Accepts NULL. */
void ot_tensor_release(ot_tensor *tensor);
/* dtype, shape and byte size; `name` is "". */
ot_status ot_tensor_get_info(const ot_tensor *tensor, ot_tensor_info *out_info);
/* The CUDA device address of the tensor's memory (to share it, e.g. through
 * DLPack); 0 on Vulkan. */
uint64_t ot_tensor_device_address(const ot_tensor *tensor);
/* Copies the whole tensor from or to host memory of exactly its byte size.
 * A read sees every run submitted before it. */
ot_status ot_tensor_write(ot_tensor *tensor, const void *data, size_t byte_size);
ot_status ot_tensor_read(ot_tensor *tensor, void *data, size_t byte_size);

/* The session's own buffer of input or output `index` as a tensor: binding
 * it to ot_session_run_tensors costs no copy at all. An output tensor holds
 * the result of the last run and is overwritten by the next. It keeps the
 * buffer alive, not the session's results: release it when done. */
ot_status ot_session_input_tensor(ot_session *session, size_t index,
                                  ot_tensor **out_tensor);
ot_status ot_session_output_tensor(ot_session *session, size_t index,
                                   ot_tensor **out_tensor);

/* Names a model input or output (by `name`, or by `index` when `name` is
 * NULL) and the device tensor bound to it. */
typedef struct ot_tensor_binding {
  const char *name;
  size_t index;
  ot_tensor *tensor;
} ot_tensor_binding;

/* Runs the model once on device tensors, as ot_session_run does on host
 * ones (same checks, same messages): every input given once, any subset of
 * the outputs. Tensors that are the session's own (ot_session_*_tensor)
 * are used in place; others are copied on the device, before the kernels
 * (inputs) and after them (outputs). Returns when the outputs are written. */
ot_status ot_session_run_tensors(ot_session *session,
                                 const ot_tensor_binding *inputs,
                                 size_t num_inputs,
                                 const ot_tensor_binding *outputs,
                                 size_t num_outputs);

/* Where the last successful ot_session_run spent its time, by the host's
 * clock: copying the inputs to the device, running the kernels (one CUDA
 * graph launch or one Vulkan submit, and the wait for it), and copying the
 * outputs back. device_ms is the run of the kernels by the device's own
 * timer (CUDA events recorded before and after the launch, as PyTorch
 * benchmarks time themselves; Vulkan timestamps written before and after
 * the dispatches): execute_ms without the host's submit and wake-up
 * latencies. Negative where the device has no timer (a Vulkan queue
 * without timestamps). */
typedef struct ot_run_timing {
  double upload_ms;
  double execute_ms;
  double download_ms;
  double device_ms;
} ot_run_timing;

ot_status ot_session_last_run_timing(const ot_session *session,
                                     ot_run_timing *out_timing);

/* One kernel launch of the model, timed on its own by ot_session_profile. */
typedef struct ot_launch_profile {
  const char *module; /* the device module the kernel is in */
  const char *entry;  /* the kernel's name in it */
  uint32_t grid[3];
  uint32_t block[3];
  double median_ms; /* this launch alone: by the device's timer where it
                       has one, else submit, run and wait */
  const char *nodes; /* the ONNX nodes the kernel computes, ", "-separated
                        ("" where the artifact does not say) */
} ot_launch_profile;

/* Times every kernel launch of the model separately (of the shape variant
 * the last run used): each is submitted
 * alone `repetitions` times (1..10000) and waited for, on the buffers as the
 * last run left them (run the model once first). The times are the
 * device's (CUDA events, Vulkan timestamps) where it has a timer; else they
 * include one submit and one wait each (some microseconds). They show where the time goes, not
 * the exact cost of the fused sequence. The array, in launch
 * order, belongs to the session and stays valid until the next profile or
 * until the session is destroyed. */
ot_status ot_session_profile(ot_session *session, uint32_t repetitions,
                             const ot_launch_profile **out_launches,
                             size_t *out_count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ONNX_TOSA_RUNTIME_H */
