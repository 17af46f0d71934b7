#!/usr/bin/env python3
"""Runs compiled models on every device given and compares each output with
onnxruntime (the oracle) on the same inputs.

    device_check.py --bundle DIR --run-tool PATH --device cuda:0 --device vulkan:0

DIR holds, per model NAME: NAME.onnx, NAME.<target>.otsa for each target, and
NAME.inputs/<input>.npy. The target of a device is its prefix (cuda, vulkan).
Prints one line per (model, device) and a summary; exits 1 on any mismatch.
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort

RTOL, ATOL = 1e-4, 1e-5  # the foundation's fp32 tolerance (issue text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundle", required=True, type=pathlib.Path)
    ap.add_argument("--run-tool", required=True)
    ap.add_argument("--device", action="append", required=True)
    args = ap.parse_args()

    passed = failed = 0
    for model in sorted(args.bundle.glob("*.onnx")):
        name = model.stem
        inputs = {p.stem: np.load(p) for p in sorted((args.bundle / f"{name}.inputs").glob("*.npy"))}
        sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
        want = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, inputs)))
        for device in args.device:
            target = device.split(":")[0]
            artifact = args.bundle / f"{name}.{target}.otsa"
            with tempfile.TemporaryDirectory() as out:
                cmd = [args.run_tool, str(artifact), f"--device={device}", f"--output-dir={out}", "--quiet"]
                for k in inputs:
                    cmd.append(f"--input={k}={args.bundle / f'{name}.inputs' / (k + '.npy')}")
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                if proc.returncode != 0:
                    print(f"FAIL {name:40s} {device:10s} run error: {proc.stderr.strip()[:300]}")
                    failed += 1
                    continue
                worst, ok = 0.0, True
                for oname, ref in want.items():
                    safe = "".join(c if c.isalnum() or c in "_.-" else "_" for c in oname)
                    got = np.load(pathlib.Path(out) / f"{safe}.npy")
                    if got.shape != ref.shape or got.dtype != ref.dtype or not np.allclose(got, ref, rtol=RTOL, atol=ATOL):
                        ok = False
                    if got.shape == ref.shape:
                        worst = max(worst, float(np.max(np.abs(got.astype(np.float64) - ref))) if ref.size else 0.0)
                status = "ok  " if ok else "FAIL"
                print(f"{status} {name:40s} {device:10s} max|err| {worst:.3g}")
                passed += ok
                failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
