//===- OnnxDialect.cpp - The onnx dialect ---------------------------------===//
#include "OnnxDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace onnx_tosa::onnx;

#include "OnnxDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "OnnxTypes.cpp.inc"

#define GET_OP_CLASSES
#include "OnnxOps.cpp.inc"

void OnnxDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "OnnxTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "OnnxOps.cpp.inc"
      >();
}
