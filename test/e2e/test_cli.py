"""What the compiler's command line promises: contradictory options are
refused, stages resume where they can, and what it prints reads right."""
import re

import e2e_support as S
from e2e_support import assert_clean_error, assert_mentions


def test_emit_target_contradiction(compile_tool, model_dir, tmp_path):
    proc = S.call([compile_tool, model_dir / "mlp.onnx", "--emit=ptx",
                   "--target=vulkan", "-o", tmp_path / "out.ptx"])
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, "--emit=ptx needs --target=cuda", "the conflict")
    # Without --target the stage implies it.
    proc = S.call([compile_tool, model_dir / "mlp.onnx", "--emit=spirv",
                   "-o", tmp_path / "out.spv.mlir"])
    assert proc.returncode == 0, S.describe(proc)
    assert "spirv.module" in (tmp_path / "out.spv.mlir").read_text()


def test_stages_resume(compile_tool, run_tool, model_dir, tmp_path):
    """onnx, tosa and linalg stages fed back give the same outputs; the gpu
    stage is refused with a reason."""
    import numpy as np
    import onnx
    model = model_dir / "mlp.onnx"
    feeds = S.make_models.make_inputs(onnx.load(model),
                                      S.make_models.name_seed("mlp"))
    want = S.onnxruntime_outputs(model, feeds)["y"]
    for stage in ("onnx", "tosa", "linalg"):
        text = tmp_path / f"mlp.{stage}.mlir"
        proc = S.call([compile_tool, model, f"--emit={stage}",
                       f"--target={S.TARGET}", "-o", text])
        assert proc.returncode == 0, S.describe(proc)
        work = tmp_path / stage
        work.mkdir()
        _, _, got = S.compile_and_run(compile_tool, run_tool, text, feeds,
                                      work, outputs=["y"])
        np.testing.assert_allclose(got["y"], want, rtol=S.RTOL, atol=S.ATOL,
                                   err_msg=f"resumed from {stage}")
    gpu = tmp_path / "mlp.gpu.mlir"
    proc = S.call([compile_tool, model, "--emit=gpu", f"--target={S.TARGET}",
                   "-o", gpu])
    assert proc.returncode == 0, S.describe(proc)
    proc = S.call([compile_tool, gpu, f"--target={S.TARGET}", "-o",
                   tmp_path / "gpu.otsa"])
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, "gpu stage, which cannot be resumed", "the reason")


