"""Expected-failure lists: test/conformance/xfail-<target>.txt.

One case name per line, sorted, optionally followed by '# stage: first error
line' (information for readers; only the name counts). Lines that start with
'#' and blank lines are ignored.
"""
from __future__ import annotations

from pathlib import Path

HEADER = """\
# Expected failures of the ONNX backend conformance suite, target {target}.
# One case per line, sorted; the '# stage: error' comments are only for
# readers. CI fails when a case that is not listed fails and when a listed
# case passes, so this list only shrinks: when your change makes a case
# pass, delete its line. Rewrite it from a full run only deliberately
# (docs/conformance.md says how, for a GPU machine too):
#   scripts/conformance.sh --target={target} --update-xfail
"""


def read(path: Path) -> dict[str, str]:
    """name -> comment ('' if none) of every listed case."""
    entries = {}
    if not path.exists():
        return entries
    for line in path.read_text().splitlines():
        body, _, comment = line.partition("#")
        name = body.strip()
        if name:
            entries[name] = comment.strip()
    return entries


def comment_for(result: dict) -> str:
    return f"{result['stage']}: {result['error']}"


def write(path: Path, target: str, entries: dict[str, str]) -> None:
    lines = [HEADER.format(target=target)]
    for name in sorted(entries):
        comment = entries[name].replace("\n", " ")
        lines.append(f"{name}  # {comment}\n" if comment else f"{name}\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines))


def updated(old: dict[str, str], results: dict[str, dict],
            all_case_names: set[str] | None) -> dict[str, str]:
    """The list after a run: every failed case of the run (with its current
    error), no case of the run that passed, and the old entries of cases
    the run did not cover. With `all_case_names` (a run of every case), old
    entries naming no existing case are dropped."""
    new = {name: comment for name, comment in old.items()
           if name not in results
           and (all_case_names is None or name in all_case_names)}
    for name, res in results.items():
        if res["status"] == "fail":
            new[name] = comment_for(res)
    return new


def check(listed: dict[str, str], results: dict[str, dict]):
    """(unexpected failures, unexpected passes, expected failures): names,
    sorted, among the cases of this run."""
    unexpected_fail, unexpected_pass, expected_fail = [], [], []
    for name in sorted(results):
        failed = results[name]["status"] == "fail"
        if failed and name in listed:
            expected_fail.append(name)
        elif failed:
            unexpected_fail.append(name)
        elif name in listed:
            unexpected_pass.append(name)
    return unexpected_fail, unexpected_pass, expected_fail
