"""Outputs whose size depends on the input values (NonZero, Unique,
NonMaxSuppression): compiled once with their upper bound as shape, run on
inputs that select different numbers of elements (none, some, all), and
compared with onnxruntime, through onnx-tosa-run and the Python API."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import e2e_support as S


def save(tmp_path, graph, opset):
    path = tmp_path / "model.onnx"
    model = helper.make_model(graph, ir_version=8,
                              opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    onnx.save_model(model, path)
    return path


def check_runs(compile_tool, run_tool, tmp_path, path, feeds_list):
    """Compiles `path` once and runs it on every feed of `feeds_list`,
    comparing each output (shape and values) with onnxruntime's."""
    artifact = tmp_path / "model.otsa"
    proc = S.compile_model(compile_tool, path, artifact)
    assert proc.returncode == 0, f"compiling failed{S.describe(proc)}"
    names = [o.name for o in onnx.load(path).graph.output]
    for k, feeds in enumerate(feeds_list):
        out_dir = tmp_path / f"out{k}"
        out_dir.mkdir()
        run = S.run_artifact(run_tool, artifact,
                             S.save_inputs(feeds, tmp_path / f"in{k}"),
                             out_dir)
        assert run.returncode == 0, f"running failed{S.describe(run)}"
        want = S.onnxruntime_outputs(path, feeds)
        for name in names:
            got = np.load(out_dir / f"{S.sanitize(name)}.npy")
            assert got.shape == want[name].shape, (name, k, got, want[name])
            np.testing.assert_array_equal(got, want[name], err_msg=name)
    return artifact


def nonzero_graph(shape, dtype=TensorProto.FLOAT):
    return helper.make_graph(
        [helper.make_node("NonZero", ["x"], ["y"], name="nz")], "nonzero",
        [helper.make_tensor_value_info("x", dtype, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [len(shape),
                                                                None])])


def test_nonzero(compile_tool, run_tool, tmp_path):
    path = save(tmp_path, nonzero_graph([3, 5, 4]), 13)
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (3, 5, 4)).astype(np.float32)
    sparse = np.where(rng.uniform(size=x.shape) < 0.3, x, 0).astype(np.float32)
    check_runs(compile_tool, run_tool, tmp_path, path, [
        {"x": sparse},
        {"x": np.zeros_like(x)},             # no element: shape [3, 0]
        {"x": x},                            # every element
        {"x": np.eye(1, 60, 59).reshape(x.shape).astype(np.float32)},
    ])


def test_nonzero_of_integers(compile_tool, run_tool, tmp_path):
    path = save(tmp_path, nonzero_graph([7], TensorProto.INT32), 13)
    x = np.array([0, -3, 0, 0, 5, 1, 0], np.int32)
    check_runs(compile_tool, run_tool, tmp_path, path, [{"x": x}])


@pytest.mark.parametrize("attrs", [{"sorted": 1}, {"sorted": 0},
                                   {"sorted": 1, "axis": 0},
                                   {"sorted": 0, "axis": 1}],
                         ids=["sorted", "first_seen", "rows", "columns"])
def test_unique(compile_tool, run_tool, tmp_path, attrs):
    node = helper.make_node("Unique", ["x"], ["y", "idx", "inv", "cnt"],
                            name="uq", **attrs)
    y_rank = 2 if "axis" in attrs else 1
    out = [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                         [None] * y_rank)] + [
        helper.make_tensor_value_info(n, TensorProto.INT64, [None])
        for n in ("idx", "inv", "cnt")]
    graph = helper.make_graph(
        [node], "unique",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6, 3])], out)
    path = save(tmp_path, graph, 11)
    rng = np.random.default_rng(5)
    few = rng.integers(0, 3, (6, 3)).astype(np.float32)
    rows = np.repeat(rng.integers(-2, 2, (2, 3)), 3, axis=0)
    check_runs(compile_tool, run_tool, tmp_path, path, [
        {"x": few},
        {"x": rows.astype(np.float32)},
        {"x": np.full((6, 3), 7, np.float32)},            # one distinct
        {"x": np.arange(18, dtype=np.float32).reshape(6, 3)[::-1].copy()},
    ])


