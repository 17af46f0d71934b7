"""The onnx package's "real" model cases (its backend suite's nine CNNs,
shipped without downloads as "light" models whose weights are made by
ConstantOfShape): compiled, run on the test target on the inputs the onnx
runner makes for them (Runner.generate_dummy_data) and compared with the
outputs the package stores, with each case's own tolerances (data.json).

All nine take about 2.5 minutes on lavapipe with 2 cores (VGG-19 50 s,
ResNet-50 22 s, the others 3 to 15 s). AlexNet, ZFNet-512 and VGG-19 have
fully connected weights over Vulkan's 128 MiB buffer range (144, 288 and
392 MiB), which lavapipe refused to load until they were split at compile
time (onnx-tosa-split-large-constants).
"""
import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import e2e_support as S

DATA = Path(onnx.__file__).parent / "backend" / "test" / "data"
CASES = sorted(p.name for p in (DATA / "real").iterdir())


@pytest.mark.parametrize("name", CASES)
def test_real_model(name, compile_tool, run_tool, tmp_path):
    from onnx.backend.test.runner import Runner
    meta = json.loads((DATA / "real" / name / "data.json").read_text())
    model_path = Path(onnx.__file__).parent.parent / meta["url"]
    model = onnx.load(model_path)
    initializers = {i.name for i in model.graph.initializer}
    feeds = {x.name: Runner.generate_dummy_data(x, seed=0,
                                                name=meta["model_name"],
                                                random=False)
             for x in model.graph.input if x.name not in initializers}
    stem = str(model_path)[:-len(".onnx")]
    output = model.graph.output[0].name
    want = numpy_helper.to_array(onnx.load_tensor(f"{stem}_output_0.pb"))
    _, _, got = S.compile_and_run(compile_tool, run_tool, model_path, feeds,
                                  tmp_path, outputs=[output])
    np.testing.assert_allclose(got[output], want, rtol=meta["rtol"],
                               atol=meta["atol"])
