//===- OnnxDialect.h - The onnx dialect -------------------------*- C++ -*-===//
#ifndef ONNX_TOSA_FRONTEND_ONNXDIALECT_H
#define ONNX_TOSA_FRONTEND_ONNXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "OnnxDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "OnnxTypes.h.inc"

#define GET_OP_CLASSES
#include "OnnxOps.h.inc"

#endif // ONNX_TOSA_FRONTEND_ONNXDIALECT_H
