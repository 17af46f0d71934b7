//===- artifact_fuzz.cpp - libFuzzer target: the artifact reader ----------===//
//
// Artifacts come from users: any bytes must be either refused with a message
// or read into a structure that writes back to the same bytes (so nothing
// read is silently dropped or invented). Built with -fsanitize=fuzzer,
// address,undefined by scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//
#include "onnx_tosa/artifact.h"

#include <cstdlib>
#include <cstring>

using namespace onnx_tosa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Artifact a;
  std::string error;
  if (!parseArtifact(data, size, a, error)) {
    if (error.empty())
      std::abort(); // a refusal must say why
    return 0;
  }
  // An accepted artifact is whole: written again, it is the same program,
  // and it reads back.
  std::vector<uint8_t> again = serializeArtifact(a);
  Artifact b;
  if (!parseArtifact(again.data(), again.size(), b, error))
    std::abort();
  if (contentHash(a) != contentHash(b))
    std::abort();
  return 0;
}