@pytest.mark.parametrize("center", [0, 1])
def test_non_max_suppression(compile_tool, run_tool, tmp_path, center):
    batches, classes, boxes = 2, 3, 12
    graph = helper.make_graph(
        [helper.make_node("NonMaxSuppression",
                          ["boxes", "scores", "limit", "iou", "score"],
                          ["selected"], name="nms", center_point_box=center)],
        "nms",
        [helper.make_tensor_value_info("boxes", TensorProto.FLOAT,
                                       [batches, boxes, 4]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT,
                                       [batches, classes, boxes]),
         helper.make_tensor_value_info("limit", TensorProto.INT64, [1]),
         helper.make_tensor_value_info("iou", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("score", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("selected", TensorProto.INT64,
                                       [None, 3])])
    path = save(tmp_path, graph, 11)
    rng = np.random.default_rng(7 + center)
    corner = rng.uniform(0, 4, (batches, boxes, 2)).astype(np.float32)
    size = rng.uniform(0.5, 3, (batches, boxes, 2)).astype(np.float32)
    b = np.concatenate([corner, corner + size], axis=2) if center == 0 \
        else np.concatenate([corner, size], axis=2)
    scores = rng.uniform(0, 1, (batches, classes, boxes)).astype(np.float32)
    scores[0, 1, 3] = scores[0, 1, 5]  # a tie: the lower index goes first

    def feeds(limit, iou, score):
        return {"boxes": b, "scores": scores,
                "limit": np.array([limit], np.int64),
                "iou": np.array([iou], np.float32),
                "score": np.array([score], np.float32)}
    check_runs(compile_tool, run_tool, tmp_path, path, [
        feeds(5, 0.3, 0.2),
        feeds(100, 0.5, 0.0),     # more than there are
        feeds(0, 0.5, 0.0),       # none: shape [0, 3]
        feeds(2, 0.0, 0.9),       # any overlap suppresses
    ])


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_compress_with_run_time_condition(compile_tool, run_tool, tmp_path,
                                          axis):
    attrs = {} if axis is None else {"axis": axis}
    cond_len = {None: 9, 0: 3, 1: 4}[axis]  # shorter than the axis
    graph = helper.make_graph(
        [helper.make_node("Compress", ["x", "c"], ["y"], name="cmp", **attrs)],
        "compress",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 5]),
         helper.make_tensor_value_info("c", TensorProto.BOOL, [cond_len])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [None] if axis is None
                                       else [None, None])])
    path = save(tmp_path, graph, 11)
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    rng = np.random.default_rng(11)
    check_runs(compile_tool, run_tool, tmp_path, path, [
        {"x": x, "c": rng.uniform(size=cond_len) < 0.5},
        {"x": x, "c": np.zeros(cond_len, bool)},
        {"x": x, "c": np.ones(cond_len, bool)},
    ])


def loop_model(tmp_path, declared_length):
    """y = cumulative sums of x[i] for i < M (M a graph input), as a Loop
    with a scan output: the issue's example, whose scan output is declared
    `declared_length` long whatever M is."""
    body = helper.make_graph(
        [helper.make_node("Gather", ["x", "i"], ["xi"], axis=0),
         helper.make_node("Add", ["s", "xi"], ["s_next"]),
         helper.make_node("Identity", ["s_next"], ["scan"]),
         helper.make_node("Identity", ["c"], ["c_next"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c", TensorProto.BOOL, []),
         helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("c_next", TensorProto.BOOL, []),
         helper.make_tensor_value_info("s_next", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("scan", TensorProto.FLOAT, [])])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "", "s0"], ["total", "sums"],
                          name="cumsum", body=body)],
        "loop_trip_count",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8]),
         helper.make_tensor_value_info("m", TensorProto.INT64, []),
         helper.make_tensor_value_info("s0", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("total", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("sums", TensorProto.FLOAT,
                                       [declared_length])])
    return save(tmp_path, graph, 13)


