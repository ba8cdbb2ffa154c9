"""PyTorch peer of the deep-scale pilot (issue 23): one training run of a CIFAR-style BN ResNet on Fashion-MNIST in
the regime where cross-entropy memorises, measured by the pilot's criteria. Its own code; it shares only the model
class with bench/train_fashion_mnist_torch.py (option-A shortcuts, kaiming-normal init, akamaster layout).

Data: the splits `calib train` uses (the .npy files `node dist/bench/deep-scale-pilot.js run --framework torch` writes from
calibkit's class-stratified subset and validation hold-out), so both frameworks train on the same images.
Recipe: SGD η₀ = 0.1, momentum 0.9, weight decay --weight-decay (default 0), batch 128 (last partial batch kept,
reshuffled each epoch), --epochs epochs with ÷10 at 50 % and 75 % (rounded as calibkit's multistep:0.5,0.75),
no augmentation, the last epoch's weights. Loss: ce, or focal −(1 − p_y)^γ log p_y (mean over the batch).
At the end, in eval mode: logits of the training, validation and test splits; temperature T fitted by NLL on the
validation logits (1-D bounded search in log T); accuracy, mean confidence, ECE (15 equal-width bins, (l,u]) and the
fraction of test confidences above 0.99. Writes DIR/summary.json (the field names of the pilot table) and
DIR/log.jsonl (one line per epoch); an epoch-end checkpoint (DIR/checkpoint.pt, atomic) lets a stopped run resume
with the same command.

Run: /usr/bin/python3 bench/deep_scale_pilot_torch.py --splits DIR --out DIR [--epochs 60] [--width 16] [--depth 8]
     [--loss ce|focal] [--gamma 3] [--seed 0] [--threads 2] [--weight-decay 0]
"""
import argparse
import json
import os
import resource
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

try:
    from scipy.optimize import minimize_scalar
except ImportError:  # a machine with torch and numpy only: fit_temperature's golden-section search
    minimize_scalar = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_fashion_mnist_torch import ResNet, ece  # noqa: E402


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def fit_temperature(z, y):
    """T = argmin NLL(softmax(z / T), y) over log T in [log 0.05, log 20] (float64)."""
    z, y = torch.from_numpy(z).double(), torch.from_numpy(y).long()
    nll = lambda log_t: F.cross_entropy(z / np.exp(log_t), y).item()
    lo, hi = np.log(0.05), np.log(20)
    if minimize_scalar is not None:
        return float(np.exp(minimize_scalar(nll, bounds=(lo, hi), method="bounded", options={"xatol": 1e-6}).x))
    g = (np.sqrt(5) - 1) / 2  # golden-section search on the same interval to the same tolerance (NLL is convex in 1/T)
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = nll(c), nll(d)
    while b - a > 1e-6:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = nll(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = nll(d)
    return float(np.exp((a + b) / 2))


def metrics(z, y):
    p = torch.softmax(torch.from_numpy(z).double(), 1)
    conf, pred = p.max(1)
    conf, correct = conf.numpy(), (pred.numpy() == y).astype(np.float64)
    return {
        "n": int(len(y)),
        "accuracy": float(correct.mean()),
        "mean_confidence": float(conf.mean()),
        "ece": float(ece(conf, correct, 15, False)),
        "nll": float(F.cross_entropy(torch.from_numpy(z).double(), torch.from_numpy(y).long()).item()),
        "fraction_confidence_above_0_99": float((conf > 0.99).mean()),
    }


def loss_of(logits, y, loss, gamma):
    ce = F.cross_entropy(logits, y, reduction="none")
    if loss == "ce":
        return ce.mean()
    return ((1 - torch.exp(-ce)).clamp_min(1e-30) ** gamma * ce).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--loss", choices=["ce", "focal"], default="ce")
    ap.add_argument("--gamma", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--weight-decay", type=float, default=0.0)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    os.makedirs(a.out, exist_ok=True)
    if os.path.exists(f"{a.out}/summary.json"):
        print(f"{a.out} finished already", file=sys.stderr)
        return
    load = lambda name: np.load(f"{a.splits}/{name}.npy")
    xtr, ytr = torch.from_numpy(load("train-images")), torch.from_numpy(load("train-labels")).long()
    xva, yva = torch.from_numpy(load("val-images")), load("val-labels").astype(np.int64)
    xte, yte = torch.from_numpy(load("test-images")), load("test-labels").astype(np.int64)
    torch.manual_seed(a.seed)
    model = ResNet(a.depth, a.width, 10, xtr.shape[1])
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=a.weight_decay)
    milestones = [round(0.5 * a.epochs), round(0.75 * a.epochs)]
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones, 0.1)
    start, wall_before, cpu_before = 0, 0.0, 0.0
    ckpt = f"{a.out}/checkpoint.pt"
    if os.path.exists(ckpt):
        state = torch.load(ckpt, weights_only=False)  # our own checkpoint: it holds the scheduler's Counter and the RNG state
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        torch.set_rng_state(state["rng"])
        start, wall_before, cpu_before = state["epoch"], state["wall_s"], state["cpu_s"]
    t0, c0 = time.perf_counter(), cpu_seconds()

    def logits_of(x):
        model.eval()
        with torch.no_grad():
            return torch.cat([model(x[i : i + 500]) for i in range(0, len(x), 500)]).numpy()

    for epoch in range(start, a.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        te = time.perf_counter()
        total = 0.0
        for i in range(0, len(xtr), 128):
            idx = perm[i : i + 128]
            loss = loss_of(model(xtr[idx]), ytr[idx], a.loss, a.gamma)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        val_acc = float((logits_of(xva).argmax(1) == yva).mean())
        line = {"epoch": epoch + 1, "train_loss": total / len(xtr), "val_accuracy": val_acc, "epoch_s": time.perf_counter() - te}
        with open(f"{a.out}/log.jsonl", "a") as f:
            f.write(json.dumps(line) + "\n")
        state = {"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "rng": torch.get_rng_state(), "epoch": epoch + 1,
                 "wall_s": wall_before + time.perf_counter() - t0, "cpu_s": cpu_before + cpu_seconds() - c0}
        torch.save(state, ckpt + ".tmp")
        os.replace(ckpt + ".tmp", ckpt)
    ztr, zva, zte = logits_of(xtr), logits_of(xva), logits_of(xte)
    t = fit_temperature(zva, yva)
    summary = {
        "framework": "pytorch",
        "torch": torch.__version__,
        "setting": {"model": f"cifar-resnet-{a.depth}", "width": a.width, "epochs": a.epochs, "train": len(ytr), "validation": len(yva),
                    "loss": a.loss, **({"gamma": a.gamma} if a.loss == "focal" else {}), "weight_decay": a.weight_decay, "seed": a.seed, "threads": a.threads},
        "train": metrics(ztr, ytr.numpy()),
        "validation": metrics(zva, yva),
        "test": metrics(zte, yte),
        "temperature": t,
        "test_after_temperature": metrics(zte / t, yte),
        "wall_s": wall_before + time.perf_counter() - t0,
        "cpu_s": cpu_before + cpu_seconds() - c0,
        "load_average": os.getloadavg(),
    }
    with open(f"{a.out}/summary.json.tmp", "w") as f:
        json.dump(summary, f, indent=2)
    os.replace(f"{a.out}/summary.json.tmp", f"{a.out}/summary.json")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
