"""The official TOSA conformance test runner's system under test for
onnx-tosa (`tosa_verif_run_tests --sut-module onnx_tosa_sut`): each test's
TOSA flatbuffer is turned into TOSA MLIR by the tosa-opt of tosa-tools,
compiled by onnx-tosa-compile for a target and run by onnx-tosa-run on the
test's inputs; the runner then judges the outputs against the reference
model's with the specification's compliance modes (tosa_verify). A graph
the compiler refuses as invalid TOSA (its import or validation stage) is
the graph result TOSA_ERROR, which a negative (ERROR_IF) test expects.

Arguments (--sut-module-args onnx_tosa_sut:NAME=VALUE): bin=DIR (our tools,
default build/bin), target=vulkan|cuda (default vulkan), device=NAME.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

from runner.tosa_test_runner import TosaTestRunner

REPO = Path(__file__).resolve().parents[3]


def _arguments(runner_args):
    values = {"bin": str(REPO / "build" / "bin"), "target": "vulkan",
              "device": "auto"}
    for a in runner_args:
        name, _, value = a.partition("=")
        values[name] = value
    return values


class InvalidGraph(Exception):
    """onnx-tosa-compile refused the graph as one the specification says is
    an error."""


class TosaSUTRunner(TosaTestRunner):
    """onnx-tosa as the system under test."""

    def __init__(self, args, runnerArgs, testDirPath):
        super().__init__(args, runnerArgs, testDirPath)
        self.options = _arguments(runnerArgs)

    def _run(self, cmd, what):
        p = subprocess.run([str(c) for c in cmd], capture_output=True,
                           text=True, errors="replace", timeout=300,
                           stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            lines = [l for l in (p.stderr + p.stdout).splitlines()
                     if "error" in l.lower()] or p.stderr.splitlines()[-1:]
            message = f"{what}: " + (lines[0] if lines else
                                     f"exit {p.returncode}")
            # The compiler refused the graph as invalid TOSA: the dialect's
            # verifiers (import) or the specification's ERROR_IFs and level
            # (validation). Not a crash (a signal's exit status).
            if (what == "onnx-tosa-compile" and 0 < p.returncode < 128 and
                    re.search(r"error: (import|validation): ", message)):
                raise InvalidGraph(message)
            raise RuntimeError(message)
        return p

    def runTestGraph(self):
        work = self.testDirPath / "onnx_tosa"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        tools = Path(self.options["bin"])
        tosa_opt = Path(self.args.ref_model_path).parent / "tosa-opt"
        try:
            empty = work / "empty.mlir"
            empty.write_text("module {}\n")
            model = work / "model.mlir"
            # Constants in decimal: that tosa-opt (a newer LLVM) packs
            # booleans in hex as LLVM 22's parser does not read them.
            # Not verified there (generic form, which prints an invalid
            # op): whether the graph is valid TOSA is the compiler's to say.
            self._run([tosa_opt, empty, "--tosa-deserialize",
                       "--tosa-deserialize-filename="
                       + str(self.testDirPath / self.testDesc["tosa_file"]),
                       "--verify-each=false", "--mlir-print-op-generic",
                       "--mlir-print-elementsattrs-with-hex-if-larger=-1",
                       "-o", model], "tosa-opt")
            artifact = work / "model.otsa"
            self._run([tools / "onnx-tosa-compile", model,
                       f"--target={self.options['target']}", "-o", artifact],
                      "onnx-tosa-compile")
            # Arguments and results in the graph's order: the artifact calls
            # them input<i> and output<i>.
            cmd = [tools / "onnx-tosa-run", artifact,
                   f"--device={self.options['device']}",
                   f"--output-dir={work}", "--quiet"]
            for i, f in enumerate(self.testDesc["ifm_file"]):
                cmd += ["--input", f"input{i}={self.testDirPath / f}"]
            self._run(cmd, "onnx-tosa-run")
            for i, f in enumerate(self.testDesc["ofm_file"]):
                os.replace(work / f"output{i}.npy", self.testDirPath / f)
        except InvalidGraph as e:
            return TosaTestRunner.TosaGraphResult.TOSA_ERROR, str(e)
        except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
            return TosaTestRunner.TosaGraphResult.OTHER_ERROR, str(e)
        return TosaTestRunner.TosaGraphResult.TOSA_VALID, None
