#!/usr/bin/env python3
"""Write the bundled example: a small MLP and an input for it.

    make_example.py OUTDIR

writes OUTDIR/mlp.onnx (x[4,64] -> Gemm -> Relu -> MatMul -> Add -> Sigmoid
-> Gemm -> Softmax -> y[4,10]) and OUTDIR/x.npy (float32 [4,64], uniform in
[-1, 1)). Both are the same on every run: the model is the `mlp` of the
end-to-end tests, and the input is the one those tests feed it.
"""
import argparse
import os
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "test", "models"))
import make_models  # noqa: E402  (needs the path above)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir", help="directory to write mlp.onnx and x.npy to")
    args = p.parse_args(argv)

    os.makedirs(args.outdir, exist_ok=True)
    model = make_models.build("mlp")
    inputs = make_models.make_inputs(model, make_models.name_seed("mlp"))

    model_path = os.path.join(args.outdir, "mlp.onnx")
    input_path = os.path.join(args.outdir, "x.npy")
    onnx.save_model(model, model_path)
    np.save(input_path, inputs["x"])
    print(model_path)
    print(input_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
