"""Which instruction set the peers' kernels use on this machine, as JSON lines (bench/device-round6.sh, section 1).

    python3 bench/device_isa.py cpuinfo   -> the FULL flags line of /proc/cpuinfo (first processor), the model name,
                                             and the flags that decide kernel dispatch (AVX2, FMA, AVX-512 F/BW/DQ/VL/
                                             VNNI/BF16, AVX-VNNI, AMX)
    python3 bench/device_isa.py torch     -> torch.backends.cpu.get_cpu_capability(), torch.__config__.show()'s
                                             BLAS / oneDNN / capability lines, and the ISA lines MKL and oneDNN print
                                             with MKL_VERBOSE=1 / ONEDNN_VERBOSE=1 (DNNL_VERBOSE=1 for older oneDNN)
                                             when PyTorch runs one SGEMM and one convolution, NumPy's BLAS
No third-party import outside the `torch` command; every line is printed as soon as it is known.
"""
import json
import os
import re
import subprocess
import sys

DISPATCH_FLAGS = ["sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd", "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8"]


def cpuinfo():
    flags, model, mhz, count = None, None, None, 0
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "processor":
                count += 1
            elif key == "flags" and flags is None:
                flags = value
            elif key == "model name" and model is None:
                model = value
            elif key == "cpu MHz" and mhz is None:
                mhz = value
    names = set((flags or "").split())
    print(json.dumps({"bench": "isa-cpuinfo", "processors": count, "model_name": model, "cpu_mhz": mhz, "dispatch_flags": {f: f in names for f in DISPATCH_FLAGS}, "flags_count": len(names), "flags": flags}), flush=True)


VERBOSE_PROBE = """
import torch
def verbosely(backend, run):  # inside torch.backends.{mkl,mkldnn}.verbose where this PyTorch allows it (env variables too)
    try:
        with backend.verbose(backend.VERBOSE_ON):
            return run()
    except Exception:
        return run()
a = torch.randn(256, 256)
verbosely(torch.backends.mkl, lambda: torch.mm(a, a))
verbosely(torch.backends.mkldnn, lambda: torch.nn.functional.conv2d(torch.randn(32, 16, 32, 32), torch.randn(16, 16, 3, 3), padding=1))
"""


def torch_isa():
    import numpy as np
    import torch

    try:
        capability = torch.backends.cpu.get_cpu_capability()
    except Exception as e:  # PyTorch < 2.1
        capability = f"unavailable ({type(e).__name__})"
    config = [line.strip()[:300] for line in torch.__config__.show().splitlines() if re.search(r"BLAS|LAPACK|MKL|oneDNN|capability|USE_MKLDNN", line)]
    print(json.dumps({"bench": "isa-torch", "torch": torch.__version__, "cpu_capability": capability, "mkldnn_available": torch.backends.mkldnn.is_available(), "mkl_available": torch.backends.mkl.is_available(), "config": config[:10]}), flush=True)
    env = {**os.environ, "MKL_VERBOSE": "1", "ONEDNN_VERBOSE": "1", "DNNL_VERBOSE": "1", "OMP_NUM_THREADS": "1"}
    r = subprocess.run([sys.executable, "-c", VERBOSE_PROBE], env=env, capture_output=True, text=True, timeout=120)
    out = (r.stdout + r.stderr).splitlines()
    isa = [line[:400] for line in out if re.search(r"^MKL_VERBOSE (oneMKL|Intel\(R\) MKL|Intel)|(onednn|dnnl)_verbose.*info.*(cpu|isa)", line)]
    calls = [line[:300] for line in out if re.search(r"^MKL_VERBOSE SGEMM|(onednn|dnnl)_verbose.*(exec|create).*conv", line)]
    print(json.dumps({"bench": "isa-torch-verbose", "status": r.returncode, "isa_lines": isa[:12], "calls": calls[:6], "lines_seen": len(out)}), flush=True)
    try:
        info = np.show_config(mode="dicts")
        simd = info.get("SIMD Extensions", {})
        blas = info.get("Build Dependencies", {}).get("blas", {})
        numpy_info = {"blas": blas.get("name"), "blas_version": blas.get("version"), "simd_found": simd.get("found"), "simd_baseline": simd.get("baseline")}
    except Exception as e:  # NumPy < 1.26
        numpy_info = {"config_unavailable": str(e)[:200]}
    print(json.dumps({"bench": "isa-numpy", "numpy": np.__version__, **numpy_info}), flush=True)


if __name__ == "__main__":
    {"cpuinfo": cpuinfo, "torch": torch_isa}[sys.argv[1] if len(sys.argv) > 1 else "cpuinfo"]()
