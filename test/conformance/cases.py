"""The ONNX backend test cases: where they are, what is inside each one.

A case is a directory holding model.onnx and test_data_set_N/ folders of
input_K.pb / output_K.pb protobufs (TensorProto for tensors; SequenceProto,
OptionalProto or MapProto for the other ONNX types).

The `onnx` Python package ships the pytorch-converted, pytorch-operator and
simple cases as data. Recent wheels no longer ship the node cases (one per
operator test, the bulk of the suite); the package still ships the code that
produces them (onnx.backend.test.case.node), seeded so that every export gives
the same data, so we write them out once per onnx version under the build
directory, in the same layout as the shipped ones.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("node", "pytorch-converted", "pytorch-operator", "simple")

# Element types whose values onnx-tosa-run can take from a .npy file
# (bfloat16 travels as float32, as the runner documents).
NPY_INPUT_TYPES = {
    "FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16",
    "INT8", "INT16", "INT32", "INT64",
    "UINT8", "UINT16", "UINT32", "UINT64", "BOOL",
    # Narrow types travel as uint8 bit patterns (harness.to_runner_array).
    "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
    "FLOAT8E8M0", "FLOAT4E2M1", "INT4", "UINT4", "INT2", "UINT2",
}

_EXPANDED_RE = re.compile(r"^(?P<base>.+?)_expanded(?:_ver\d+)?$")


def onnx_data_dir() -> Path:
    """The backend test data folder inside the installed onnx package."""
    import onnx.backend.test as backend_test
    return Path(backend_test.__file__).resolve().parent / "data"


def onnx_version() -> str:
    import onnx
    return onnx.__version__


# ---------------------------------------------------------------- node data

def _write_value(path: Path, value, type_proto, name: str) -> None:
    """Writes one input or output value the way the shipped data does."""
    from onnx import TensorProto, numpy_helper
    kind = type_proto.WhichOneof("value") if type_proto is not None else None
    if kind == "sequence_type":
        proto = numpy_helper.from_list(value, name)
    elif kind == "optional_type":
        proto = numpy_helper.from_optional(value, name)
    elif kind == "map_type":
        proto = numpy_helper.from_dict(value, name)
    elif isinstance(value, TensorProto):
        proto = value
    else:
        proto = numpy_helper.from_array(value, name)
    path.write_bytes(proto.SerializeToString())


def generate_node_cases(dest: Path, log=print) -> None:
    """Writes every node case of the installed onnx into dest/<name>/."""
    import numpy as np
    import onnx.backend.test.case.node as node_cases

    log(f"conformance: writing the onnx {onnx_version()} node cases "
        f"to {os.path.relpath(dest)} (once per onnx version)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".node-", dir=dest.parent))
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            cases = node_cases.collect_testcases()
        for case in cases:
            case_dir = tmp / case.name
            case_dir.mkdir()
            (case_dir / "model.onnx").write_bytes(
                case.model.SerializeToString())
            graph = case.model.graph
            for i, (inputs, outputs) in enumerate(case.data_sets):
                ds = case_dir / f"test_data_set_{i}"
                ds.mkdir()
                for j, value in enumerate(inputs):
                    vi = graph.input[j] if j < len(graph.input) else None
                    _write_value(ds / f"input_{j}.pb", value,
                                 vi.type if vi else None,
                                 vi.name if vi else "")
                for j, value in enumerate(outputs):
                    vi = graph.output[j] if j < len(graph.output) else None
                    _write_value(ds / f"output_{j}.pb", value,
                                 vi.type if vi else None,
                                 vi.name if vi else "")
        if dest.exists():
            shutil.rmtree(dest)
        tmp.rename(dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def case_roots(cache_dir: Path, kinds=KINDS, log=print) -> dict[str, Path]:
    """kind -> folder of that kind's cases, generating the node cases when
    the installed onnx does not ship them."""
    shipped = onnx_data_dir()
    roots = {}
    for kind in kinds:
        root = shipped / kind
        if kind == "node" and not any(root.glob("*/model.onnx")):
            root = cache_dir / f"onnx-{onnx_version()}" / "node"
            if not any(root.glob("*/model.onnx")):
                generate_node_cases(root, log)
        roots[kind] = root
    return roots


# ------------------------------------------------------------ case metadata

@dataclass
class Case:
    name: str
    kind: str
    path: Path
    # Filled in by inspect():
    ops: list = field(default_factory=list)       # every op in the model
    top_ops: list = field(default_factory=list)   # those of the main graph
    primary_ops: list = field(default_factory=list)  # the ops it tests
    unsupported_input: str = ""  # why it cannot run at all, if it cannot
    input_names: list = field(default_factory=list)   # fed from the data
    all_input_names: list = field(default_factory=list)
    output_names: list = field(default_factory=list)
    dynamic_inputs: list = field(default_factory=list)  # not static-shaped
    # Graph inputs and outputs that are not tensors: name -> "sequence" or
    # "optional" (the harness passes them to the compiler and the runner one
    # tensor each, docs/sequences.md).
    structured: dict = field(default_factory=dict)

    @property
    def model_path(self) -> Path:
        return self.path / "model.onnx"

    def data_sets(self) -> list[Path]:
        sets = [p for p in self.path.glob("test_data_set_*") if p.is_dir()]
        return sorted(sets, key=lambda p: int(p.name.rsplit("_", 1)[1]))


def discover(roots: dict[str, Path], kinds=KINDS) -> list[Case]:
    """Every case of the given kinds, sorted by name. Names are unique
    across kinds today; a clash is reported rather than hidden."""
    cases = {}
    for kind in kinds:
        root = roots[kind]
        for model in sorted(root.glob("*/model.onnx")):
            name = model.parent.name
            if name in cases:
                raise RuntimeError(
                    f"case name {name} is in both {cases[name].kind} "
                    f"and {kind}")
            cases[name] = Case(name, kind, model.parent)
    return [cases[n] for n in sorted(cases)]


def op_label(node) -> str:
    """An op's name in reports: OpType, or domain.OpType outside ai.onnx."""
    if node.domain in ("", "ai.onnx"):
        return node.op_type
    return f"{node.domain}.{node.op_type}"


