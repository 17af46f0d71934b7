//===- Registration.h - Every dialect and pass of onnx-tosa -----*- C++ -*-===//
#ifndef ONNX_TOSA_TOOLS_REGISTRATION_H
#define ONNX_TOSA_TOOLS_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace llvm {
class raw_ostream;
}

namespace onnx_tosa {
/// Adds the onnx dialect (and the upstream dialects our passes create).
void registerDialects(mlir::DialectRegistry &registry);
/// Registers our passes and pipelines with the global pass registry.
void registerPasses();
/// What --version of every compiler tool prints: the project's version and
/// commit, and the LLVM it was built with.
void printVersion(llvm::raw_ostream &os);
} // namespace onnx_tosa

#endif
