"""NumPy peer of bench/posthoc-sms-fit.ts: CPU seconds of one full-map objective + gradient evaluation
(Z = X Wᵀ + b, softmax, mean NLL, R = (Q − onehot(y)) / N, ∇W = Rᵀ X, ∇b = column sums of R) at N × C float64,
one BLAS thread (the caller sets OPENBLAS_NUM_THREADS=1 / OMP_NUM_THREADS=1). Random features in [−13, 0] (the range
of SMS's log ts-mix features at C = 100); the cost does not depend on the values.
Usage: /usr/bin/python3 bench/sms_objective_numpy.py N C REPEATS → one JSON line."""
import json
import sys
import time

import numpy as np

n, c, repeats = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
x = -13 * rng.random((n, c))
y = rng.integers(0, c, n)
w = np.eye(c) + 0.01 * rng.standard_normal((c, c))
b = np.zeros(c)


def evaluate():
    z = x @ w.T + b
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    s = e.sum(axis=1, keepdims=True)
    nll = float(np.mean(np.log(s[:, 0]) - z[np.arange(n), y]))
    r = e / s
    r[np.arange(n), y] -= 1
    r /= n
    return nll, r.T @ x, r.sum(axis=0)


times = []
for _ in range(repeats):
    t0 = time.process_time()
    evaluate()
    times.append(time.process_time() - t0)
times.sort()
print(json.dumps({'numpy': np.__version__, 'evaluation_cpu_s_median': times[len(times) // 2], 'repeats': repeats}))
