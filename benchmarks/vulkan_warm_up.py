"""Runs a Vulkan artifact until the driver has optimized its kernels, so
that a benchmark times them and not the driver's first compile."""
import re
import subprocess

# onnx-tosa-run --benchmark's summary line.
BENCH_RE = re.compile(r"median ([\d.]+) ms, min ([\d.]+) ms; execute median "
                      r"([\d.]+) ms, min [\d.]+ ms(?:; device median "
                      r"([\d.]+) ms)?")


def warm_up_vulkan(run_args, runs=100, most=8):
    """Runs a Vulkan artifact (`run_args`: the runner's command line) in
    processes of `runs` timed runs until its median "execute" time stops
    falling by more than 5 % (at most `most` processes); returns those
    medians. NVIDIA's Vulkan driver (H200, driver 580) first runs a kernel
    its shader cache does not hold as a quickly compiled version, up to 4x
    slower, and some seconds later as an optimized one, which it then caches
    on disk: ResNet-50 b1 took 4.6 ms in every run of the first processes,
    1.1 ms once the cache held it (benchmarks/results/
    vulkan-tilings-2026-12-04/README.md). Timing a freshly compiled model
    without this measures the driver's first compile, not the kernels."""
    medians = []
    for _ in range(most):
        p = subprocess.run([*map(str, run_args), f"--benchmark={runs}"],
                           capture_output=True, text=True)
        m = BENCH_RE.search(p.stdout)
        if p.returncode != 0 or not m:
            break
        medians.append(float(m.group(3)))
        if len(medians) > 1 and medians[-1] > 0.95 * medians[-2]:
            break
    return medians
