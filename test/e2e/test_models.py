"""Compile each generated model, run it, and compare with onnxruntime."""
import numpy as np
import onnx
import pytest

import e2e_support as S


@pytest.mark.parametrize("name", sorted(S.make_models.MODELS))
def test_model_matches_onnxruntime(name, compile_tool, run_tool, model_dir,
                                   tmp_path):
    model_path = model_dir / f"{name}.onnx"
    artifact = tmp_path / f"{name}.otsa"

    proc = S.compile_model(compile_tool, model_path, artifact)
    assert proc.returncode == 0, f"compiling {name} failed{S.describe(proc)}"
    S.assert_no_crash(proc)
    assert artifact.is_file() and artifact.stat().st_size > 0, (
        f"no artifact written{S.describe(proc)}")

    model = onnx.load(model_path)
    feeds = S.make_models.make_inputs(model, S.make_models.name_seed(name))
    inputs = S.save_inputs(feeds, tmp_path / "inputs")
    out_dir = tmp_path / "outputs"
    out_dir.mkdir()

    proc = S.run_artifact(run_tool, artifact, inputs, out_dir)
    assert proc.returncode == 0, f"running {name} failed{S.describe(proc)}"
    S.assert_no_crash(proc)

    expected = S.onnxruntime_outputs(model_path, feeds)
    written = sorted(p.name for p in out_dir.iterdir())
    for out_name, ref in expected.items():
        path = out_dir / f"{S.sanitize(out_name)}.npy"
        assert path.is_file(), (
            f"output {out_name!r} not written; {out_dir} holds {written}"
            f"{S.describe(proc)}")
        got = np.load(path, allow_pickle=False)
        assert got.dtype == ref.dtype, (
            f"output {out_name!r}: dtype {got.dtype}, expected {ref.dtype}")
        assert got.shape == ref.shape, (
            f"output {out_name!r}: shape {got.shape}, expected {ref.shape}")
        np.testing.assert_allclose(
            got, ref, rtol=S.RTOL, atol=S.ATOL,
            err_msg=f"{name}: output {out_name!r} differs from onnxruntime")
