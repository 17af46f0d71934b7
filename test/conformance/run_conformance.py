#!/usr/bin/env python3
"""ONNX backend conformance suite for onnx-tosa.

Runs every ONNX backend test case (node, pytorch-converted, pytorch-operator,
simple) through onnx-tosa-compile and onnx-tosa-run for one target, compares
the outputs with the stored ones, checks the failures against
test/conformance/xfail-<target>.txt, writes build/conformance-<target>.json,
and optionally rewrites the xfail list and the scoreboard (docs/conformance.md).

Exit status: 0 all cases as the xfail list expects (or --update-xfail /
--scoreboard-only done); 1 unexpected failures or unexpected passes; 2 the
suite could not run.

Usually called through scripts/conformance.sh; see docs/conformance.md.
"""
from __future__ import annotations

import argparse
import concurrent.futures as futures
import datetime
import json
import os
import re
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cases as C  # noqa: E402
import harness as H  # noqa: E402
import scoreboard as S  # noqa: E402
import xfail as X  # noqa: E402

REPO = HERE.parents[1]
TARGETS = ("vulkan", "cuda")


class Fatal(Exception):
    """The suite cannot run (exit status 2)."""


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Run the ONNX backend conformance suite.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 as expected, 1 unexpected failures or "
               "passes, 2 could not run.")
    p.add_argument("--target", choices=TARGETS,
                   default=os.environ.get("ONNX_TOSA_TARGET") or "vulkan")
    p.add_argument("--device", default=os.environ.get("ONNX_TOSA_DEVICE")
                   or "auto", help="--device for onnx-tosa-run "
                   "(default: auto, the artifact backend's best device)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="cases run at once (default: number of CPUs)")
    p.add_argument("--bin-dir", type=Path,
                   default=os.environ.get("ONNX_TOSA_BIN_DIR"),
                   help="where the tools are (default: BUILD_DIR/bin)")
    p.add_argument("--build-dir", type=Path,
                   default=os.environ.get("BUILD_DIR") or "build",
                   help="build directory, relative to the repository "
                   "(default: build): cache, results, generated node cases")
    p.add_argument("-k", "--filter", action="append", default=[],
                   metavar="REGEX", help="only cases whose name matches "
                   "(re.search; repeatable: any)")
    p.add_argument("--kinds", default=",".join(C.KINDS),
                   help="comma-separated kinds of cases (default: all)")
    p.add_argument("--limit", type=int, default=0, metavar="N",
                   help="only N cases, spread evenly over the selection")
    p.add_argument("--shard", default="", metavar="I/N",
                   help="only every N-th case of the selection, from the "
                   "I-th (1..N): the suite in N parts, e.g. one device "
                   "command each; --scoreboard-only --merge-results joins "
                   "the parts' results")
    p.add_argument("--compile-timeout", type=float, default=60.0,
                   metavar="S")
    p.add_argument("--run-timeout", type=float, default=60.0, metavar="S",
                   help="per data set")
    p.add_argument("--no-cache", action="store_true",
                   help="neither use nor fill the artifact cache")
    p.add_argument("--compile-only", action="store_true",
                   help="only compile every case, filling the artifact "
                   "cache (for a device machine that cannot compile: carry "
                   "BUILD_DIR/conformance/cache/<target> there and run "
                   "with --precompiled); checks and writes no results")
    p.add_argument("--precompiled", action="store_true",
                   help="never call the compiler: take every artifact (and "
                   "compile error) from the cache that --compile-only "
                   "filled, for the most recent compiler in it; needs only "
                   "onnx-tosa-run")
    p.add_argument("--keep-work", action="store_true",
                   help="keep each case's inputs and outputs under "
                   "BUILD_DIR/conformance/work-<target>")
    p.add_argument("--xfail", type=Path,
                   help="expected-failure list (default: "
                   "test/conformance/xfail-<target>.txt)")
    p.add_argument("--update-xfail", action="store_true",
                   help="rewrite the expected-failure list from this run")
    p.add_argument("--results", type=Path,
                   help="JSON results (default: "
                   "BUILD_DIR/conformance-<target>.json)")
    p.add_argument("--scoreboard", action="store_true",
                   help="after the run, rewrite docs/conformance.md from "
                   "its results and any --merge-results")
    p.add_argument("--scoreboard-only", action="store_true",
                   help="run nothing: rewrite docs/conformance.md from "
                   "BUILD_DIR/conformance-<target>.json (if present) and "
                   "any --merge-results")
    p.add_argument("--merge-results", action="append", default=[],
                   type=Path, metavar="FILE",
                   help="results JSON of another run (e.g. the cuda one) "
                   "for the scoreboard (repeatable)")
    p.add_argument("--scoreboard-file", type=Path,
                   default=REPO / "docs" / "conformance.md")
    p.add_argument("--list", action="store_true",
                   help="print the selected cases and exit")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print every case's result")
    args = p.parse_args(argv)
    if not args.build_dir.is_absolute():
        args.build_dir = REPO / args.build_dir
    if args.bin_dir is None:
        args.bin_dir = args.build_dir / "bin"
    args.xfail = args.xfail or HERE / f"xfail-{args.target}.txt"
    args.results = args.results or (args.build_dir
                                    / f"conformance-{args.target}.json")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.precompiled and (args.no_cache or args.compile_only):
        p.error("--precompiled needs the cache and runs the cases")
    if args.compile_only and (args.no_cache or args.update_xfail
                              or args.scoreboard):
        p.error("--compile-only only fills the cache")
    return args


def log(*parts):
    print(*parts, flush=True)


def fmt_seconds(s: float) -> str:
    m, s = divmod(int(round(s)), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


# ------------------------------------------------------------- selection

def parse_kinds(args):
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = set(kinds) - set(C.KINDS)
    if unknown or not kinds:
        raise Fatal(f"conformance: unknown kinds {sorted(unknown)} "
                    f"(known: {', '.join(C.KINDS)})")
    return [k for k in C.KINDS if k in kinds]


def select(all_cases, args, kinds):
    """The cases to run, and whether that is the whole suite."""
    chosen = list(all_cases)
    if args.filter:
        regexes = [re.compile(f) for f in args.filter]
        chosen = [c for c in chosen if any(r.search(c.name) for r in regexes)]
    if args.limit and args.limit < len(chosen):
        step = len(chosen) / args.limit
        chosen = [chosen[int(i * step)] for i in range(args.limit)]
    full = len(chosen) == len(all_cases) and len(kinds) == len(C.KINDS)
    # Whether the parts of a sharded run make the whole suite together.
    args.shards_of_whole_suite = full
    if args.shard:
        index, count = parse_shard(args.shard)
        chosen = chosen[index - 1::count]
        full = False
    return chosen, full


def parse_shard(text):
    """(I, N) of --shard I/N."""
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise Fatal(f"conformance: --shard takes I/N with 1 <= I <= N, "
                    f"not '{text}'")
    return int(m.group(1)), int(m.group(2))


def join_shards(runs):
    """The runs of one target, as one: the parts of a sharded run (same
    compiler, --shard I/N for every I of one N) are joined into a full run;
    otherwise the last run given stands."""
    shards = {r.get("shard") for r in runs}
    counts = {parse_shard(x)[1] for x in shards if x}
    if (len(runs) == 1 or None in shards or len(counts) != 1
            or len({r.get("compiler_hash") for r in runs}) != 1):
        if len(runs) > 1:
            log(f"conformance: {len(runs)} results for target "
                f"{runs[-1]['target']}; the last one given is used")
        return runs[-1]
    count = counts.pop()
    joined = dict(runs[-1])
    joined["cases"] = {name: case for r in runs
                       for name, case in r["cases"].items()}
    joined["cases"] = dict(sorted(joined["cases"].items()))
    joined["wall_s"] = sum(r.get("wall_s", 0) for r in runs)
    joined["full_run"] = (
        shards == {f"{i}/{count}" for i in range(1, count + 1)}
        and all(r.get("shards_of_whole_suite") for r in runs))
    joined["shard"] = None
    joined["parts"] = len(runs)
    return joined


# ----------------------------------------------------------------- tools

def snapshot_tools(args, work_dir: Path, names):
    """Copies the tools into the run's work folder, so that a rebuild
    during the run cannot mix two compilers; returns their paths."""
    paths = []
    for name in names:
        src = args.bin_dir / name
        if not (src.is_file() and os.access(src, os.X_OK)
                and src.stat().st_size > 0):
            raise Fatal(
                f"conformance: no usable {name} in {args.bin_dir}; build it "
                f"(scripts/build.sh onnx-tosa-compile onnx-tosa-run) or "
                f"give --bin-dir")
        dst = work_dir / "bin" / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
        paths.append(dst)
    for tool in paths:
        proc = H.call([tool, "--help"], 60)
        if proc.returncode != 0:
            raise Fatal(f"{tool.name} --help failed (exit "
                        f"{proc.returncode}): {proc.stderr.strip()[:300]}")
    return paths


def precompiled_cache(target_cache: Path) -> tuple[Path, str]:
    """The cache of the most recent compiler that --compile-only stamped."""
    stamped = [d for d in target_cache.glob("*/COMPILER") if d.is_file()]
    if not stamped:
        raise Fatal(f"no precompiled artifacts under "
                    f"{os.path.relpath(target_cache)}: run --compile-only "
                    f"where the compiler is, and bring that folder here")
    latest = max(stamped, key=lambda p: p.stat().st_mtime)
    return latest.parent, latest.read_text().split()[0]


def prune_cache(target_cache: Path, keep: Path, keep_count: int = 2):
    """Keeps the cache of this compiler and of the most recent others."""
    if not target_cache.is_dir():
        return
    others = sorted((d for d in target_cache.iterdir()
                     if d.is_dir() and d != keep),
                    key=lambda d: d.stat().st_mtime, reverse=True)
    for d in others[keep_count - 1:]:
        shutil.rmtree(d, ignore_errors=True)


# ------------------------------------------------------------------- run

def run_suite(args, chosen, listed):
    work_dir = args.build_dir / "conformance" / f"work-{args.target}"
    shutil.rmtree(work_dir, ignore_errors=True)
    work_dir.mkdir(parents=True)
    target_cache = args.build_dir / "conformance" / "cache" / args.target
    cache_dir = None
    if args.precompiled:
        compiler = None
        (runner,) = snapshot_tools(args, work_dir, ["onnx-tosa-run"])
        cache_dir, compiler_hash = precompiled_cache(target_cache)
    else:
        compiler, runner = snapshot_tools(
            args, work_dir, ["onnx-tosa-compile", "onnx-tosa-run"])
        compiler_hash = C.file_sha256(compiler)
        if not args.no_cache:
            cache_dir = target_cache / compiler_hash[:16]
            cache_dir.mkdir(parents=True, exist_ok=True)
            (cache_dir / "COMPILER").write_text(compiler_hash + "\n")
            os.utime(cache_dir)
            prune_cache(target_cache, cache_dir)
    ctx = H.Context(target=args.target, device=args.device,
                    compiler=compiler, runner=runner,
                    compiler_hash=compiler_hash, cache_dir=cache_dir,
                    work_dir=work_dir / "cases",
                    compile_timeout=args.compile_timeout,
                    run_timeout=args.run_timeout, keep_work=args.keep_work,
                    compile_only=args.compile_only,
                    precompiled=args.precompiled)

    total = len(chosen)
    mode = (" (compile only)" if args.compile_only else
            " (precompiled)" if args.precompiled else "")
    log(f"conformance: {total} cases{mode}, target {args.target}, device "
        f"{args.device}, {args.jobs} jobs, compiler {compiler_hash[:12]}"
        f"{'' if cache_dir else ', no cache'}")
    results = {}
    counts = Counter()
    start = time.monotonic()
    last_report = start
    report_every = max(25, total // 20)
    check_live = (args.xfail.exists() and not args.update_xfail
                  and not args.compile_only)

    def safe_run(case):
        try:
            return H.run_case(ctx, case)
        except Exception as e:  # a harness bug must not stop the run
            return {"kind": case.kind, "ops": case.ops,
                    "primary_ops": case.primary_ops, "status": "fail",
                    "stage": "harness",
                    "error": H.one_line(f"{type(e).__name__}: {e}")}

    pool = futures.ThreadPoolExecutor(max_workers=args.jobs)
    try:
        pending = {pool.submit(safe_run, c): c for c in chosen}
        for fut in futures.as_completed(pending):
            case = pending[fut]
            res = fut.result()
            results[case.name] = res
            counts["pass" if res["status"] == "pass" else res["stage"]] += 1
            failed = res["status"] == "fail"
            unexpected = check_live and failed != (case.name in listed)
            if args.verbose or unexpected:
                what = (f"{res['stage']}: {res['error']}" if failed
                        else "pass")
                tag = "UNEXPECTED " if unexpected else ""
                log(f"  {tag}{case.name}: {what}")
            done = len(results)
            now = time.monotonic()
            if done == total or done % report_every == 0 \
                    or now - last_report > 60:
                last_report = now
                verb = "compiled" if args.compile_only else "passed"
                log(f"[{done:5d}/{total}] {fmt_seconds(now - start)}: "
                    f"{counts['pass']} {verb}, {done - counts['pass']} "
                    f"failed")
    except KeyboardInterrupt:
        log("conformance: interrupted; ending the tool calls in flight")
        pool.shutdown(wait=False, cancel_futures=True)
        H.kill_active()
        raise
    pool.shutdown(wait=True)
    wall = time.monotonic() - start
    if not args.keep_work:
        shutil.rmtree(work_dir, ignore_errors=True)
    return results, wall, compiler_hash, cache_dir


def summarize_expectations(results, listed):
    """Marks each result with how it stands against the xfail list."""
    for name, res in results.items():
        if res["status"] == "pass":
            res["expectation"] = ("unexpected-pass" if name in listed
                                  else "pass")
        else:
            res["expectation"] = ("expected-failure" if name in listed
                                  else "unexpected-failure")


def summarize(args, results, listed, wall, full):
    unexpected_fail, unexpected_pass, expected_fail = X.check(listed, results)
    summarize_expectations(results, listed)
    total = len(results)
    passed = sum(r["status"] == "pass" for r in results.values())
    stages = Counter(r["stage"] for r in results.values()
                     if r["status"] == "fail")
    log("")
    log(f"conformance ({args.target}): {total} cases in {fmt_seconds(wall)} "
        f"with {args.jobs} jobs")
    frozen = S.frozen_passes(results)
    log(f"  passed {passed} ({S._pct(passed, total)}"
        + (f"; {frozen} with frozen inputs" if frozen else "") + "), failed "
        f"{total - passed}" + (": " + ", ".join(
            f"{s} {stages[s]}" for s in H.STAGES if stages[s]) if stages
            else ""))
    log(f"  against {os.path.relpath(args.xfail)}: expected failures "
        f"{len(expected_fail)}, unexpected failures {len(unexpected_fail)}, "
        f"unexpected passes {len(unexpected_pass)}"
        + (" (the list is rewritten below)" if args.update_xfail else ""))
    tops = S.top_unsupported({"cases": results}).most_common(10)
    if tops:
        log("  most common unsupported ops: "
            + ", ".join(f"{op} {n}" for op, n in tops))
    if full:
        stale = sorted(set(listed) - set(results))
        if stale:
            log(f"  note: {len(stale)} listed cases do not exist (any more): "
                f"{', '.join(stale[:10])}{' ...' if len(stale) > 10 else ''}")
    return unexpected_fail, unexpected_pass


def write_results(args, results, wall, compiler_hash, full):
    device_names = Counter(r.get("device_name") for r in results.values()
                           if r.get("device_name"))
    doc = {
        "format": 1,
        "target": args.target,
        "device": args.device,
        "device_name": (device_names.most_common(1)[0][0]
                        if device_names else None),
        "onnx_version": C.onnx_version(),
        "compiler_hash": compiler_hash,
        "date": datetime.datetime.now(datetime.timezone.utc)
                .strftime("%Y-%m-%d %H:%M UTC"),
        "wall_s": round(wall, 1),
        "jobs": args.jobs,
        "full_run": full,
        "shard": args.shard or None,
        "shards_of_whole_suite": bool(args.shard)
                                 and args.shards_of_whole_suite,
        "cases": {name: results[name] for name in sorted(results)},
    }
    args.results.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.results.with_name(args.results.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    os.replace(tmp, args.results)
    log(f"conformance: results in {os.path.relpath(args.results)}")
    return doc


def write_scoreboard(args, runs):
    loaded = list(runs)
    for path in args.merge_results:
        try:
            loaded.append(json.loads(path.read_text()))
        except (OSError, ValueError) as e:
            raise Fatal(f"conformance: cannot read {path}: {e}")
    # Merged runs are judged by today's xfail lists: a case a run reported
    # as an unexpected pass is an ordinary pass once its line is deleted.
    for run in loaded[len(runs):]:
        listed = HERE / f"xfail-{run['target']}.txt"
        if listed.exists():
            summarize_expectations(run["cases"], X.read(listed))
    by_target = {}
    for run in loaded:
        by_target.setdefault(run["target"], []).append(run)
    loaded = [join_shards(rs) for rs in by_target.values()]
    args.scoreboard_file.parent.mkdir(parents=True, exist_ok=True)
    args.scoreboard_file.write_text(S.render(loaded))
    log(f"conformance: scoreboard in {os.path.relpath(args.scoreboard_file)}")


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.scoreboard_only:
        runs = []
        if args.results.exists():
            runs.append(json.loads(args.results.read_text()))
        if not runs and not args.merge_results:
            log(f"conformance: no results to show ({args.results} is "
                f"missing and no --merge-results given)")
            return 2
        write_scoreboard(args, runs)
        return 0

    kinds = parse_kinds(args)
    roots = C.case_roots(args.build_dir / "conformance" / "data", kinds, log)
    all_cases = C.discover(roots, kinds)
    for case in all_cases:
        C.inspect(case)
    C.assign_primary_ops(all_cases)
    chosen, full = select(all_cases, args, kinds)
    if args.list:
        for c in chosen:
            print(f"{c.name}\t{c.kind}\t{' '.join(c.primary_ops)}")
        return 0
    if not chosen:
        log("conformance: no case selected")
        return 2

    listed = X.read(args.xfail)
    if not args.xfail.exists() and not args.update_xfail:
        log(f"conformance: no {os.path.relpath(args.xfail)}: every failure "
            f"counts as unexpected (create it with --update-xfail)")
    results, wall, compiler_hash, cache_dir = run_suite(args, chosen, listed)
    if args.compile_only:
        compiled = sum(bool(r.get("compiled")) for r in results.values())
        stages = Counter(r["stage"] for r in results.values()
                         if r["status"] == "fail")
        log(f"conformance: compiled {compiled} of {len(results)} cases in "
            f"{fmt_seconds(wall)}; failed: " + (", ".join(
                f"{s} {stages[s]}" for s in H.STAGES if stages[s]) or "none"))
        log(f"conformance: artifacts in {os.path.relpath(cache_dir)}; on the "
            f"device machine run --target={args.target} --precompiled with "
            f"that folder and "
            f"{os.path.relpath(args.build_dir / 'conformance' / 'data')} (the "
            f"cases' expected outputs, as written here) at the same place")
        return 0
    unexpected_fail, unexpected_pass = summarize(args, results, listed, wall,
                                                 full)

    rc = 0
    if args.update_xfail:
        new = X.updated(listed, results,
                        {c.name for c in all_cases} if full else None)
        X.write(args.xfail, args.target, new)
        added = sorted(set(new) - set(listed))
        removed = sorted(set(listed) - set(new))
        log(f"conformance: wrote {os.path.relpath(args.xfail)}: {len(new)} "
            f"cases, {len(added)} added, {len(removed)} removed")
        # The results describe the run against the list just written.
        summarize_expectations(results, new)
    else:
        if unexpected_fail:
            log(f"\nUNEXPECTED FAILURES ({len(unexpected_fail)}): fix them, "
                f"or (deliberately) list them in "
                f"{os.path.relpath(args.xfail)}")
            for name in unexpected_fail:
                r = results[name]
                log(f"  {name}  # {r['stage']}: {r['error']}")
        if unexpected_pass:
            log(f"\nUNEXPECTED PASSES ({len(unexpected_pass)}): remove them "
                f"from {os.path.relpath(args.xfail)}")
            for name in unexpected_pass:
                log(f"  {name}")
        rc = 1 if unexpected_fail or unexpected_pass else 0
    doc = write_results(args, results, wall, compiler_hash, full)
    if args.scoreboard:
        write_scoreboard(args, [doc])
    log(f"conformance: {'OK' if rc == 0 else 'FAILED'}")
    return rc


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Fatal as e:
        print(f"conformance: {e}" if not str(e).startswith("conformance:")
              else str(e), file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception:  # a bug of the harness: not a verdict on the compiler
        import traceback
        traceback.print_exc()
        sys.exit(2)
