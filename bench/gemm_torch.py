"""PyTorch and NumPy peer of bench/gemm.ts: the same single-precision GEMMs, timed in the same run.

Started as
    python3 bench/gemm_torch.py <threads>
with OMP_NUM_THREADS / MKL_NUM_THREADS / OPENBLAS_NUM_THREADS set to <threads> before NumPy and PyTorch load (NumPy's
BLAS reads them once, at import); torch.set_num_threads(<threads>) as well. It answers one JSON line per stdin line:
    {"cmd": "run", "lib": "torch"|"numpy", "m": M, "k": K, "n": N, "ta": 0|1, "tb": 0|1, "reps": R, "max_ms": T}
        -> {"ms": wall ms per product, "cpu_ms": process CPU ms per product, "minor_faults": minor page faults per
           product, "reps": products done} (the R products timed as one batch — fewer, but at least 3, when they
           pass T ms, so that a peer slowed down by contention cannot stall the bench —, so
           that a product of a few microseconds is not lost in the timer's own cost)
    {"cmd": "quit"} -> exits
C[M, N] = op(A) · op(B), where op(A) = A [M, K] (ta 0) or the transpose of a stored [K, M] (ta 1), and op(B) = B [K, N]
(tb 0) or the transpose of a stored [N, K] (tb 1): torch.mm and NumPy's matmul on transposed views, which both hand
the transposition to the BLAS call as a flag (no copy), as ONNX Gemm's transA / transB do in ONNX Runtime.
The first line it prints is {"ready": true, ...}: versions, thread counts, BLAS names and the CPU capability PyTorch
dispatches to.
"""
import json
import os
import resource
import sys
import time

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1
for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[var] = str(THREADS)

import numpy as np  # noqa: E402  (after the thread variables)
import torch  # noqa: E402

torch.set_num_threads(THREADS)


def numpy_blas():
    """The BLAS NumPy was built against (NumPy ≥ 1.26 has show_config(mode='dicts'))."""
    try:
        info = np.show_config(mode="dicts")
        blas = info.get("Build Dependencies", {}).get("blas", {})
        return {"name": blas.get("name"), "version": blas.get("version")}
    except Exception as e:  # older NumPy
        return {"error": str(e)[:200]}


def torch_blas():
    """BLAS / LAPACK / oneDNN lines of torch.__config__.show()."""
    lines = torch.__config__.show().splitlines()
    keep = [line.strip() for line in lines if any(w in line for w in ("BLAS_INFO", "LAPACK_INFO", "MKL", "oneDNN", "CPU capability", "USE_MKLDNN"))]
    return [line[:200] for line in keep][:8]


def cpu_capability():
    try:
        return torch.backends.cpu.get_cpu_capability()
    except Exception as e:  # PyTorch < 2.1
        return f"unavailable ({type(e).__name__})"


cases = {}


def operands(lib, m, k, n, ta, tb):
    key = (lib, m, k, n, ta, tb)
    if key not in cases:
        g = torch.Generator().manual_seed(0)
        a = torch.randn((k, m) if ta else (m, k), generator=g)
        b = torch.randn((n, k) if tb else (k, n), generator=g)
        if lib == "numpy":
            a, b = a.numpy(), b.numpy()
            cases[key] = (a.T if ta else a, b.T if tb else b)
        else:
            cases[key] = (a.t() if ta else a, b.t() if tb else b)
    return cases[key]


def run(req):
    lib = req["lib"]
    a, b = operands(lib, req["m"], req["k"], req["n"], req["ta"], req["tb"])
    mm = np.matmul if lib == "numpy" else torch.mm
    reps, max_s = req["reps"], req.get("max_ms", float("inf")) / 1000
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    c0 = time.process_time()
    t0 = time.perf_counter()
    done = 0
    while done < reps and (done < 3 or time.perf_counter() - t0 < max_s):
        mm(a, b)
        done += 1
    ms = (time.perf_counter() - t0) * 1000 / done
    cpu = (time.process_time() - c0) * 1000 / done
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0) / done
    return {"ms": ms, "cpu_ms": cpu, "minor_faults": faults, "reps": done}


def main():
    ready = {
        "ready": True,
        "threads": THREADS,
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "torch_cpu_capability": cpu_capability(),
        "torch_config": torch_blas(),
        "numpy": np.__version__,
        "numpy_blas": numpy_blas(),
    }
    print(json.dumps(ready), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("cmd") == "quit":
            break
        print(json.dumps(run(req)), flush=True)


if __name__ == "__main__":
    main()