def test_loop_scan_output_has_the_trip_counts_length(compile_tool, run_tool,
                                                     tmp_path):
    path = loop_model(tmp_path, 5)
    x = np.array([1, 2, 3, 1, 1, 4, 4, 4], np.float32)

    def feeds(m):
        return {"x": x, "m": np.array(m, np.int64),
                "s0": np.array(0, np.float32)}
    artifact = check_runs(compile_tool, run_tool, tmp_path, path,
                          [feeds(2), feeds(5), feeds(0)])
    # More iterations than the declared length the loop was unrolled for:
    # an error naming the output, not a truncated loop.
    run = S.run_artifact(run_tool, artifact,
                         S.save_inputs(feeds(7), tmp_path / "in_long"),
                         tmp_path)
    S.assert_clean_error(run, S.RUN)
    S.assert_mentions(run, r"output 'sums' would have more than the 5 "
                      r"entries", "the output and its bound")
    S.assert_mentions(run, "Loop", "why")


def test_elementwise_op_keeps_the_count(compile_tool, run_tool, tmp_path):
    """NonZero's indices through Cast and Neg: elementwise ops of one input
    keep the real array first, so their output is trimmed as well."""
    graph = helper.make_graph(
        [helper.make_node("NonZero", ["x"], ["nz"]),
         helper.make_node("Cast", ["nz"], ["f"], to=TensorProto.FLOAT),
         helper.make_node("Neg", ["f"], ["y"])],
        "nonzero_cast",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, None])])
    path = save(tmp_path, graph, 13)
    x = np.array([[0, 1, 0], [2, 0, 0], [0, 0, 3]], np.float32)
    check_runs(compile_tool, run_tool, tmp_path, path, [{"x": x}])


def test_boolean_mask_indexing(compile_tool, run_tool, tmp_path):
    """x[x > 0.2] of a 1-D x, as exporters write it: Greater, NonZero,
    Squeeze, Gather; then * 2. The count goes through every op."""
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [0])
    limit = helper.make_tensor("limit", TensorProto.FLOAT, [], [0.2])
    graph = helper.make_graph(
        [helper.make_node("Greater", ["x", "limit"], ["mask"]),
         helper.make_node("NonZero", ["mask"], ["nz"]),
         helper.make_node("Squeeze", ["nz", "axes"], ["idx"]),
         helper.make_node("Gather", ["x", "idx"], ["picked"], axis=0),
         helper.make_node("Mul", ["picked", "two"], ["y"])],
        "mask_indexing",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None])],
        initializer=[two, axes, limit])
    path = save(tmp_path, graph, 13)
    rng = np.random.default_rng(21)
    x = rng.uniform(-1, 1, 16).astype(np.float32)
    check_runs(compile_tool, run_tool, tmp_path, path, [
        {"x": x}, {"x": np.full(16, -1, np.float32)}, {"x": np.abs(x) + 0.5}])


