"""PyTorch peer of `calib train` for bench/train-run.ts: the same whole run on Fashion-MNIST, doing the same work.

Data: the IDX files (byte/255, [1, 28, 28]); 10 % of train held out for validation; the full test split.
Model: mlp (784-512-512-10, ReLU, PyTorch default init), lenet (conv 5x5 pad 2 -> ReLU -> max-pool, conv 5x5 ->
ReLU -> max-pool, 400-120-84-10, default init) or resnet20 (the CIFAR ResNet of bench/train_fashion_mnist_torch.py:
option-A shortcuts, kaiming-normal), or resnet8 (the same at depth 8: the deep-scale architecture). Recipe: SGD momentum 0.9, weight decay 5e-4, lr 0.1, x0.1 at 50 % and 75 % of
the epochs, batch 128 (last partial batch kept), no augmentation. Each epoch: validation logits (batch 500) ->
accuracy, NLL, ECE and AdaECE (15 bins), one JSON line appended to log.jsonl, checkpoint-last (model + optimizer,
written to a temporary file and renamed) and checkpoint-best when validation accuracy improved. At the end: the
best epoch's weights, validation and test logits and labels as .npy, model.onnx (torch.onnx.export), summary.json.
summary.json's `phases_cpu_s` splits the process's CPU time (time.process_time, every thread) into startup (interpreter
and imports), decode, split, setup, steps, validation (with checkpoints), final (reload, logits, .npy), export and
summary (bench/train-run-anatomy.ts reads it).

Run: OMP_NUM_THREADS=T /usr/bin/python3 bench/train_run_torch.py --model M --epochs E --threads T --out DIR [--data D]
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_fashion_mnist_torch import ResNet, ece  # noqa: E402


def read_idx(path):
    import gzip

    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * dims).reshape(shape)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1, self.fc2, self.head = nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2).flatten(1)
        return self.head(F.relu(self.fc2(F.relu(self.fc1(x)))))


def build(name):
    if name == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    if name == "lenet":
        return LeNet()
    if name == "resnet20":
        return ResNet(20, 16, 10, 1)
    if name == "resnet8":  # the deep-scale architecture (src/suite/papers/scales.ts DEEP: cifar-resnet-8, width 16)
        return ResNet(8, 16, 10, 1)
    raise SystemExit(f"unknown --model {name}")


def export_onnx(model, example, path):
    """torch.onnx.export with its default exporter; "done", or why it was skipped. Since torch 2.9 the default is the
    dynamo exporter, which needs the onnxscript package: where that is missing the run skips the export (a second or
    so of its work) rather than call the deprecated TorchScript exporter."""
    try:
        torch.onnx.export(model, example, path, input_names=["input"], output_names=["logits"], dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}})
        return "done"
    except Exception as e:  # noqa: BLE001 — any exporter failure only skips the export
        return f"skipped: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]


def save_atomic(obj, path):
    torch.save(obj, path + ".tmp")
    os.replace(path + ".tmp", path)


class Phases:
    """CPU seconds (time.process_time) between successive marks, summed per phase name."""

    def __init__(self):
        self.last = time.process_time()
        self.cpu = {"startup": self.last}

    def lap(self, name):
        now = time.process_time()
        self.cpu[name] = self.cpu.get(name, 0.0) + now - self.last
        self.last = now


def main():
    phases = Phases()
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(a.seed)
    os.makedirs(a.out, exist_ok=True)
    x = torch.from_numpy(read_idx(f"{a.data}/train-images-idx3-ubyte.gz").astype(np.float32) / 255).reshape(-1, 1, 28, 28)
    y = torch.from_numpy(read_idx(f"{a.data}/train-labels-idx1-ubyte.gz").astype(np.int64))
    xte = torch.from_numpy(read_idx(f"{a.data}/t10k-images-idx3-ubyte.gz").astype(np.float32) / 255).reshape(-1, 1, 28, 28)
    yte = torch.from_numpy(read_idx(f"{a.data}/t10k-labels-idx1-ubyte.gz").astype(np.int64))
    phases.lap("decode")
    perm = torch.randperm(len(x), generator=torch.Generator().manual_seed(1))
    nval = len(x) // 10
    xva, yva, xtr, ytr = x[perm[:nval]], y[perm[:nval]], x[perm[nval:]], y[perm[nval:]]
    phases.lap("split")
    model = build(a.model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, [round(0.5 * a.epochs), round(0.75 * a.epochs)], 0.1)

    def logits_of(xs):
        model.eval()
        with torch.no_grad():
            return torch.cat([model(xs[i : i + 500]) for i in range(0, len(xs), 500)])

    best = -1.0
    phases.lap("setup")
    log = open(f"{a.out}/log.jsonl", "w")
    for epoch in range(a.epochs):
        t0 = time.perf_counter()
        model.train()
        order = torch.randperm(len(xtr))
        loss_sum = 0.0
        for i in range(0, len(xtr), 128):
            idx = order[i : i + 128]
            loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item() * len(idx)
        train_s = time.perf_counter() - t0
        phases.lap("steps")
        sched.step()
        z = logits_of(xva).double()
        p = torch.softmax(z, 1)
        conf, pred = p.max(1)
        correct = (pred == yva).double().numpy()
        acc = correct.mean()
        line = {
            "epoch": epoch + 1, "train_loss": loss_sum / len(xtr), "val_accuracy": acc, "val_nll": F.cross_entropy(z, yva).item(),
            "val_ece": ece(conf.numpy(), correct, 15, False), "val_adaece": ece(conf.numpy(), correct, 15, True),
            "best": bool(acc > best), "train_time_s": train_s, "epoch_time_s": time.perf_counter() - t0,
        }
        log.write(json.dumps(line) + "\n")
        log.flush()
        state = {"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch + 1}
        save_atomic(state, f"{a.out}/checkpoint-last.pt")
        if acc > best:
            best = acc
            save_atomic(state, f"{a.out}/checkpoint-best.pt")
        phases.lap("validation")
    model.load_state_dict(torch.load(f"{a.out}/checkpoint-best.pt", weights_only=False)["model"])
    zva, zte = logits_of(xva), logits_of(xte)
    for name, arr in (("val-logits", zva), ("val-labels", yva), ("test-logits", zte), ("test-labels", yte)):
        np.save(f"{a.out}/{name}.npy", arr.numpy())
    model.eval()
    phases.lap("final")
    onnx_export = export_onnx(model, xte[:1], f"{a.out}/model.onnx")
    phases.lap("export")
    test_acc = (zte.argmax(1) == yte).double().mean().item()
    phases.lap("summary")
    with open(f"{a.out}/summary.json", "w") as f:
        json.dump({"best_val_accuracy": best, "test_accuracy": test_acc, "torch": torch.__version__, "train_images": len(xtr), "onnx_export": onnx_export, "phases_cpu_s": phases.cpu}, f)
    print(json.dumps({"test_accuracy": test_acc, "best_val_accuracy": best}))


if __name__ == "__main__":
    main()
