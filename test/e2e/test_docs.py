"""The commands the README and docs/ show run verbatim: every fenced
```sh or ```python block that follows a `<!-- runnable -->` line is run
from the repository's root (after the example model is made in
out/example, as scripts/demo.sh makes it) and must succeed."""
import os
import re
import subprocess
import sys

import pytest

import e2e_support as S

DOCS = [S.REPO / "README.md", *sorted((S.REPO / "docs").glob("*.md"))]
BLOCK_RE = re.compile(r"^<!-- runnable -->\n```(sh|python)\n(.*?)^```",
                      re.M | re.S)


def runnable_blocks():
    blocks = []
    for doc in DOCS:
        for k, m in enumerate(BLOCK_RE.finditer(doc.read_text())):
            blocks.append(pytest.param(m.group(1), m.group(2),
                                       id=f"{doc.name}-{k}"))
    return blocks


BLOCKS = runnable_blocks()


def test_docs_mark_their_runnable_commands():
    """The markers are there (a doc edit that drops them would otherwise
    turn this check into nothing)."""
    assert len(BLOCKS) >= 4, [b.id for b in BLOCKS]


@pytest.fixture(scope="module")
def example(compile_tool, run_tool):
    out = S.REPO / "out" / "example"
    proc = S.call([sys.executable, S.REPO / "examples" / "make_example.py",
                   out])
    assert proc.returncode == 0, S.describe(proc)
    return out


@pytest.mark.parametrize("language, code", BLOCKS)
def test_documented_command_runs(language, code, example, tmp_path):
    env = {**os.environ, "ONNX_TOSA_CACHE_DIR": str(tmp_path / "cache"),
           "ONNX_TOSA_BIN_DIR": str(S.BIN_DIR),
           "PYTHONPATH": str(S.REPO / "python")}
    args = (["bash", "-euo", "pipefail", "-c", code] if language == "sh"
            else [sys.executable, "-c", code])
    proc = subprocess.run(args, cwd=S.REPO, env=env, capture_output=True,
                          text=True, timeout=S.TIMEOUT_S)
    assert proc.returncode == 0, (
        f"documented {language} block failed:\n{code}\n"
        f"stdout:\n{proc.stdout[-2000:]}\nstderr:\n{proc.stderr[-2000:]}")


def test_targets_table_is_the_compilers(compile_tool):
    """docs/targets.md shows the table --list-targets prints, verbatim."""
    proc = S.call([compile_tool, "--list-targets"])
    assert proc.returncode == 0, S.describe(proc)
    doc = (S.REPO / "docs" / "targets.md").read_text()
    assert proc.stdout.strip() in doc, (
        "docs/targets.md's table differs from onnx-tosa-compile "
        "--list-targets; paste its output into the doc")
