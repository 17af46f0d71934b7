#!/usr/bin/env python3
"""onnx-tosa against PyTorch, on one GPU machine, in one run.

For each model configuration it builds the model with the installed PyTorch
(random weights, fixed seed), exports it to ONNX, compiles it with
onnx-tosa-compile for CUDA and for Vulkan, runs it with onnx-tosa-run, checks
our outputs against PyTorch's fp32 outputs, and times PyTorch eager fp32,
eager fp16, torch.compile fp16 and torch.compile fp16 with CUDA graphs
(mode="reduce-overhead") on the same inputs. Then micro-benchmarks:
elementwise add against the device-to-device copy rate, GEMM 4096^3 and a
3x3 convolution. It prints a table and writes JSON.

This is a benchmark, not a test: it asserts nothing about speed.

    python3 benchmarks/torch_comparison.py --compiler BIN --runner BIN \
        --out DIR [--models resnet50_b1,bert_b8] [--micro] [--no-vulkan] \
        [--precision fp16]

--precision fp16 (or bf16) also compiles each model for CUDA with
onnx-tosa-compile --precision=fp16 (weights and computation in fp16, f32
accumulation, f32 inputs and outputs) and reports it as "cuda_fp16", the
figure to set beside torch's fp16 ones; its error is against the same fp32
reference, so expect about 1e-3 rather than 1e-6.

Latencies are medians. PyTorch is timed with CUDA events around the model
call with inputs already on the device. Ours is reported twice: "execute"
(the kernels: one CUDA graph launch or one Vulkan submit, and the wait, by
the host's clock; inputs already uploaded) is the figure comparable to
PyTorch's, "total" adds the host<->device copies of inputs and outputs.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vulkan_warm_up import BENCH_RE, warm_up_vulkan

MODELS = {
    # name: (builder, batch)
    "resnet50_b1": ("resnet50", 1),
    "resnet50_b32": ("resnet50", 32),
    "mobilenetv2_b1": ("mobilenet_v2", 1),
    "bert_b1": ("bert", 1),
    "bert_b8": ("bert", 8),
}
SEQ = 128


# ---------------------------------------------------------------------------
# Models


class BertLayer(nn.Module):
    """One BERT-base encoder layer (post-norm, GELU), written out with
    static shapes so the exported graph has no shape arithmetic."""

    def __init__(self, hidden=768, heads=12, ffn=3072):
        super().__init__()
        self.heads, self.dim = heads, hidden // heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)
        self.norm1 = nn.LayerNorm(hidden, eps=1e-12)
        self.up = nn.Linear(hidden, ffn)
        self.down = nn.Linear(ffn, hidden)
        self.norm2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x, bias, batch):
        q, k, v = self.qkv(x).split(self.heads * self.dim, dim=-1)

        def heads(t):
            return t.reshape(batch, SEQ, self.heads, self.dim).transpose(1, 2)

        scores = heads(q) @ heads(k).transpose(-1, -2) / math.sqrt(self.dim)
        ctx = torch.softmax(scores + bias, dim=-1) @ heads(v)
        ctx = ctx.transpose(1, 2).reshape(batch, SEQ, self.heads * self.dim)
        x = self.norm1(x + self.out(ctx))
        return self.norm2(x + self.down(nn.functional.gelu(self.up(x))))


class BertBase(nn.Module):
    """BERT-base encoder: 12 layers, hidden 768, 12 heads, vocabulary
    30522; returns the last hidden state."""

    def __init__(self, batch, layers=12, hidden=768, vocab=30522):
        super().__init__()
        self.batch = batch
        self.words = nn.Embedding(vocab, hidden)
        self.positions = nn.Embedding(512, hidden)
        self.types = nn.Embedding(2, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(BertLayer(hidden) for _ in range(layers))
        self.register_buffer("position_ids", torch.arange(SEQ)[None, :],
                             persistent=False)
        self.register_buffer("type_ids", torch.zeros(1, SEQ, dtype=torch.long),
                             persistent=False)

    def forward(self, input_ids, attention_mask):
        x = (self.words(input_ids) + self.positions(self.position_ids) +
             self.types(self.type_ids))
        x = self.norm(x)
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias, self.batch)
        return x


def build(kind, batch):
    """(model in eval mode on the CPU, fp32; inputs; input names)."""
    torch.manual_seed(0)
    if kind == "bert":
        model = BertBase(batch)
        gen = torch.Generator().manual_seed(1)
        ids = torch.randint(0, 30522, (batch, SEQ), generator=gen)
        mask = torch.ones(batch, SEQ, dtype=torch.long)
        mask[:, SEQ - 16:] = 0  # some padding, so the mask matters
        return model.eval(), (ids, mask), ["input_ids", "attention_mask"]
    import torchvision
    model = getattr(torchvision.models, kind)(weights=None)
    x = torch.randn(batch, 3, 224, 224, generator=torch.Generator()
                    .manual_seed(1))
    return model.eval(), (x,), ["input"]


def export(model, inputs, names, path):
    """ONNX at opset 17; the TorchScript exporter first (plain static
    graphs), the dynamo exporter if that one is gone."""
    kwargs = dict(input_names=names, output_names=["output"],
                  opset_version=17, do_constant_folding=True)
    try:
        torch.onnx.export(model, inputs, str(path), dynamo=False, **kwargs)
        return "torchscript"
    except Exception as e:  # noqa: BLE001 - any exporter failure
        print(f"  torchscript export failed ({e}); trying dynamo", flush=True)
        torch.onnx.export(model, inputs, str(path), dynamo=True,
                          external_data=False, **kwargs)
        return "dynamo"


# ---------------------------------------------------------------------------
# Timing


def cuda_median_ms(fn, min_seconds=1.0, max_iters=500, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    deadline = time.monotonic() + min_seconds
    while len(times) < max_iters and (len(times) < 10 or
                                      time.monotonic() < deadline):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def torch_timings(model, inputs, skip_compile):
    """Median ms for each PyTorch configuration the issue names."""
    dev = torch.device("cuda")
    res = {}
    m32 = model.to(dev)
    x32 = [t.to(dev) for t in inputs]
    with torch.inference_mode():
        res["eager_fp32"] = cuda_median_ms(lambda: m32(*x32))
        m16 = m32.half()
        x16 = [t.half() if t.is_floating_point() else t for t in x32]
        res["eager_fp16"] = cuda_median_ms(lambda: m16(*x16))
        if not skip_compile:
            for mode, key in ((None, "compile_fp16"),
                              ("reduce-overhead", "compile_fp16_graphs")):
                try:
                    torch._dynamo.reset()
                    c = torch.compile(m16, mode=mode) if mode else \
                        torch.compile(m16)
                    res[key] = cuda_median_ms(lambda: c(*x16), warmup=10)
                except Exception as e:  # noqa: BLE001
                    print(f"  torch.compile {mode or 'default'} failed: {e}",
                          flush=True)
                    res[key] = None
    model.float().cpu()
    return res


# ---------------------------------------------------------------------------
# onnx-tosa


def run_tool(args, timeout=600):
    start = time.monotonic()
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                       timeout=timeout)
    return p, time.monotonic() - start


def ours(compiler, runner, onnx_path, target, inputs, names, work,
         extra_compile=(), tag=None, profile_dir=None):
    """Compile, run once for the outputs, then benchmark. Returns a dict
    with compile seconds, the output array and latencies, or the error.
    `tag` (default: the target) names the files of this configuration;
    with `profile_dir`, the per-kernel profile goes there as a text file."""
    tag = tag or target
    art = work / f"{onnx_path.stem}.{tag}.otsa"
    p, secs = run_tool([compiler, onnx_path, f"--target={target}", "-o", art,
                        *extra_compile])
    if p.returncode != 0:
        return {"error": "compile: " + (p.stderr.strip().splitlines() or
                                        ["?"])[-1][:300]}
    out = {"compile_s": round(secs, 1)}
    in_args = []
    for name, t in zip(names, inputs):
        f = work / f"{onnx_path.stem}.{name}.npy"
        np.save(f, t.numpy() if isinstance(t, torch.Tensor) else t)
        in_args += ["--input", f"{name}={f}"]
    device = "cuda" if target == "cuda" else "vulkan"
    odir = work / f"{onnx_path.stem}.{tag}.out"
    p, secs = run_tool([runner, art, f"--device={device}", *in_args,
                        f"--output-dir={odir}", "--quiet"])
    if p.returncode != 0:
        return {**out, "error": "run: " + p.stderr.strip()[:300]}
    outputs = sorted(odir.glob("*.npy"))
    out["output"] = np.load(outputs[0]) if outputs else None
    if device == "vulkan":
        out["warm_up_ms"] = warm_up_vulkan(
            [runner, art, f"--device={device}", *in_args,
             f"--output-dir={odir}", "--quiet"])
    # As many runs as fit in about 2 s (at least 5, at most 200).
    runs = max(5, min(200, int(2.0 / max(secs, 1e-3))))
    p, _ = run_tool([runner, art, f"--device={device}", *in_args,
                     f"--output-dir={odir}", "--quiet",
                     f"--benchmark={runs}"])
    m = BENCH_RE.search(p.stdout)
    if p.returncode != 0 or not m:
        return {**out, "error": "benchmark: " + (p.stderr or p.stdout)[:300]}
    out.update(total_ms=float(m.group(1)), execute_ms=float(m.group(3)),
               runs=runs)
    if m.group(4):  # the kernels by the device's timer (events, timestamps)
        out["device_ms"] = float(m.group(4))
    if profile_dir:
        # Each kernel timed alone: where the time of this configuration goes.
        p, _ = run_tool([runner, art, f"--device={device}", *in_args,
                         f"--output-dir={odir}", "--quiet", "--profile=10",
                         "--profile-rows=0"])
        (profile_dir / f"{onnx_path.stem}.{tag}.txt").write_text(
            p.stdout + p.stderr)
    return out


def compare(ours_out, ref):
    """max |ours - ref| / max |ref| (a scale-free error for random
    weights)."""
    if ours_out is None:
        return None
    if ours_out.shape != ref.shape:
        return float("inf")
    return float(np.max(np.abs(ours_out.astype(np.float64) - ref)) /
                 max(np.max(np.abs(ref)), 1e-30))


# ---------------------------------------------------------------------------
# Micro-benchmarks


def micro(compiler, runner, work, targets):
    from onnx import TensorProto, helper
    import onnx
    res = {}
    dev = torch.device("cuda")

    def model(name, nodes, inputs, outputs):
        g = helper.make_graph(nodes, name, inputs, outputs)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        m.ir_version = 8
        path = work / f"{name}.onnx"
        onnx.save(m, path)
        return path

    def vi(name, dtype, shape):
        return helper.make_tensor_value_info(name, dtype, shape)

    # Elementwise: z = x + y over 2^25 floats (128 MiB each).
    n = 1 << 25
    path = model("micro_add", [helper.make_node("Add", ["x", "y"], ["z"])],
                 [vi("x", TensorProto.FLOAT, [n]), vi("y", TensorProto.FLOAT,
                                                      [n])],
                 [vi("z", TensorProto.FLOAT, [n])])
    x = torch.rand(n, device=dev)
    y = torch.rand(n, device=dev)
    dst = torch.empty_like(x)
    copy_ms = cuda_median_ms(lambda: dst.copy_(x))
    torch_add_ms = cuda_median_ms(lambda: torch.add(x, y, out=dst))
    gb = 3 * n * 4 / 1e9
    res["elementwise"] = {
        "copy_GBps": 2 * n * 4 / 1e9 / (copy_ms / 1e3),
        "torch_add_GBps": gb / (torch_add_ms / 1e3)}
    xs = [x.cpu().numpy(), y.cpu().numpy()]
    for t in targets:
        r = ours(compiler, runner, path, t, xs, ["x", "y"], work)
        if "execute_ms" in r:
            res["elementwise"][f"ours_{t}_GBps"] = gb / (r["execute_ms"] / 1e3)
            if "device_ms" in r:
                res["elementwise"][f"ours_{t}_device_GBps"] = \
                    gb / (r["device_ms"] / 1e3)
            err = compare(r["output"], xs[0] + xs[1])
            res["elementwise"][f"ours_{t}_error"] = err
        else:
            res["elementwise"][f"ours_{t}_error"] = r.get("error")

    # GEMM 4096^3, fp32 (no TF32 on either side) and fp16.
    k = 4096
    flop = 2 * k ** 3
    res["gemm"] = {}
    for dtype, onnx_type, np_type in ((torch.float32, TensorProto.FLOAT,
                                       np.float32),
                                      (torch.float16, TensorProto.FLOAT16,
                                       np.float16)):
        tag = "fp32" if dtype == torch.float32 else "fp16"
        a = torch.randn(k, k, device=dev, dtype=dtype)
        b = torch.randn(k, k, device=dev, dtype=dtype)
        torch.backends.cuda.matmul.allow_tf32 = False
        ms = cuda_median_ms(lambda: torch.matmul(a, b))
        res["gemm"][f"torch_{tag}_TFLOPs"] = flop / (ms / 1e3) / 1e12
        path = model(f"micro_gemm_{tag}",
                     [helper.make_node("MatMul", ["a", "b"], ["c"])],
                     [vi("a", onnx_type, [k, k]), vi("b", onnx_type, [k, k])],
                     [vi("c", onnx_type, [k, k])])
        an, bn = a.cpu().numpy(), b.cpu().numpy()
        ref = (a.double() @ b.double()).cpu().numpy()
        for t in targets:
            r = ours(compiler, runner, path, t, [an, bn], ["a", "b"], work)
            if "execute_ms" in r:
                res["gemm"][f"ours_{t}_{tag}_TFLOPs"] = \
                    flop / (r["execute_ms"] / 1e3) / 1e12
                if "device_ms" in r:
                    res["gemm"][f"ours_{t}_{tag}_device_TFLOPs"] = \
                        flop / (r["device_ms"] / 1e3) / 1e12
                res["gemm"][f"ours_{t}_{tag}_error"] = compare(r["output"],
                                                               ref)
            else:
                res["gemm"][f"ours_{t}_{tag}_error"] = r.get("error")

    # 3x3 convolution, fp32: N=8, 128 -> 128 channels, 56x56, pad 1.
    shape_x, shape_w = [8, 128, 56, 56], [128, 128, 3, 3]
    flop = 2 * 8 * 128 * 56 * 56 * 128 * 9
    xc = torch.randn(*shape_x, device=dev)
    wc = torch.randn(*shape_w, device=dev) * 0.05
    torch.backends.cudnn.allow_tf32 = False
    ms = cuda_median_ms(lambda: nn.functional.conv2d(xc, wc, padding=1))
    res["conv3x3"] = {"torch_fp32_TFLOPs": flop / (ms / 1e3) / 1e12}
    path = model("micro_conv3x3",
                 [helper.make_node("Conv", ["x", "w"], ["y"],
                                   kernel_shape=[3, 3], pads=[1, 1, 1, 1])],
                 [vi("x", TensorProto.FLOAT, shape_x),
                  vi("w", TensorProto.FLOAT, shape_w)],
                 [vi("y", TensorProto.FLOAT, [8, 128, 56, 56])])
    ref = nn.functional.conv2d(xc.double(), wc.double(), padding=1)
    for t in targets:
        r = ours(compiler, runner, path, t, [xc.cpu().numpy(),
                                             wc.cpu().numpy()], ["x", "w"],
                 work)
        if "execute_ms" in r:
            res["conv3x3"][f"ours_{t}_TFLOPs"] = flop / (r["execute_ms"] /
                                                         1e3) / 1e12
            if "device_ms" in r:
                res["conv3x3"][f"ours_{t}_device_TFLOPs"] = \
                    flop / (r["device_ms"] / 1e3) / 1e12
            res["conv3x3"][f"ours_{t}_error"] = compare(r["output"],
                                                        ref.cpu().numpy())
        else:
            res["conv3x3"][f"ours_{t}_error"] = r.get("error")
    return res


# ---------------------------------------------------------------------------
# Report


def fmt(v, unit=""):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:.3g}{unit}" if v < 100 else f"{v:.0f}{unit}"


def low_precision_keys(results):
    """The "cuda_fp16" / "cuda_bf16" configurations present in the results
    (--precision), in a fixed order."""
    present = {k for r in results.get("models", {}).values() for k in r}
    return [k for k in ("cuda_fp16", "cuda_bf16") if k in present]


def report(results):
    lines = []
    low = low_precision_keys(results)
    low_heads = "".join(
        f" ours CUDA {k[5:]} execute (total) ms | ours CUDA {k[5:]} / "
        "compile+graphs |" for k in low)
    errors = ", ".join(["CUDA", "Vulkan"] + [f"CUDA {k[5:]}" for k in low])
    lines.append("| model | ours CUDA execute (total) ms | ours Vulkan "
                 "execute (total) ms |" + low_heads + " torch eager fp32 | "
                 "torch eager fp16 | torch.compile fp16 | torch.compile "
                 "fp16 + graphs | ours CUDA / eager fp32 | ours CUDA / "
                 "compile+graphs | Vulkan / CUDA | max rel. error "
                 f"({errors}) |")
    lines.append("|---|" + "---:|" * (10 + 2 * len(low)))
    for name, r in results.get("models", {}).items():
        t = r.get("torch", {})
        cu, vk = r.get("cuda", {}), r.get("vulkan", {})
        lows = [r.get(k, {}) for k in low]

        def lat(o):
            if "execute_ms" in o:
                return f"{o['execute_ms']:.3f} ({o['total_ms']:.3f})"
            return o.get("error", "-")[:60]

        def ratio(a, b):
            return f"{a / b:.2f}x" if a and b else "-"
        low_cells = "".join(
            f" {lat(o)} | "
            f"{ratio(o.get('execute_ms'), t.get('compile_fp16_graphs'))} |"
            for o in lows)
        errs = ", ".join(fmt(o.get("rel_error")) for o in [cu, vk, *lows])
        lines.append(
            f"| {name} | {lat(cu)} | {lat(vk)} |{low_cells} "
            f"{fmt(t.get('eager_fp32'))} | "
            f"{fmt(t.get('eager_fp16'))} | {fmt(t.get('compile_fp16'))} | "
            f"{fmt(t.get('compile_fp16_graphs'))} | "
            f"{ratio(cu.get('execute_ms'), t.get('eager_fp32'))} | "
            f"{ratio(cu.get('execute_ms'), t.get('compile_fp16_graphs'))} | "
            f"{ratio(vk.get('execute_ms'), cu.get('execute_ms'))} | "
            f"{errs} |")
    # The same runs by the device's timer (CUDA events around the launch,
    # which is how PyTorch's figures are taken, and Vulkan timestamps around
    # the dispatches): without the host's launch and wake-up latency that
    # "execute" includes.
    if any("device_ms" in r.get("cuda", {})
           for r in results.get("models", {}).values()):
        lines.append("")
        lines.append("| model (device-timed) | ours CUDA ms | ours CUDA / "
                     "eager fp32 | ours Vulkan ms | Vulkan / CUDA |" +
                     "".join(f" ours CUDA {k[5:]} ms | ours CUDA {k[5:]} / "
                             "compile+graphs |" for k in low))
        lines.append("|---|" + "---:|" * (4 + 2 * len(low)))
        for name, r in results.get("models", {}).items():
            t = r.get("torch", {})

            def dev(o):
                return fmt(o.get("device_ms")) if "device_ms" in o else "-"

            def ratio(a, b):
                return f"{a / b:.2f}x" if a and b else "-"
            cu, vk = r.get("cuda", {}), r.get("vulkan", {})
            graphs = t.get("compile_fp16_graphs")
            cells = "".join(
                f" {dev(r.get(k, {}))} | "
                f"{ratio(r.get(k, {}).get('device_ms'), graphs)} |"
                for k in low)
            lines.append(f"| {name} | {dev(cu)} | "
                         f"{ratio(cu.get('device_ms'), t.get('eager_fp32'))}"
                         f" | {dev(vk)} | "
                         f"{ratio(vk.get('device_ms'), cu.get('device_ms'))}"
                         f" |{cells}")
    if "micro" in results:
        lines.append("")
        lines.append("| micro-benchmark | figure |")
        lines.append("|---|---|")
        for group, vals in results["micro"].items():
            for key, v in vals.items():
                lines.append(f"| {group} | {key} = {fmt(v)} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--models", default=",".join(MODELS),
                    help="comma-separated subset of " + ", ".join(MODELS))
    ap.add_argument("--micro", action="store_true",
                    help="also run the micro-benchmarks")
    ap.add_argument("--no-vulkan", action="store_true")
    ap.add_argument("--no-torch-compile", action="store_true")
    ap.add_argument("--precision", choices=["fp16", "bf16"],
                    help="also run ours on CUDA with onnx-tosa-compile "
                    "--precision=PRECISION, reported as cuda_PRECISION")
    ap.add_argument("--profile", action="store_true",
                    help="also write each configuration's per-kernel "
                    "profile (onnx-tosa-run --profile) to OUT/profiles/")
    ap.add_argument("--merge", type=Path, action="append", default=[],
                    help="earlier results JSON to merge into the report")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    work = args.out / "work"
    work.mkdir(exist_ok=True)
    targets = ["cuda"] + ([] if args.no_vulkan else ["vulkan"])
    profile_dir = args.out / "profiles" if args.profile else None
    if profile_dir:
        profile_dir.mkdir(exist_ok=True)

    results = {"models": {}}
    for f in args.merge:
        old = json.loads(f.read_text())
        results["models"].update(old.get("models", {}))
        if "micro" in old:
            results["micro"] = old["micro"]
    env = {"device": torch.cuda.get_device_name(0),
           "torch": torch.__version__}
    results["environment"] = env
    print(f"device {env['device']}, torch {env['torch']}", flush=True)

    # Reference outputs in true fp32 (no TF32).
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    for name in [m for m in args.models.split(",") if m]:
        kind, batch = MODELS[name]
        print(f"== {name}", flush=True)
        model, inputs, names = build(kind, batch)
        path = work / f"{name}.onnx"
        r = {"exporter": export(model, inputs, names, path)}
        with torch.inference_mode():
            ref = model.cuda()(*[t.cuda() for t in inputs]).float().cpu()
        model.cpu()
        ref = ref.numpy().astype(np.float64)
        np_inputs = [t.numpy() for t in inputs]
        for t in targets:
            o = ours(args.compiler, args.runner, path, t, np_inputs, names,
                     work, profile_dir=profile_dir)
            o["rel_error"] = compare(o.pop("output", None), ref)
            r[t] = o
            print(f"  ours {t}: {o}", flush=True)
        if args.precision:
            key = f"cuda_{args.precision}"
            o = ours(args.compiler, args.runner, path, "cuda", np_inputs,
                     names, work,
                     extra_compile=[f"--precision={args.precision}"], tag=key,
                     profile_dir=profile_dir)
            o["rel_error"] = compare(o.pop("output", None), ref)
            r[key] = o
            print(f"  ours {key}: {o}", flush=True)
        r["torch"] = torch_timings(model, inputs, args.no_torch_compile)
        print(f"  torch: {r['torch']}", flush=True)
        results["models"][name] = r
        (args.out / "benchmark.json").write_text(json.dumps(results,
                                                            indent=1))
    if args.micro:
        print("== micro-benchmarks", flush=True)
        results["micro"] = micro(args.compiler, args.runner, work, targets)
    (args.out / "benchmark.json").write_text(json.dumps(results, indent=1))
    table = report(results)
    (args.out / "benchmark.md").write_text(table + "\n")
    print(table)


if __name__ == "__main__":
    sys.exit(main())