def _graph_ops(graph, out: list) -> None:
    from onnx import AttributeProto
    for node in graph.node:
        out.append(op_label(node))
        for attr in node.attribute:
            if attr.type == AttributeProto.GRAPH:
                _graph_ops(attr.g, out)
            elif attr.type == AttributeProto.GRAPHS:
                for g in attr.graphs:
                    _graph_ops(g, out)


def model_ops(model) -> list[str]:
    """The distinct ops of a model, subgraphs included, in first-use order."""
    ops = []
    _graph_ops(model.graph, ops)
    return list(dict.fromkeys(ops))


def top_level_ops(model) -> list[str]:
    """The distinct ops of the main graph only."""
    return list(dict.fromkeys(op_label(n) for n in model.graph.node))


def _type_problem(type_proto, what: str) -> str:
    """Why a graph input/output of this type cannot be fed or read, or ''.
    Sequences of tensors and optionals of those travel one tensor each."""
    from onnx import TensorProto
    kind = type_proto.WhichOneof("value")
    if kind == "optional_type":
        return _type_problem(type_proto.optional_type.elem_type, what)
    if kind == "sequence_type":
        inner = type_proto.sequence_type.elem_type
        if inner.WhichOneof("value") != "tensor_type":
            return f"{what} is a sequence of non-tensors"
        return _type_problem(inner, what)
    if kind != "tensor_type":
        kind_name = (kind or "untyped").replace("_type", "")
        article = "an" if kind_name[0] in "aeiou" else "a"
        return f"{what} is {article} {kind_name}, not a tensor"
    if what.startswith("input"):
        elem = TensorProto.DataType.Name(type_proto.tensor_type.elem_type)
        if elem not in NPY_INPUT_TYPES:
            return (f"{what} has element type {elem}, which cannot be "
                    f"passed to the runner as .npy")
    return ""


def inspect(case: Case) -> None:
    """Fills in the case's ops, its sequence and optional inputs and
    outputs, and, for a case no device could run (a map input or output, or
    an input type .npy cannot carry), the reason."""
    import onnx
    model = onnx.load(str(case.model_path), load_external_data=False)
    case.ops = model_ops(model)
    case.top_ops = top_level_ops(model)
    graph = model.graph
    initializers = {t.name for t in graph.initializer}
    case.all_input_names = [vi.name for vi in graph.input]
    case.input_names = [vi.name for vi in graph.input
                        if vi.name not in initializers]
    case.output_names = [vi.name for vi in graph.output]
    case.dynamic_inputs = [
        vi.name for vi in graph.input
        if vi.name not in initializers
        and vi.type.WhichOneof("value") == "tensor_type"
        and (not vi.type.tensor_type.HasField("shape")
             or any(not d.HasField("dim_value")
                    for d in vi.type.tensor_type.shape.dim))]
    for vi in list(graph.input) + list(graph.output):
        kind = vi.type.WhichOneof("value")
        if kind in ("sequence_type", "optional_type"):
            case.structured[vi.name] = kind.replace("_type", "")
    for vi in graph.input:
        if vi.name in initializers:
            continue
        problem = _type_problem(vi.type, f"input '{vi.name}'")
        if problem:
            case.unsupported_input = problem
            return
    for vi in graph.output:
        problem = _type_problem(vi.type, f"output '{vi.name}'")
        if problem:
            case.unsupported_input = problem
            return


def assign_primary_ops(cases: list[Case]) -> None:
    """The ops a case is about, for the per-op table. A node case tests the
    op of its main graph's node (ops inside an If/Loop/Scan body or the
    helpers around it count too only as ops it contains), or for an
    '_expanded' case (the op's function body) the op of its unexpanded twin.
    Model cases (pytorch, simple) count for every op they contain."""
    by_name = {c.name: c for c in cases}
    for c in cases:
        if c.kind != "node":
            c.primary_ops = list(c.ops)
            continue
        m = _EXPANDED_RE.match(c.name)
        twin = by_name.get(m.group("base")) if m else None
        c.primary_ops = list((twin or c).top_ops)


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def case_files_digest(case: Case) -> str:
    """Hash of the model (what the artifact depends on)."""
    return file_sha256(case.model_path)

