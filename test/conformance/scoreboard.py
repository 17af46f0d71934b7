"""Renders docs/conformance.md from the JSON results of one or more runs
(one per target: the lavapipe run here, the cuda run from a GPU machine)."""
from __future__ import annotations

import re
from collections import Counter, defaultdict

from harness import STAGES

UNSUPPORTED_RE = re.compile(
    r"\((?P<op>[A-Za-z0-9_]+), domain '(?P<domain>[^']*)', "
    r"opset (?P<opset>\d+)\): unsupported op(?P<more> \(.*)?$")

USAGE = """\
The ONNX backend test cases that ship with the `onnx` Python package (node,
pytorch-converted, pytorch-operator and simple; the node cases are written
out from the package's own seeded generators when the wheel does not carry
them) are this project's main measure of correctness. Each case is
imported, legalized, compiled for a target, run on a device, and every
output is compared with the stored one: integers and bools exactly, floats
with ONNX's usual `rtol=1e-3, atol=1e-7` (NaNs in the same places;
bfloat16 outputs with `rtol=2**-6`, two bfloat16 steps, as ONNX's own
backend test runner compares them). Per-case
tolerances, each with its reason, live in `TOLERANCES` in
`test/conformance/harness.py` (none today).

```sh
scripts/conformance.sh                        # vulkan (lavapipe without a GPU); checks the xfail list
scripts/conformance.sh -k 'test_(add|relu)'   # a subset (regex on case names)
scripts/conformance.sh --limit=50             # 50 cases spread over the suite
scripts/conformance.sh --update-xfail         # rewrite xfail-<target>.txt from this run
scripts/conformance.sh --scoreboard           # run, then rewrite this page
scripts/conformance.sh --scoreboard-only --merge-results=conformance-cuda.json
                                              # rewrite this page from saved results
scripts/conformance.sh --help                 # every option
```

It builds the two tools first (`--no-build` skips that), runs the cases in
parallel (`-j`, default: the number of CPUs), each tool call in its own
process group with a time limit (`--compile-timeout`, `--run-timeout`, 60 s
each), and caches artifacts and compile errors under
`build/conformance/cache/` keyed by the model's hash, the compiler binary's
hash and the target (a rebuilt compiler misses the cache; `--no-cache`
ignores it). A run writes `build/conformance-<target>.json`; `--scoreboard`
merges the results of this run with any `--merge-results=FILE` (such as the
cuda run's JSON brought back from a GPU machine) into this page.

Exit status: 0 when every case behaved as `test/conformance/xfail-<target>.txt`
expects (listed cases fail, all others pass); 1 when a case not on the list
failed or a listed case passed (both are printed); 2 when the suite could not
run (tools missing, bad options). `--update-xfail` rewrites the list (cases
that failed, with `# stage: first error line`; for a subset only the cases of
the subset change) and exits 0.

CUDA on a GPU machine that cannot compile (no LLVM/MLIR there): compile
here, run there, with the same onnx version on both sides, and bring this
machine's node cases along (`build/conformance/data`, 56 MB, 3.3 MB as
`tar | xz`). The node cases' expected outputs are computed when they are
written out, by the installed onnx with numpy and ml_dtypes, and where the
ONNX spec leaves a result undefined those differ between machines: a float
outside the range of INT4/UINT4/INT2/UINT2 becomes 0 with ml_dtypes 0.7.0
and numpy 2.3.5 (here) and wraps around with ml_dtypes 0.6.0 and numpy
2.5.2 (the H200 machine of 2026-12-04: -9 to INT4 is 7). The 24 Cast and
CastLike cases to those types failed there for that reason alone, each
reporting our 0 against a wrapped value, while the cases were generated
there; with this machine's cases carried along they pass (the run below),
and both targets fail the same 85 cases.

```sh
scripts/conformance.sh --target=cuda --compile-only   # here: fills build/conformance/cache/cuda/
# there, with build/conformance/cache/cuda, build/conformance/data and
# build/bin/onnx-tosa-run brought along:
scripts/conformance.sh --no-build --target=cuda --precompiled [--update-xfail]
# back here, with build/conformance-cuda.json brought back:
scripts/conformance.sh --scoreboard-only --merge-results=conformance-cuda.json
```

Where one command may not take the whole run (the H200's took 8m51s with
24 jobs, a median 6.5 s per case there against 0.1 s on lavapipe here, not
yet explained), `--shard I/N` runs
every N-th case from the I-th, one part per command, each written to its
own `--results` file; `--scoreboard-only` with every part as a
`--merge-results` joins them into one run (same compiler, all N parts).

Failure stages: `import`, `legalization`, `lowering`, `codegen`, `artifact`
are the compiler's own (`onnx-tosa-compile: error: <stage>: ...`); cases with
sequence, optional or map inputs or outputs, or inputs of a type `.npy`
cannot carry (string, float8, int4, ...), are `import` failures marked
`unsupported-input` and are not compiled; `runtime` is a failed
`onnx-tosa-run`; `mismatch` is a wrong value, shape or dtype; `timeout` and
`crash` (killed by a signal or an internal-error report) are either tool's;
`harness` would be a fault of the harness itself.

Frozen inputs: when the compiler reports that a value TOSA needs at compile
time (axes, pads, scales, sizes, ...) comes from a graph input, the runner
compiles the case again with `--freeze-input NAME=FILE.npy`, freezing that
input to its value in the data set, as a user of such a model would. The
artifact is then specialized to that value and the runtime rejects any
other, so the case still checks the whole model; those passes are counted
in the "with frozen inputs" column.

The nine "real" model cases of the onnx package (AlexNet, DenseNet-121,
Inception v1 and v2, ResNet-50, ShuffleNet, SqueezeNet, VGG-19,
ZFNet-512, as weightless "light" models) are not in these counts: onnx's
runner makes their inputs and stores their outputs apart from the data
sets this runner reads. `test/e2e/test_real_models.py` runs them against
those outputs in CI: 9 of 9 pass on lavapipe (AlexNet, ZFNet-512 and
VGG-19 since their fully connected weights are split under Vulkan's
128 MiB buffer range).
"""


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.1f}%" if d else "-"


