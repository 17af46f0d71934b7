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
