//===- Npy.h - .npy files for the TOSA reference evaluator ----------------===//
//
// Reads numpy arrays of any plain dtype into host tensors, and writes
// results: floating-point tensors as float64 (the evaluator's precision),
// integer tensors as the narrowest numpy integer that holds the TOSA type,
// booleans as bool.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_REFERENCE_TOSA_EVAL_NPY_H
#define ONNX_TOSA_REFERENCE_TOSA_EVAL_NPY_H

#include "reference/tosa-eval/Tensor.h"

#include <string>

namespace onnx_tosa::ref {

/// Reads `path` as a tensor of element type `type`: the values are converted
/// (floats rounded to `type`, integers wrapped to its width). Fails with a
/// message when the file is unreadable or the dtype kind does not fit (a float
/// array for an integer tensor).
bool readNpy(const std::string &path, DType type, Tensor &out,
             std::string &error);

/// Writes a tensor; see the file comment for the dtype chosen.
bool writeNpy(const std::string &path, const Tensor &t, std::string &error);

} // namespace onnx_tosa::ref

#endif // ONNX_TOSA_REFERENCE_TOSA_EVAL_NPY_H
