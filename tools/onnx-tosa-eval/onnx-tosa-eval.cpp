//===- onnx-tosa-eval.cpp - Reference evaluation of a TOSA function -------===//
//
//   onnx-tosa-eval model.mlir --input input0=x.npy ... --output-dir=DIR
//
// Evaluates a function of TOSA ops (default @main) with the reference
// evaluator and writes its results as DIR/<name>.npy: floating-point results
// as float64 (the fp64 reference, not rounded to the declared type), integer
// results exactly, as the narrowest numpy integer that holds the TOSA type.
// Names follow onnx-tosa-run: `onnx.name` argument/result attributes, else
// input<i> / output<i>.
//
// With --compliance it also writes DIR/<name>.compliance.json and the
// tensors the compliance check of the result's producing op needs
// (test/tosa/compliance.py reads them).
//
// Exit status: 0 valid result; 1 error (unreadable input, unsupported op,
// an ERROR_IF of the specification); 3 the result is unpredictable (a REQUIRE
// of the specification failed: any implementation output is compliant).
//
//===----------------------------------------------------------------------===//
#include "reference/tosa-eval/Evaluator.h"
#include "reference/tosa-eval/Npy.h"

#include "onnx_tosa/version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;
using namespace onnx_tosa::ref;

namespace {

cl::OptionCategory category("onnx-tosa-eval options");
cl::opt<std::string> inputPath(cl::Positional, cl::desc("<file.mlir>"),
                               cl::Required, cl::cat(category));
cl::list<std::string> inputs("input",
                             cl::desc("Value of argument NAME (repeatable)"),
                             cl::value_desc("NAME=FILE.npy"),
                             cl::cat(category));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Where results go (default: .)"),
                               cl::value_desc("dir"), cl::init("."),
                               cl::cat(category));
cl::opt<std::string> funcName("function",
                              cl::desc("Function to evaluate (default main)"),
                              cl::init("main"), cl::cat(category));
cl::opt<bool> compliance(
    "compliance",
    cl::desc("Also write what the compliance check of each result needs"),
    cl::cat(category));
cl::opt<bool> noRounding(
    "no-intermediate-rounding",
    cl::desc("Keep intermediate floating-point results in fp64 instead of "
             "rounding them to their declared type"),
    cl::cat(category));

constexpr const char *kTool = "onnx-tosa-eval";

int fail(const llvm::Twine &msg) {
  llvm::errs() << kTool << ": error: " << msg << "\n";
  return 1;
}

std::string nameOf(func::FuncOp f, unsigned i, bool result) {
  DictionaryAttr attrs = result ? f.getResultAttrDict(i) : f.getArgAttrDict(i);
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>("onnx.name"))
      return name.str();
  return (result ? "output" : "input") + std::to_string(i);
}

std::string joinPath(llvm::StringRef dir, llvm::StringRef file) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, file);
  return std::string(p);
}

/// DIR/<name>.compliance.json and the tensors it names.
bool writeCompliance(const std::string &name, const ComplianceInfo &info,
                     const Tensor &output, std::string &error) {
  llvm::json::Object obj;
  obj["op"] = info.opName;
  obj["element_type"] = dtypeName(output.type).str();
  llvm::json::Object attrs;
  for (auto &[k, v] : info.attrs)
    attrs[k] = v;
  obj["attrs"] = std::move(attrs);
  llvm::json::Array operands;
  for (auto [i, t] : llvm::enumerate(info.operands)) {
    std::string file = name + ".operand" + std::to_string(i) + ".npy";
    if (!writeNpy(joinPath(outputDir, file), t, error))
      return false;
    llvm::json::Object o;
    o["file"] = file;
    o["element_type"] = dtypeName(t.type).str();
    operands.push_back(std::move(o));
  }
  obj["operands"] = std::move(operands);
  if (info.bound) {
    std::string file = name + ".bound.npy";
    if (!writeNpy(joinPath(outputDir, file), *info.bound, error))
      return false;
    obj["bound"] = file;
    obj["kernel_size"] = info.kernelSize;
    obj["bias_nonzero"] = info.biasNonZero;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(joinPath(outputDir, name + ".compliance.json"), ec);
  if (ec) {
    error = "cannot write the compliance file: " + ec.message();
    return false;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(obj))) << "\n";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << onnx_tosa::projectVersionString() << "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "onnx-tosa-eval: evaluate a TOSA function with the reference "
      "evaluator\n\n"
      "Follows the TOSA 1.0 specification's pseudocode; integers exactly,\n"
      "floating point in fp64. Results are written as DIR/<name>.npy:\n"
      "float results as float64 (the unrounded fp64 reference), integer\n"
      "results exactly. Exit status: 0 valid, 1 error, 3 unpredictable\n"
      "(a REQUIRE of the specification failed).\n");

  DialectRegistry registry;
  registerEvaluatorDialects(registry);
  MLIRContext ctx(registry);
  ctx.allowUnregisteredDialects(false);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += (diagnostics.empty() ? "" : "; ") + d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputPath.getValue(), &ctx);
  if (!module)
    return fail("cannot parse '" + inputPath + "'" +
                (diagnostics.empty() ? "" : ": " + diagnostics));
  auto func = module->lookupSymbol<func::FuncOp>(funcName);
  if (!func || func.isExternal())
    return fail("no function @" + funcName + " in '" + inputPath + "'");

  // Arguments by name.
  std::map<std::string, std::string> files;
  for (const std::string &spec : inputs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      return fail("bad --input '" + spec + "' (expected NAME=FILE.npy)");
    files[spec.substr(0, eq)] = spec.substr(eq + 1);
  }
  std::vector<Tensor> args;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    std::string name = nameOf(func, i, /*result=*/false);
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    std::optional<DType> dt = type ? Evaluator::dtypeOf(type) : std::nullopt;
    if (!type || !type.hasStaticShape() || !dt)
      return fail("argument '" + name +
                  "' must be a statically shaped tensor of a TOSA type");
    auto it = files.find(name);
    if (it == files.end())
      return fail("no --input for argument '" + name + "'");
    Tensor t;
    std::string error;
    if (!readNpy(it->second, *dt, t, error))
      return fail("input '" + name + "': " + error);
    if (llvm::ArrayRef<int64_t>(t.shape) != type.getShape())
      return fail("input '" + name + "' has shape " + shapeString(t.shape) +
                  ", the function expects " + shapeString(type.getShape()));
    args.push_back(std::move(t));
    files.erase(it);
  }
  if (!files.empty())
    return fail("the function has no argument '" + files.begin()->first + "'");

  EvalOptions options;
  options.roundIntermediates = !noRounding;
  options.collectCompliance = compliance;
  Evaluator evaluator(*module, options);
  EvalResult result;
  std::string error;
  if (failed(evaluator.run(func, args, result, error)))
    return fail(error);

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
    return fail("cannot create '" + outputDir + "': " + ec.message());
  for (auto [i, t] : llvm::enumerate(result.outputs)) {
    std::string name = nameOf(func, i, /*result=*/true);
    if (!writeNpy(joinPath(outputDir, name + ".npy"), t, error))
      return fail(error);
    if (compliance && !writeCompliance(name, result.compliance[i], t, error))
      return fail(error);
  }
  if (!result.unpredictable.empty()) {
    llvm::errs() << kTool << ": unpredictable: " << result.unpredictable
                 << "\n";
    return 3;
  }
  return 0;
}