def frozen_passes(cases: dict) -> int:
    """Passing cases that needed --freeze-input."""
    return sum(r["status"] == "pass" and bool(r.get("frozen_inputs"))
               for r in cases.values())


def _expectation_counts(run: dict) -> Counter:
    return Counter(r.get("expectation", "") for r in run["cases"].values())


def unsupported_op(error: str) -> str | None:
    m = UNSUPPORTED_RE.search(error or "")
    if not m:
        return None
    domain = m.group("domain")
    op = m.group("op")
    if domain not in ("", "ai.onnx"):
        op = f"{domain}.{op}"
    if m.group("more"):  # e.g. "(supported from opset 7 on)"
        op += f" (opset {m.group('opset')})"
    return op


def error_pattern(stage: str, error: str) -> str:
    """An error with its node, op, names and numbers taken out, to group
    cases that fail for the same reason."""
    text = re.sub(r"^node '[^']*'(?: \([^)]*\))?: ", "", error or "")
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r"element type (?!is\b)[A-Za-z0-9_]+", "element type …",
                  text)
    text = re.sub(r"\b\d+(?:\.\d+)?\b", "N", text)
    return f"{stage}: {text}"


def _op_sort_key(op: str):
    return ("." in op.split(" ")[0], op.lower())


def top_unsupported(run: dict) -> Counter:
    counts = Counter()
    for r in run["cases"].values():
        if r["status"] == "fail" and r.get("stage") == "legalization":
            op = unsupported_op(r.get("error", ""))
            if op:
                counts[op] += 1
    return counts


def _cell(results: list[dict]) -> str:
    if not results:
        return ""
    passed = sum(r["status"] == "pass" for r in results)
    total = len(results)
    if passed == total:
        return f"pass {passed}/{total}"
    stages = Counter(r.get("stage") for r in results if r["status"] == "fail")
    stage, n = stages.most_common(1)[0]
    more = f", +{len(stages) - 1} more" if len(stages) > 1 else ""
    return f"{passed}/{total} ({stage} {n}{more})"


