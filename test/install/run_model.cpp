//===- run_model.cpp - An outside program using the installed runtime ----===//
//
//   run_model MODEL.otsa DEVICE INPUT_NAME=IN.npy OUTPUT_NAME=OUT.npy
//
// Loads the artifact, runs it on one input and writes one output, with the
// public C++ wrapper and .npy helpers only.
//
//===----------------------------------------------------------------------===//
#include "onnx_tosa/npy.h"
#include "onnx_tosa/runtime.hpp"

#include <cstdio>
#include <string>

using namespace onnx_tosa;

static std::pair<std::string, std::string> split(const char *arg) {
  std::string s = arg;
  size_t eq = s.find('=');
  return {s.substr(0, eq), eq == std::string::npos ? "" : s.substr(eq + 1)};
}

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: run_model MODEL DEVICE IN=X.npy OUT=Y.npy\n");
    return 2;
  }
  auto [inName, inPath] = split(argv[3]);
  auto [outName, outPath] = split(argv[4]);
  try {
    std::printf("%s\n", ot_version());
    Device device = Device::open(argv[2]);
    Session session = Session::load(device, argv[1]);
    NpyArray x;
    std::string error;
    if (!readNpy(inPath, x, error)) {
      std::fprintf(stderr, "run_model: %s\n", error.c_str());
      return 1;
    }
    TensorRef in{inName, static_cast<ot_dtype>(x.dtype), x.shape,
                 x.data.data(), x.data.size()};
    for (const Tensor &t : session.run({in})) {
      if (t.info.name != outName)
        continue;
      if (!writeNpy(outPath, static_cast<DType>(t.info.dtype), t.info.shape,
                    t.data.data(), t.data.size(), error)) {
        std::fprintf(stderr, "run_model: %s\n", error.c_str());
        return 1;
      }
      std::printf("ran %s on %s\n", session.modelName().c_str(),
                  device.id().c_str());
      return 0;
    }
    std::fprintf(stderr, "run_model: no output '%s'\n", outName.c_str());
  } catch (const RuntimeError &e) {
    std::fprintf(stderr, "run_model: %s\n", e.what());
  }
  return 1;
}