def test_summary_line_and_model_name(compile_tool, run_tool, tmp_path):
    """One launch is 'launch', not 'launches'; the artifact is named after
    the ONNX graph."""
    import onnx
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "graph_of_one_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8])])
    path = tmp_path / "file_name.onnx"
    onnx.save_model(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    artifact = tmp_path / "out.otsa"
    proc = S.compile_model(compile_tool, path, artifact)
    assert proc.returncode == 0, S.describe(proc)
    assert re.search(r"\b1 kernel launch,", proc.stdout), proc.stdout
    proc = S.call([run_tool, "--inspect", artifact])
    assert "model:     graph_of_one_relu" in proc.stdout, proc.stdout


def test_content_hash_follows_the_program(compile_tool, run_tool, model_dir,
                                          tmp_path):
    """--inspect's content hash: the same for options that give the same
    program (spelled out defaults), another for another program."""
    hashes = {}
    for name, extra in (("default", []), ("explicit", ["--vector-width=4"]),
                        ("narrower", ["--vector-width=2"])):
        out = tmp_path / f"{name}.otsa"
        proc = S.compile_model(compile_tool, model_dir / "mlp.onnx", out,
                               *extra)
        assert proc.returncode == 0, S.describe(proc)
        hashes[name] = S.content_hash(run_tool, out)
    assert hashes["default"] == hashes["explicit"]
    assert hashes["default"] != hashes["narrower"]


def test_targets_of_the_table(compile_tool, model_dir, tmp_path):
    """--list-targets prints the table of docs/targets.md; each CUDA chip's
    PTX names the chip and the PTX ISA version it needs; targets and chips
    the table lacks are refused naming the ones it has."""
    proc = S.call([compile_tool, "--list-targets"])
    assert proc.returncode == 0, S.describe(proc)
    for name in ("cuda:sm_75", "cuda:sm_80", "cuda:sm_90a", "cuda:sm_100",
                 "cuda:sm_120", "vulkan"):
        assert f"| {name} |" in proc.stdout, proc.stdout
    model = model_dir / "mlp.onnx"
    out = tmp_path / "mlp.ptx"
    for chip, version in (("sm_80", "8.0"), ("sm_86", "8.0"),
                          ("sm_100", "8.6"), ("sm_120", "8.7"),
                          # an architecture-specific variant the table
                          # lacks: its portable row
                          ("sm_120a", "8.7")):
        proc = S.call([compile_tool, model, f"--target=cuda:{chip}",
                       "--emit=ptx", "-o", out])
        assert proc.returncode == 0, S.describe(proc)
        text = out.read_text()
        want = chip.rstrip("a")
        assert re.search(rf"^\.target {want}\b", text, re.M), text[:400]
        assert f".version {version}" in text, text[:400]
    for flags, pattern in (
            (["--target=rocm"], r"unknown target 'rocm' \(known: auto, "
                                r"cuda, cuda:sm_75, cuda:sm_80"),
            (["--target=cuda:sm_7x"], r"unknown CUDA chip 'sm_7x'"),
            (["--target=cuda:sm_110"], r"no row for CUDA chip 'sm_110'"),
            (["--target=vulkan", "--chip=sm_80"],
             r"--chip=sm_80 with --target=vulkan"),
            (["--target=cuda:sm_75", "--precision=tf32"],
             r"--precision=tf32 needs sm_80 or later")):
        proc = S.call([compile_tool, model, *flags, "-o",
                       tmp_path / "m.otsa"])
        assert_clean_error(proc, S.COMPILE)
        assert_mentions(proc, pattern, " ".join(flags))


def test_block_size_is_checked(compile_tool, run_tool, model_dir, tmp_path):
    """--block-size=0 crashed with SIGFPE; sizes the kernels cannot have are
    refused with the range."""
    for size in (0, 33, 2048):
        proc = S.compile_model(compile_tool, model_dir / "mlp.onnx",
                               tmp_path / "m.otsa", f"--block-size={size}")
        assert_clean_error(proc, S.COMPILE)
        assert_mentions(proc, r"--block-size must be a multiple of 32 from "
                              r"32 to 1024", f"block size {size}")
    # The ends of the range compute what onnxruntime does.
    import numpy as np
    import onnx
    model = model_dir / "mlp.onnx"
    feeds = S.make_models.make_inputs(onnx.load(model),
                                      S.make_models.name_seed("mlp"))
    want = S.onnxruntime_outputs(model, feeds)["y"]
    for size in (32, 1024):
        work = tmp_path / f"bs{size}"
        work.mkdir()
        _, _, got = S.compile_and_run(compile_tool, run_tool, model, feeds,
                                      work, f"--block-size={size}",
                                      outputs=["y"])
        np.testing.assert_allclose(got["y"], want, rtol=S.RTOL, atol=S.ATOL,
                                   err_msg=f"--block-size={size}")


def test_resumed_stages_give_the_same_artifact(compile_tool, run_tool,
                                               model_dir, tmp_path):
    """The tosa and linalg stages printed with their locations and fed back
    to the compiler give the artifact of a compile straight from the model
    (the linalg stage used to go through the TOSA-to-linalg pipeline again,
    which in fp16 changed its kernels). The stages hold the precision."""
    model = model_dir / "mlp.onnx"
    for target in ("vulkan", "cuda:sm_90a"):
        flags = [f"--target={target}", "--cuda-format=ptx"]
        direct = tmp_path / f"direct.{target}.otsa"
        proc = S.call([compile_tool, model, *flags, "--precision=fp16", "-o",
                       direct])
        assert proc.returncode == 0, S.describe(proc)
        for stage in ("tosa", "linalg"):
            text = tmp_path / f"{stage}.{target}.mlir"
            proc = S.call([compile_tool, model, *flags, "--precision=fp16",
                           f"--emit={stage}", "--mlir-print-debuginfo", "-o",
                           text])
            assert proc.returncode == 0, S.describe(proc)
            resumed = tmp_path / f"{stage}.{target}.otsa"
            proc = S.call([compile_tool, text, *flags, "-o", resumed])
            assert proc.returncode == 0, S.describe(proc)
            assert S.content_hash(run_tool, resumed) == \
                S.content_hash(run_tool, direct), (target, stage)


def test_constants_elided_on_a_terminal(compile_tool, model_dir, tmp_path):
    """--emit read on a terminal leaves out constants of more than 16
    elements (BERT-base's tosa stage is 680 MB with them); written to a file
    it keeps them, so that it can be fed back; --elide-constants=N says
    either way, and an elided stage fed back is refused with the reason."""
    import os
    import pty
    import subprocess
    model = model_dir / "mlp.onnx"
    leader, follower = pty.openpty()
    proc = subprocess.Popen([compile_tool, model, "--emit=tosa"],
                            stdout=follower, stderr=subprocess.PIPE)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert proc.wait(timeout=60) == 0, proc.stderr.read()
    assert b"dense_resource<__elided__>" in shown, shown[:400]
    whole = tmp_path / "whole.mlir"
    proc = S.call([compile_tool, model, "--emit=tosa", "-o", whole])
    assert proc.returncode == 0, S.describe(proc)
    assert "__elided__" not in whole.read_text()
    assert len(shown) * 4 < len(whole.read_bytes())
    elided = tmp_path / "elided.mlir"
    proc = S.call([compile_tool, model, "--emit=tosa", "--elide-constants=16",
                   "-o", elided])
    assert proc.returncode == 0, S.describe(proc)
    assert "dense_resource<__elided__>" in elided.read_text()
    proc = S.call([compile_tool, elided, "-o", tmp_path / "m.otsa"])
    assert_clean_error(proc, S.COMPILE)
    assert_mentions(proc, r"printed with its constants elided", "the reason")