def render(runs: list[dict]) -> str:
    """The whole page for these runs (at most one per target)."""
    by_target = {}
    for run in runs:
        by_target[run["target"]] = run
    order = sorted(by_target, key=lambda t: (t != "vulkan", t))
    out = ["# ONNX conformance scoreboard\n\n",
           "<!-- Generated by scripts/conformance.sh --scoreboard from "
           "test/conformance/scoreboard.py; do not edit by hand. -->\n\n",
           "## Usage\n\n", USAGE, "\n"]

    # ------------------------------------------------------------ totals
    out.append("## Totals\n\n")
    if not order:
        out.append("No results yet.\n")
        return "".join(out)
    out.append("| target | device | cases | passed | of which with frozen "
               "inputs | failed | of which expected (xfail list) | "
               "unexpected failures | unexpected passes | passing |\n")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    for t in order:
        run = by_target[t]
        cases = run["cases"]
        total = len(cases)
        passed = sum(r["status"] == "pass" for r in cases.values())
        frozen = frozen_passes(cases)
        exp = _expectation_counts(run)
        out.append(
            f"| {t} | {run.get('device_name') or run.get('device', '')} | "
            f"{total} | {passed} | {frozen} | {total - passed} | "
            f"{exp['expected-failure']} | {exp['unexpected-failure']} | "
            f"{exp['unexpected-pass']} | {_pct(passed, total)} |\n")
    out.append("\n")
    for t in order:
        run = by_target[t]
        subset = "" if run.get("full_run", True) else " (a subset of the cases)"
        out.append(
            f"- {t}: run {run.get('date', '?')}, onnx {run.get('onnx_version', '?')}, "
            f"compiler `{run.get('compiler_hash', '')[:12]}`, "
            f"{run.get('wall_s', 0):.0f} s wall with {run.get('jobs', '?')} "
            f"jobs"
            + (f" (in {run['parts']} parts: --shard)" if run.get("parts")
               else "") + f"{subset}\n")
    out.append("\n")

    # ----------------------------------------------------------- by kind
    out.append("### By kind of case\n\n")
    out.append("| kind | " + " | ".join(order) + " |\n")
    out.append("|---|" + "---:|" * len(order) + "\n")
    kinds = sorted({r["kind"] for run in by_target.values()
                    for r in run["cases"].values()})
    for kind in kinds:
        cells = []
        for t in order:
            rs = [r for r in by_target[t]["cases"].values()
                  if r["kind"] == kind]
            passed = sum(r["status"] == "pass" for r in rs)
            cells.append(f"{passed}/{len(rs)}")
        out.append(f"| {kind} | " + " | ".join(cells) + " |\n")
    out.append("\n")

    # ---------------------------------------------------------- by stage
    out.append("## Failures by stage\n\n")
    out.append("| stage | " + " | ".join(order) + " |\n")
    out.append("|---|" + "---:|" * len(order) + "\n")
    stage_counts = {t: Counter(r.get("stage") for r in by_target[t]["cases"]
                               .values() if r["status"] == "fail")
                    for t in order}
    unsupported_inputs = {
        t: sum(1 for r in by_target[t]["cases"].values()
               if r["status"] == "fail"
               and r.get("error", "").startswith("unsupported-input"))
        for t in order}
    for stage in STAGES:
        if not any(stage_counts[t][stage] for t in order):
            continue
        cells = [str(stage_counts[t][stage]) for t in order]
        out.append(f"| {stage} | " + " | ".join(cells) + " |\n")
        if stage == "import" and any(unsupported_inputs.values()):
            cells = [str(unsupported_inputs[t]) for t in order]
            out.append("| &nbsp;&nbsp;of which unsupported-input | "
                       + " | ".join(cells) + " |\n")
    out.append("\n")

    # ---------------------------------------------------- common errors
    out.append("## Most common failure reasons\n\n")
    out.append("First errors with the node, op, quoted names and numbers "
               "taken out, by the cases they stop (the 25 most common).\n\n")
    patterns = {t: Counter(error_pattern(r.get("stage"), r.get("error"))
                           for r in by_target[t]["cases"].values()
                           if r["status"] == "fail")
                for t in order}
    merged_patterns = Counter()
    for c in patterns.values():
        merged_patterns.update(c)
    out.append("| stage: error | " + " | ".join(order) + " |\n")
    out.append("|---|" + "---:|" * len(order) + "\n")
    for pat, _ in sorted(merged_patterns.items(),
                         key=lambda kv: (-kv[1], kv[0]))[:25]:
        cells = [str(patterns[t][pat]) if patterns[t][pat] else ""
                 for t in order]
        pat = pat.replace("|", "\\|")
        out.append(f"| {pat} | " + " | ".join(cells) + " |\n")
    out.append("\n")

    # --------------------------------------------------- unsupported ops
    out.append("## Unsupported ops, by cases they block\n\n")
    out.append("Cases whose first error is `legalization: ... unsupported "
               "op` (the compiler reports the first such op of a model).\n\n")
    tops = {t: top_unsupported(by_target[t]) for t in order}
    merged = Counter()
    for c in tops.values():
        merged.update(c)
    out.append("| op | " + " | ".join(order) + " |\n")
    out.append("|---|" + "---:|" * len(order) + "\n")
    for op, _ in sorted(merged.items(),
                        key=lambda kv: (-kv[1], _op_sort_key(kv[0]))):
        cells = [str(tops[t][op]) if tops[t][op] else "" for t in order]
        out.append(f"| {op} | " + " | ".join(cells) + " |\n")
    out.append("\n")

    # ------------------------------------------------------------ per op
    out.append("## Per op\n\n")
    out.append(
        "For each op: the cases about it (a node case is about the op of its "
        "main graph, and its `_expanded` variants about the same op; a "
        "pytorch or simple model case counts for every op it contains), and "
        "per target how many pass, with the most common failure stage.\n\n")
    per_op = defaultdict(lambda: defaultdict(list))
    node_cases = defaultdict(set)
    model_cases = defaultdict(set)
    for t in order:
        for name, r in by_target[t]["cases"].items():
            for op in r.get("primary_ops") or r.get("ops") or ["(none)"]:
                per_op[op][t].append(r)
                (node_cases if r["kind"] == "node" else model_cases)[op] \
                    .add(name)
    out.append("| op | node cases | model cases | " + " | ".join(order)
               + " |\n")
    out.append("|---|---:|---:|" + "---|" * len(order) + "\n")
    for op in sorted(per_op, key=_op_sort_key):
        cells = [_cell(per_op[op].get(t, [])) for t in order]
        out.append(f"| {op} | {len(node_cases[op])} | "
                   f"{len(model_cases[op])} | " + " | ".join(cells) + " |\n")
    return "".join(out)
