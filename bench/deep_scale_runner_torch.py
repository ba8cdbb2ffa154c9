"""The PyTorch runner of bench/idle-machine.sh's suite-throughput section: RUNS whole runs of the deep-scale recipe
(bench/deep_scale_pilot_torch.py, seeds 0…RUNS−1, each a separate process) with PROCS processes side by side and
THREADS threads each (OMP_NUM_THREADS and --threads), as `calib suite run --jobs PROCS` runs calibkit's. Prints one
JSON line: runs finished, wall seconds from the first start to the last end, runs per hour. Stopped by a signal
(SIGTERM from `timeout`), it kills its runs and still prints the line, with the runs finished by then and "cut": true.

Run: python3 bench/deep_scale_runner_torch.py --splits DIR --out DIR --runs 4 --procs 2 --threads 1 --epochs 2
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=2)
    a = ap.parse_args()
    env = {**os.environ, "OMP_NUM_THREADS": str(a.threads), "MKL_NUM_THREADS": str(a.threads), "OPENBLAS_NUM_THREADS": str(a.threads)}
    pending, running, finished, failed = list(range(a.runs)), [], 0, 0
    t0 = time.perf_counter()
    cut = False

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        while pending or running:
            while pending and len(running) < a.procs:
                seed = pending.pop(0)
                out = os.path.join(a.out, f"seed{seed}")
                cmd = [sys.executable, os.path.join(HERE, "deep_scale_pilot_torch.py"), "--splits", a.splits, "--out", out, "--epochs", str(a.epochs), "--seed", str(seed), "--threads", str(a.threads)]
                os.makedirs(a.out, exist_ok=True)
                log = open(f"{out}.log", "w")
                running.append((subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log), log, out))
            time.sleep(0.05)
            for r in [r for r in running if r[0].poll() is not None]:
                running.remove(r)
                r[1].close()
                if r[0].returncode == 0:
                    finished += 1
                else:
                    failed += 1
                    with open(f"{r[2]}.log") as f:
                        sys.stderr.write(f.read()[-2000:])
    except KeyboardInterrupt:
        cut = True
        for r in running:
            r[0].kill()
    wall = time.perf_counter() - t0
    epochs_done = 0  # epoch lines of every run's log (finished or not): throughput of a cut configuration too
    for seed in range(a.runs):
        log = os.path.join(a.out, f"seed{seed}", "log.jsonl")
        if os.path.exists(log):
            with open(log) as f:
                epochs_done += sum(1 for line in f if line.strip())
    print(json.dumps({"bench": "suite-throughput", "framework": "torch", "jobs": a.procs, "runs": a.runs, "finished": finished, "failed": failed, "epochs_done": epochs_done, "procs": a.procs, "threads": a.threads, "epochs": a.epochs,
                      "wall_s": round(wall, 2), "runs_per_hour": round(finished * 3600 / wall, 1), "epochs_per_hour": round(epochs_done * 3600 / wall, 1), "cut": cut}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