@pytest.mark.parametrize("pick", ["gather", "slice"])
def test_boxes_kept_by_nms(compile_tool, run_tool, tmp_path, pick):
    """A detector's last step: the boxes NonMaxSuppression keeps, by the box
    index column of its result (Gather or Slice, Squeeze), gathered from the
    boxes."""
    n = 10
    col = helper.make_tensor("col", TensorProto.INT64, [], [2])
    starts = helper.make_tensor("starts", TensorProto.INT64, [1], [2])
    ends = helper.make_tensor("ends", TensorProto.INT64, [1], [3])
    one = helper.make_tensor("one", TensorProto.INT64, [1], [1])
    zero = helper.make_tensor("zero", TensorProto.INT64, [1], [0])
    take = ([helper.make_node("Gather", ["sel", "col"], ["idx"], axis=1)]
            if pick == "gather" else
            [helper.make_node("Slice", ["sel", "starts", "ends", "one"],
                              ["col2"]),
             helper.make_node("Squeeze", ["col2", "one"], ["idx"])])
    graph = helper.make_graph(
        [helper.make_node("NonMaxSuppression",
                          ["boxes", "scores", "limit", "iou", "score"],
                          ["sel"])] + take +
        [helper.make_node("Squeeze", ["boxes", "zero"], ["flat"]),
         helper.make_node("Gather", ["flat", "idx"], ["kept"], axis=0)],
        "nms_boxes",
        [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [1, n, 4]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 1, n]),
         helper.make_tensor_value_info("limit", TensorProto.INT64, [1]),
         helper.make_tensor_value_info("iou", TensorProto.FLOAT, [1]),
         helper.make_tensor_value_info("score", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("kept", TensorProto.FLOAT, [None, 4])],
        initializer=[col, starts, ends, one, zero])
    path = save(tmp_path, graph, 13)
    rng = np.random.default_rng(5)
    corner = rng.uniform(0, 3, (1, n, 2)).astype(np.float32)
    boxes = np.concatenate([corner, corner + 1.5], axis=2)
    scores = rng.uniform(0, 1, (1, 1, n)).astype(np.float32)

    def feeds(limit, score):
        return {"boxes": boxes, "scores": scores,
                "limit": np.array([limit], np.int64),
                "iou": np.array([0.3], np.float32),
                "score": np.array([score], np.float32)}
    check_runs(compile_tool, run_tool, tmp_path, path,
               [feeds(4, 0.1), feeds(10, 0.0), feeds(5, 2.0)])


def test_reduction_of_data_dependent_size_is_refused(compile_tool, tmp_path):
    graph = helper.make_graph(
        [helper.make_node("NonZero", ["x"], ["nz"], name="find"),
         helper.make_node("ReduceMax", ["nz"], ["y"], name="largest",
                          keepdims=0)],
        "nonzero_reduce",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [])])
    path = save(tmp_path, graph, 13)
    proc = S.compile_model(compile_tool, path, tmp_path / "out.otsa")
    S.assert_clean_error(proc, S.COMPILE)
    S.assert_mentions(proc, S.word("largest"), "the node")
    S.assert_mentions(proc, S.word("find"), "where the size comes from")
    S.assert_mentions(proc, "depends on the input values", "why")


@pytest.mark.parametrize("shape", [[3, 5], [2, 3, 4]], ids=["2d", "3d"])
def test_mask_indexing_of_any_rank(compile_tool, run_tool, tmp_path, shape):
    """x[x > 0.3] as PyTorch exports it for any rank: NonZero, Transpose
    (the coordinates as rows), GatherND; then + 1."""
    limit = helper.make_tensor("limit", TensorProto.FLOAT, [], [0.3])
    one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
    graph = helper.make_graph(
        [helper.make_node("Greater", ["x", "limit"], ["mask"]),
         helper.make_node("NonZero", ["mask"], ["nz"]),
         helper.make_node("Transpose", ["nz"], ["coords"], perm=[1, 0]),
         helper.make_node("GatherND", ["x", "coords"], ["picked"]),
         helper.make_node("Add", ["picked", "one"], ["y"])],
        "mask_indexing_nd",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None]),
         helper.make_tensor_value_info("coords", TensorProto.INT64,
                                       [None, len(shape)])],
        initializer=[limit, one])
    path = save(tmp_path, graph, 13)
    rng = np.random.default_rng(len(shape))
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    check_runs(compile_tool, run_tool, tmp_path, path, [
        {"x": x}, {"x": np.zeros(shape, np.float32)},
        {"x": np.ones(shape, np.float32)}])
