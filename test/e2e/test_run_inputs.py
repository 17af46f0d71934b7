"""onnx-tosa-run's other ways to give inputs: inline values
(`--input x=4x64xf32=0.5`, as iree-run-module takes them) and .npz archives
(`--inputs feeds.npz`, stored or compressed), each checked against
onnxruntime, and what it says about bad ones."""
import numpy as np
import onnx

import e2e_support as S
from e2e_support import assert_clean_error, assert_mentions


def run(run_tool, artifact, out_dir, *args):
    return S.call([run_tool, artifact, f"--device={S.DEVICE}",
                   f"--output-dir={out_dir}", "--quiet", *args])


def test_inline_and_npz_inputs(compile_tool, run_tool, model_dir, tmp_path):
    model = model_dir / "mlp.onnx"
    artifact = tmp_path / "mlp.otsa"
    proc = S.compile_model(compile_tool, model, artifact)
    assert proc.returncode == 0, S.describe(proc)
    x = S.make_models.make_inputs(onnx.load(model),
                                  S.make_models.name_seed("mlp"))["x"]
    np.savez(tmp_path / "stored.npz", x=x)
    np.savez_compressed(tmp_path / "compressed.npz", x=x)
    ramp = np.arange(256, dtype=np.float32).reshape(4, 64) / 256
    cases = {
        "stored": (["--inputs", tmp_path / "stored.npz"], x),
        "compressed": (["--inputs", tmp_path / "compressed.npz"], x),
        "splat": (["--input", "x=4x64xf32=0.5"],
                  np.full((4, 64), 0.5, np.float32)),
        "listed": (["--input", "x=4x64xf32=" +
                    ",".join(repr(float(v)) for v in ramp.flat)], ramp),
    }
    for name, (args, value) in cases.items():
        out = tmp_path / name
        proc = run(run_tool, artifact, out, *args)
        assert proc.returncode == 0, S.describe(proc)
        want = S.onnxruntime_outputs(model, {"x": value})["y"]
        np.testing.assert_allclose(np.load(out / "y.npy"), want, rtol=S.RTOL,
                                   atol=S.ATOL, err_msg=name)


def test_bad_inline_and_npz_inputs(compile_tool, run_tool, model_dir,
                                   tmp_path):
    artifact = tmp_path / "mlp.otsa"
    proc = S.compile_model(compile_tool, model_dir / "mlp.onnx", artifact)
    assert proc.returncode == 0, S.describe(proc)
    (tmp_path / "garbage.npz").write_bytes(b"PK\x03\x04 not a zip")
    np.savez(tmp_path / "good.npz", x=np.zeros((4, 64), np.float32))
    data = (tmp_path / "good.npz").read_bytes()
    (tmp_path / "truncated.npz").write_bytes(data[:len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0xff  # inside x's bytes: the CRC catches it
    (tmp_path / "flipped.npz").write_bytes(bytes(flipped))
    # A compressed entry that claims 2 GiB (the fuzzer's out-of-memory
    # case): refused before anything is allocated.
    np.savez_compressed(tmp_path / "claims.npz", x=np.zeros((4, 64),
                                                            np.float32))
    claims = bytearray((tmp_path / "claims.npz").read_bytes())
    central = claims.rfind(b"PK\x01\x02")
    claims[central + 24:central + 28] = (0x7ffffff0).to_bytes(4, "little")
    (tmp_path / "claims.npz").write_bytes(bytes(claims))
    cases = [
        (["--input", "x=4x64xf32=1,2"], r"gives 2 values for 256 elements"),
        (["--input", "x=4x64xq8=1"], r"unknown element type 'q8'"),
        (["--input", "x=4x64xi8=300"], r"'300' is not an integer in the "
                                       r"type's range"),
        # (a scalar's bad value: the fuzzer found its message built from
        # an empty list)
        (["--input", "x=f32=0n5"], r"'0n5' is not a number \(a f32 value "
                                   r"in 'f32=0n5'\)"),
        (["--input", "x=4x65xf32=1"], r"expected shape \[4, 64\], got "
                                      r"\[4, 65\]"),
        (["--input", "x=4x64xi32=1"], r"expected dtype float32, got int32"),
        (["--inputs", tmp_path / "garbage.npz"], r"not a readable \.npz"),
        (["--inputs", tmp_path / "truncated.npz"], r"not a readable \.npz"),
        (["--inputs", tmp_path / "flipped.npz"], r"fails its CRC"),
        (["--inputs", tmp_path / "claims.npz"],
         r"declares 2147483632 bytes, more than \d+ deflated bytes can "
         r"make"),
        (["--inputs", "/dev/zero"], r"not a regular file"),
    ]
    for args, pattern in cases:
        proc = run(run_tool, artifact, tmp_path / "out", *map(str, args))
        assert_clean_error(proc, S.RUN)
        assert_mentions(proc, pattern, " ".join(map(str, args)),
                        in_paths=True)
