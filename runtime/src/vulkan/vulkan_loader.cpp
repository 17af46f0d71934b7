//===- vulkan_loader.cpp - dlopen-based loading of the Vulkan loader ------===//

#include "vulkan_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace onnx_tosa::rt::vk {

#define OT_VULKAN_DEFINE(name) PFN_##name name = nullptr;
OT_VULKAN_FUNCTIONS(OT_VULKAN_DEFINE)
#undef OT_VULKAN_DEFINE

namespace {

struct LoadResult {
  ot_status_code code = OT_STATUS_OK;
  std::string message;
};

LoadResult load() {
  const char *env = std::getenv("ONNX_TOSA_VULKAN_LOADER");
  const char *name = env && *env ? env : "libvulkan.so.1";
  // Stays loaded for the life of the process, as the CUDA driver does.
  void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    return {OT_STATUS_UNAVAILABLE,
            std::string("the Vulkan loader ") + name +
                " could not be loaded (install the Vulkan loader, e.g. "
                "Debian's libvulkan1, and a driver)" +
                (why ? std::string(": ") + why : std::string())};
  }
  std::string missing;
#define OT_VULKAN_RESOLVE(fn)                                                  \
  fn = reinterpret_cast<PFN_##fn>(dlsym(lib, #fn));                           \
  if (!fn)                                                                     \
    missing += (missing.empty() ? "" : ", ") + std::string(#fn);
  OT_VULKAN_FUNCTIONS(OT_VULKAN_RESOLVE)
#undef OT_VULKAN_RESOLVE
  if (!missing.empty())
    return {OT_STATUS_UNAVAILABLE, std::string("the Vulkan loader ") + name +
                                       " lacks " + missing +
                                       " (Vulkan 1.1 or newer is required)"};
  return {};
}

} // namespace

Status loadVulkan() {
  static std::once_flag once;
  static LoadResult result;
  std::call_once(once, [] { result = load(); });
  if (result.code != OT_STATUS_OK)
    return Status(result.code, result.message);
  return okStatus();
}

} // namespace onnx_tosa::rt::vk
