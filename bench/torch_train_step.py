"""PyTorch peer of bench/train-step.ts: the same architecture, init scheme, optimizer (SGD momentum 0.9,
weight decay 5e-4, lr 0.01), batch size and thread count (torch.set_num_threads(2)).

Protocol (so the TypeScript bench can interleave rounds in one run): started as
    python3 bench/torch_train_step.py <model> <batch> <threads>
it builds the model and answers one JSON line per stdin line:
    {"cmd": "run", "steps": k}  ->  {"ms": [k step times in ms], "cpu_ms": [k process CPU times in ms], "loss": last loss}
    {"cmd": "quit"}             ->  exits
The first line it prints is {"ready": true, "torch": version, "params": count}.
"""
import json
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class LambdaLayer(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class BasicBlock(nn.Module):
    """akamaster/pytorch_resnet_cifar10 BasicBlock with option-A shortcuts."""

    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            pad = planes // 4
            self.shortcut = LambdaLayer(lambda x: F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, pad, pad), "constant", 0))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class CifarResNet(nn.Module):
    def __init__(self, depth=20, num_classes=10):
        super().__init__()
        n = (depth - 2) // 6
        self.in_planes = 16
        self.conv1 = nn.Conv2d(3, 16, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.layer1 = self._make_layer(16, n, 1)
        self.layer2 = self._make_layer(32, n, 2)
        self.layer3 = self._make_layer(64, n, 2)
        self.linear = nn.Linear(64, num_classes)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Conv2d)):
                nn.init.kaiming_normal_(m.weight)

    def _make_layer(self, planes, blocks, stride):
        layers = []
        for s in [stride] + [1] * (blocks - 1):
            layers.append(BasicBlock(self.in_planes, planes, s))
            self.in_planes = planes
        return nn.Sequential(*layers)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer3(self.layer2(self.layer1(out)))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.linear(out)


class LeNet(nn.Module):
    """The toolkit's lenet: conv 5x5 pad 2 (1->6) -> ReLU -> max-pool 2, conv 5x5 (6->16) -> ReLU -> max-pool 2, 400-120-84-10."""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 6, 5, padding=2), nn.Conv2d(6, 16, 5)
        self.fc1, self.fc2, self.head = nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2).flatten(1)
        return self.head(F.relu(self.fc2(F.relu(self.fc1(x)))))


def build(name):
    if name == "mlp":
        return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)), (784,)
    if name == "lenet":
        return LeNet(), (1, 28, 28)
    if name.startswith("fmnist-resnet"):
        model = CifarResNet(int(name[len("fmnist-resnet"):]))
        model.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=1, padding=1, bias=False)
        nn.init.kaiming_normal_(model.conv1.weight)
        return model, (1, 28, 28)
    if name.startswith("resnet"):
        return CifarResNet(int(name[len("resnet"):])), (3, 32, 32)
    raise SystemExit(f"unknown model {name}")


def main():
    name, batch, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(0)
    model, shape = build(name)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
    x = torch.randn(batch, *shape)
    y = torch.randint(0, 10, (batch,))
    count = sum(p.numel() for p in model.parameters())
    print(json.dumps({"ready": True, "torch": torch.__version__, "params": count}), flush=True)
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("cmd") == "quit":
            break
        times, cpu, loss = [], [], float("nan")
        for _ in range(int(msg.get("steps", 1))):
            t0 = time.perf_counter()
            c0 = time.process_time()
            opt.zero_grad(set_to_none=True)
            out = F.cross_entropy(model(x), y)
            out.backward()
            opt.step()
            loss = out.item()
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        print(json.dumps({"ms": times, "cpu_ms": cpu, "loss": loss}), flush=True)


if __name__ == "__main__":
    main()
