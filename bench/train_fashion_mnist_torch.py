"""PyTorch peer of bench/train-fashion-mnist.ts: the same splits (read from the .npy files the TypeScript bench
writes with --torch), the same CIFAR ResNet (option-A shortcuts, kaiming-normal init, akamaster layout) on 28x28
one-channel images, the same recipe (SGD momentum 0.9, weight decay 5e-4, lr 0.1, x0.1 at 50 % and 75 % of the
epochs, batch 128, plain CE, best epoch by validation accuracy), 2 threads. Prints one JSON line: test accuracy,
ECE and AdaECE (15 bins, (l,u]; AdaECE with equal-count bins), NLL and training samples/s.

Run: /usr/bin/python3 bench/train_fashion_mnist_torch.py DATA_DIR DEPTH WIDTH EPOCHS
"""
import json
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.pad = (cout - cin) // 2 if (stride != 1 or cin != cout) else None

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        sc = x if self.pad is None else F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, self.pad, self.pad))
        return F.relu(out + sc)


class ResNet(nn.Module):
    def __init__(self, depth, width, classes, cin):
        super().__init__()
        n = (depth - 2) // 6
        self.conv1 = nn.Conv2d(cin, width, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        layers, c = [], width
        for s, mult in enumerate([1, 2, 4]):
            for i in range(n):
                out = width * mult
                layers.append(BasicBlock(c, out, 2 if (i == 0 and s > 0) else 1))
                c = out
        self.blocks = nn.Sequential(*layers)
        self.linear = nn.Linear(4 * width, classes)
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.kaiming_normal_(m.weight)

    def forward(self, x):
        h = self.blocks(F.relu(self.bn1(self.conv1(x))))
        return self.linear(F.adaptive_avg_pool2d(h, 1).flatten(1))


def ece(conf, correct, bins, adaptive):
    n = len(conf)
    if adaptive:
        order = np.argsort(conf, kind="stable")
        groups = np.array_split(order, bins)
    else:
        idx = np.clip(np.ceil(conf * bins).astype(int) - 1, 0, bins - 1)
        groups = [np.nonzero(idx == b)[0] for b in range(bins)]
    return sum(len(g) / n * abs(correct[g].mean() - conf[g].mean()) for g in groups if len(g))


def main():
    data, depth, width, epochs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(2)
    torch.manual_seed(0)
    load = lambda name: np.load(f"{data}/{name}.npy")
    xtr, ytr = torch.from_numpy(load("train-images")), torch.from_numpy(load("train-labels")).long()
    xva, yva = torch.from_numpy(load("val-images")), torch.from_numpy(load("val-labels")).long()
    xte, yte = torch.from_numpy(load("test-images")), torch.from_numpy(load("test-labels")).long()
    model = ResNet(depth, width, 10, xtr.shape[1])
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, [round(0.5 * epochs), round(0.75 * epochs)], 0.1)
    best, best_state, train_s, samples = -1.0, None, 0.0, 0

    def logits_of(x):
        model.eval()
        with torch.no_grad():
            return torch.cat([model(x[i : i + 500]) for i in range(0, len(x), 500)])

    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        t0 = time.perf_counter()
        for i in range(0, len(xtr), 128):
            idx = perm[i : i + 128]
            loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            samples += len(idx)
        train_s += time.perf_counter() - t0
        sched.step()
        acc = (logits_of(xva).argmax(1) == yva).float().mean().item()
        if acc > best:
            best, best_state = acc, {k: v.clone() for k, v in model.state_dict().items()}
        print(json.dumps({"epoch": epoch + 1, "val_accuracy": acc}), file=sys.stderr, flush=True)
    model.load_state_dict(best_state)
    z = logits_of(xte).double()
    p = torch.softmax(z, 1)
    conf, pred = p.max(1)
    correct = (pred == yte).double().numpy()
    conf = conf.numpy()
    nll = F.cross_entropy(z, yte).item()
    print(json.dumps({
        "loss": "ce (pytorch)", "torch": torch.__version__, "accuracy": correct.mean(), "ece": ece(conf, correct, 15, False),
        "adaece": ece(conf, correct, 15, True), "nll": nll, "samples_per_s": samples / train_s,
    }))


if __name__ == "__main__":
    main()
