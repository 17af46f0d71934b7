//===- input_values.h - Inputs written inline or in .npz archives -*- C++ -*-===//
//
// Besides one .npy file per input, onnx-tosa-run takes an input's value on
// the command line, as iree-run-module does ("--input x=2x8xf32=1": every
// element 1; "--input ids=3xi64=5,7,9"; "--input t=f32=0.5", a scalar), and
// every input at once from an .npz archive (numpy.savez or
// savez_compressed; "--inputs feeds.npz", each array the input of its name).
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUN_INPUT_VALUES_H
#define ONNX_TOSA_RUN_INPUT_VALUES_H

#include "onnx_tosa/npy.h"

#include <string>
#include <utility>
#include <vector>

namespace onnx_tosa::run {

/// Whether `spec` (what follows "NAME=") is an inline value, not a file:
/// it has an '=' (DIMxDIMx...xTYPE=VALUES) and does not end in ".npy".
bool isInlineValue(const std::string &spec);

/// Parses "2x8xf32=1" (one value: every element), "3xi64=1,2,3" (one value
/// per element, C order) or "f32=0.5" (a scalar). Types: f16, f32, f64,
/// i1 (bool: 0, 1, true, false), i8, i16, i32, i64, u8, u16, u32, u64.
/// On failure returns false with the reason in `error`.
bool parseInlineValue(const std::string &spec, NpyArray &out,
                      std::string &error);

/// Every array of the .npz archive at `path` with its name (the entry's
/// file name without ".npy"), stored or deflated; the archive is read as the
/// runtime reads files (readRegularFile: regular files only, bounded by their
/// size), and every entry is checked against its size and CRC.
bool readNpz(const std::string &path,
             std::vector<std::pair<std::string, NpyArray>> &out,
             std::string &error);

/// The same over an archive's bytes.
bool parseNpz(const uint8_t *bytes, size_t size,
              std::vector<std::pair<std::string, NpyArray>> &out,
              std::string &error);

} // namespace onnx_tosa::run

#endif
