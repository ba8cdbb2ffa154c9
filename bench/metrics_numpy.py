#!/usr/bin/env python3
"""Vectorized NumPy peer of bench/metrics-throughput.ts: the same metrics on the same data, timed.

Usage: metrics_numpy.py PROBS.npy LABELS.npy [BINS] [REPEATS] [CHUNK_ROWS]
PROBS.npy: N x C float32 probabilities; LABELS.npy: N int32 labels.
Prints one JSON object: wall and CPU seconds per repeat (the input read is not timed) and the metric values.
Processing is chunked (CHUNK_ROWS rows at a time, float64 arithmetic) so the peer is not penalised by
N x C float64 temporaries; the one-pass metrics are accumulated per chunk, the sorting ones at the end.
"""
import json
import sys
import time

import numpy as np


def equal_width_bins(x, edges, m):
    """'(l,u]' bins: ceil(x*M)-1 corrected by explicit comparisons with the float64 edges m/M."""
    idx = np.clip(np.ceil(x * m) - 1, 0, m - 1).astype(np.int64)
    idx -= (idx > 0) & (x <= edges[idx])
    idx += (idx < m - 1) & (x > edges[np.minimum(idx + 1, m)])
    return idx


def metrics(p32, y, m, chunk_rows):
    n, c = p32.shape
    edges = np.arange(m + 1) / m
    offsets = (np.arange(c) * m)[None, :]
    counts = np.zeros(c * m)
    sum_p = np.zeros(c * m)
    sum_y = np.zeros(c * m)
    nll = brier = entropy = 0.0
    conf = np.empty(n)
    correct = np.empty(n)
    for start in range(0, n, chunk_rows):
        p = p32[start:start + chunk_rows].astype(np.float64)
        yy = y[start:start + chunk_rows]
        rows = np.arange(p.shape[0])
        if not np.isfinite(p).all() or (p < 0).any() or (np.abs(p.sum(1) - 1) > 1e-3).any():
            raise ValueError('invalid probabilities')
        pred = p.argmax(1)
        conf[start:start + len(p)] = np.minimum(p[rows, pred], 1.0)
        correct[start:start + len(p)] = pred == yy
        py = p[rows, yy]
        nll += -np.log(np.clip(py, 1e-12, 1.0)).sum()
        brier += ((p * p).sum(1) - py * py + (1 - py) ** 2).sum()
        entropy += -(p * np.log(np.where(p > 0, p, 1.0))).sum()
        idx = equal_width_bins(p, edges, m)
        flat = (idx + offsets).ravel()
        counts += np.bincount(flat, minlength=c * m)
        sum_p += np.bincount(flat, weights=p.ravel(), minlength=c * m)
        sum_y += np.bincount(yy * m + idx[rows, yy], minlength=c * m)
    out = {'accuracy': correct.mean(), 'nll': nll / n, 'brier': brier / n, 'mean_entropy': entropy / n,
           'mean_confidence': conf.mean(), 'classwise_ece': np.abs(sum_y - sum_p).sum() / (c * n)}
    # top-label equal-width bins
    b = equal_width_bins(conf, edges, m)
    cnt = np.bincount(b, minlength=m)
    sc = np.bincount(b, weights=conf, minlength=m)
    sa = np.bincount(b, weights=correct, minlength=m)
    ne = cnt > 0
    gap = np.abs(sa[ne] - sc[ne]) / cnt[ne]
    w = cnt[ne] / n
    out['ece'] = (w * gap).sum()
    out['ece_l2'] = np.sqrt((w * gap ** 2).sum())
    out['mce'] = gap.max()
    cb = sc[ne] / cnt[ne]
    out['oe'] = (w * cb * np.maximum(cb - sa[ne] / cnt[ne], 0)).sum()
    acc_bin = np.where(cnt > 0, sa / np.maximum(cnt, 1), 0)
    out['ece_lb'] = np.sqrt(((acc_bin[b] - conf) ** 2).mean())
    # sorted metrics
    order = np.argsort(conf, kind='stable')
    sconf = conf[order]
    scor = correct[order]
    rank_bin = np.minimum(m - 1, np.floor((np.arange(n) / n) * m)).astype(np.int64)
    cnt = np.bincount(rank_bin, minlength=m)
    gap = np.abs(np.bincount(rank_bin, weights=scor, minlength=m) - np.bincount(rank_bin, weights=sconf, minlength=m))
    out['adaece'] = gap.sum() / n
    out['adaece_l2'] = np.sqrt((gap ** 2 / np.maximum(cnt, 1)).sum() / n)
    out['ks'] = np.abs(np.cumsum(sconf) / n - np.cumsum(scor) / n).max()
    # Kumar et al. debiased l2 (get_equal_bins + unbiased_l2_ce)
    groups = np.array_split(sconf, min(m, n))
    kedges = sorted(set([(groups[i][-1] + groups[i + 1][0]) / 2.0 for i in range(len(groups) - 1)] + [1.0]))
    kb = np.minimum(np.searchsorted(kedges, sconf), len(kedges) - 1)
    kn = np.bincount(kb, minlength=len(kedges))
    ka = np.bincount(kb, weights=scor, minlength=len(kedges))
    kc = np.bincount(kb, weights=sconf, minlength=len(kedges))
    ok = kn >= 2
    ma = ka[ok] / kn[ok]
    sq = (kn[ok] / n * ((kc[ok] / kn[ok] - ma) ** 2 - ma * (1 - ma) / (kn[ok] - 1))).sum()
    out['debiased_ece'] = np.sqrt(max(sq, 0.0))
    # monotonic sweep (equal mass, l2), prefix sums per bin count
    prefix = np.concatenate([[0.0], np.cumsum(scor)])
    cprefix = np.concatenate([[0.0], np.cumsum(sconf)])
    ranks = np.arange(n)
    chosen = 1
    for nb in range(2, n):
        bins_of_rank = np.minimum(nb - 1, np.floor((ranks / n) * nb)).astype(np.int64)
        starts = np.searchsorted(bins_of_rank, np.arange(nb + 1))
        sizes = np.diff(starts)
        nz = sizes > 0
        accs = (prefix[starts[1:]] - prefix[starts[:-1]])[nz] / sizes[nz]
        if (np.diff(accs) < 0).any():
            break
        chosen = nb
    bins_of_rank = np.minimum(chosen - 1, np.floor((ranks / n) * chosen)).astype(np.int64)
    starts = np.searchsorted(bins_of_rank, np.arange(chosen + 1))
    sizes = np.diff(starts)
    nz = sizes > 0
    g = ((prefix[starts[1:]] - prefix[starts[:-1]]) - (cprefix[starts[1:]] - cprefix[starts[:-1]]))[nz] / sizes[nz]
    out['sweep_ece'] = np.sqrt((sizes[nz] * g ** 2).sum() / n)
    out['sweep_bins'] = chosen
    # error-detection AUROC with mid-ranks
    _, inv, tie_counts = np.unique(sconf, return_inverse=True, return_counts=True)
    ends = np.cumsum(tie_counts)
    mid = (ends - tie_counts + 1 + ends) / 2.0
    pos = scor.sum()
    out['error_auroc'] = ((mid[inv] * scor).sum() - pos * (pos + 1) / 2) / (pos * (n - pos))
    return {k: float(v) for k, v in out.items()}


def main():
    probs_path, labels_path = sys.argv[1], sys.argv[2]
    m = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    chunk_rows = int(sys.argv[5]) if len(sys.argv) > 5 else 16384
    p32 = np.load(probs_path)
    y = np.load(labels_path).astype(np.int64)
    seconds = []
    cpu_seconds = []
    values = None
    for _ in range(repeats):
        t = time.perf_counter()
        c = time.process_time()
        values = metrics(p32, y, m, chunk_rows)
        cpu_seconds.append(time.process_time() - c)
        seconds.append(time.perf_counter() - t)
    print(json.dumps({'numpy': np.__version__, 'seconds': seconds, 'cpu_seconds': cpu_seconds, 'metrics': values}))


if __name__ == '__main__':
    main()
