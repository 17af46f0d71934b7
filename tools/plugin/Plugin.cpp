//===- Plugin.cpp - onnx-tosa as an mlir-opt plugin -----------------------===//
//
//   mlir-opt --load-dialect-plugin=OnnxTosaPlugin.so \
//            --load-pass-plugin=OnnxTosaPlugin.so \
//            --pass-pipeline='builtin.module(convert-onnx-to-tosa)' model.mlir
//
// (A plugin's passes are reachable through --pass-pipeline only: mlir-opt
// parses its flags before it loads plugins.)
//
//===----------------------------------------------------------------------===//
#include "tools/Registration.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OnnxTosa", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            onnx_tosa::registerDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OnnxTosaPasses", LLVM_VERSION_STRING,
          []() { onnx_tosa::registerPasses(); }};
}
